// Wheel-terrain contact detection ([GKS2025] §2, eq. 1): the wheel is a sphere of
// free radius r truncated on both sides to the tread width; each convex piece
// within reach gives at most one contact point, on the line from the wheel
// centre O towards the piece's nearest point. Several pieces give several
// contacts. A wheel tilted so far that this point falls beyond the tread
// bears on the rim of the cut instead (the flat side caps themselves are not
// modelled: touching them means the robot has rolled over).
#pragma once

#include <vector>

#include "contact/heightfield_contact.h"
#include "contact/mesh_contact.h"
#include "contact/union_law.h"
#include "geometry/gjk.h"
#include "terrain/terrain.h"

namespace roverlab {

/// Wheel geometry.
struct WheelShape {
  double radius = 0.19;  ///< free radius r (m)
  double width = 0.12;   ///< tread width (m): the sphere is cut at ±width/2 along the axle
};

/// One contact of a wheel with one terrain piece.
struct WheelContact {
  int piece = -1;                    ///< terrain piece index
  Vec3 point = Vec3::Zero();         ///< contact point P = O − r·normal (m), [GKS2025] eq. 1
  Vec3 surfacePoint = Vec3::Zero();  ///< nearest point of the piece's surface (m)
  Vec3 normal = Vec3::Zero();        ///< unit normal pushing the wheel out of the piece
  double distance = 0.0;    ///< signed centre-to-surface distance d (m), < 0 if O is inside
  double deflection = 0.0;  ///< Z = r − d (m), > 0
  /// the part of this contact's spring and damper it carries under the union
  /// law (contact/union_law.h): λ/Z ∈ (0, 1], 1 for a contact on its own
  double share = 1.0;
};

/// A piece within the wheel's reach and the centre's distance to it.
struct ContactCandidate {
  int piece = -1;
  PointDistance pd;
};

/// The pieces whose bounds come within `reach` (m), found by the terrain's
/// grid for a wheel's reach grown by kPieceListMargin: the wheel's later
/// queries whose reach lies inside it take their pieces from it, without the
/// grid. A wheel's list changes which pieces are looked at, never the result.
struct PieceList {
  Aabb reach;
  bool valid = false;
  std::vector<int> pieces;  ///< in increasing order
};

/// How far a wheel's piece list reaches beyond the wheel's own reach (m): at
/// 1 m/s and a step of 0.4 ms, a grid query every 125 steps.
constexpr double kPieceListMargin = 0.05;

/// Buffers of one wheel's query, kept by the caller between queries (the
/// step keeps them in its per-run data) so that a query allocates nothing.
struct WheelContactScratch {
  std::vector<int> near;                     ///< pieces whose bounds the wheel reaches, in order
  std::vector<PieceList> pieceLists;         ///< a list per wheel (none: the grid every time)
  size_t pieceList = 0;                      ///< the list the next query uses
  std::vector<ContactCandidate> candidates;  ///< those the wheel's sphere reaches
  SurfaceScratch surface;                    ///< a heightfield's or mesh's candidates
  std::vector<SurfaceHit> hits;              ///< a heightfield's or mesh's contacts
  UnionScratch shares;                       ///< the union law's buffers
};

/// Near lists a step keeps for each wheel (in WheelContactScratch::surface):
/// the wheel's own, and room for one near a seam of two surfaces.
constexpr size_t kNearListsPerWheel = 2;

/// Makes the next queries with `scratch` use wheel `w`'s own near lists and piece list.
inline void useWheelNearLists(WheelContactScratch& scratch, size_t w) {
  scratch.surface.firstList = kNearListsPerWheel * w;
  scratch.surface.listCount = kNearListsPerWheel;
  scratch.pieceList = w;
}

/// The touches of a wheel with centre `centre` (m) and unit axle direction
/// `axle`: each piece's, triangle's or wall's nearest point within the wheel's
/// reach, less the ghosts at seams (the geometry, each with share 1). `out`
/// is cleared first. Returns their number.
int wheelTouches(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                 const Vec3& axle, WheelContactScratch& scratch, std::vector<WheelContact>& out);

/// The contacts of a wheel: its touches, each with its share of the load
/// under the union law (contact/union_law.h), less those that carry nothing.
/// `out` is cleared first. Returns the number of contacts.
int wheelContacts(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                  const Vec3& axle, WheelContactScratch& scratch, std::vector<WheelContact>& out);
/// The same with buffers of its own (allocates; for queries outside the step).
int wheelContacts(const Terrain& terrain, const WheelShape& wheel, const Vec3& centre,
                  const Vec3& axle, std::vector<WheelContact>& out);

}  // namespace roverlab
