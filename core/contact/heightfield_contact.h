// Contact queries on a heightfield (terrain/heightfield.h), with its triangles
// and walls made on demand from the grid near the query (as Jolt's
// HeightFieldShape does), never stored.
//
// Sphere (a wheel, seed 000 §2, eq. 1): each triangle or wall within reach
// gives its nearest point to the centre, as each convex piece does for quad
// terrain. The grid knows which features meet, so the seams are handled as
// flush seams between pieces (contact/wheel_contact.cpp): a nearest point on
// a triangle's edge or corner is a ghost when a feature through that point is
// nearer to the centre and its nearest point does not rise above this
// triangle's plane (the surface continues flat or turns away: a convex crease
// or no crease); at a concave crease, where the neighbour rises towards the
// wheel by more than kCreaseSine, both contacts are real, as between quads.
// Features whose nearest points coincide (a corner shared by six triangles,
// an edge by two) give one contact. A flat field thus gives exactly the one
// contact a single quad gives, whatever its seams.
//
// Box (a robot body): the box's corners, edge midpoints and face centres are
// tested against the surface; each point below it pushes the box out along
// the surface normal there, carrying the trapezoidal-rule share of a face
// (corner 1/16, edge midpoint 1/8, face centre 1/4), so a box face lying flat
// on the field is the contact spring k with damper c, as on a quad.
#pragma once

#include <vector>

#include "contact/body_contact.h"
#include "terrain/heightfield.h"

namespace roverlab {

/// The nearest point of one heightfield feature (triangle or wall) to a point.
struct SurfaceHit {
  long feature = -1;            ///< triangle index, or triangleCount() + wall index
  Vec3 closest = Vec3::Zero();  ///< nearest point of the feature (m)
  Vec3 normal = Vec3::UnitZ();  ///< unit, from the surface towards the query point
  Vec3 face = Vec3::UnitZ();    ///< the feature's own unit outward normal
  double distance = 0.0;        ///< signed (m): < 0 when the point is under the surface
  bool boundary = false;        ///< the nearest point is on the feature's edge or corner
  long samples[2] = {-1, -1};   ///< for a triangle, the grid samples of that edge (or corner, -1)
  long corners[3] = {-1, -1, -1};  ///< for a triangle, the grid samples of its corners
};

/// The contacts of a sphere of radius `radius` (m) centred at `centre` with
/// the heightfield, appended to `out`; `scratch` holds the candidates.
void heightfieldSphereHits(const Heightfield& field, const Vec3& centre, double radius,
                           std::vector<SurfaceHit>& scratch, std::vector<SurfaceHit>& out);

/// The contact of a box with a heightfield, with the force law of
/// contact/body_contact.h applied at each sample point below the surface;
/// false when no point is below it. `piece` is the contact's terrain id.
bool boxHeightfieldContact(const Heightfield& field, int piece, double mu, const ContactBox& box,
                           const OrientedBox& placed, const BodyMotion& motion, BodyContact& out);

}  // namespace roverlab
