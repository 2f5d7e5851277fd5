// The union of a box's manifolds: one contact per box face, whatever the cut
// of the terrain (docs/contact.md, "Body contact").
//
// A face of the terrain cut into pieces, cells or triangles gives one
// manifold per part, each the box's face clipped to that part, with its seam
// points (where the parts meet) inside the face. The union joins the
// manifolds that lie in one plane (the same reference plane, within
// kPlaneTolerance) on the same box face: their points' convex hull, in the
// box face's own coordinates, is the polygon of the whole face, and only its
// corners below the plane are contact points. Depth is linear over a plane, so
// the hull's corners hold the deepest point and seam points inside it add
// nothing; a face cut anyhow gives the points one uncut face gives.
//
// Each box face that touches the terrain is then one spring-damper (k, c)
// shared by its contact points in proportion to their depths,
// s_i = d_i / Σ_j d_j: a face lying flat (equal depths) is k whatever the
// number of its points, a corner alone carries all of it, and a point that
// appears at zero depth takes no share, so the force is continuous.
#pragma once

#include <vector>

#include "common/types.h"

namespace roverlab {

struct BoxManifold;
struct BodyContact;
struct ContactBox;
struct BodyMotion;

/// Manifolds whose reference planes differ by less than this in normal (unit
/// vectors) and offset (m) lie in one plane: a float heightmap's tilted plane
/// is flat to a few 1e-7.
constexpr double kPlaneTolerance = 1e-6;

/// The grid hull points are rounded to (m): two points closer than this are one point.
constexpr double kHullTolerance = 1e-9;

/// A point of a manifold in the union.
struct UnionPoint {
  Vec3 at = Vec3::Zero();         ///< the contact point, midway between the surfaces (m)
  Vec3 onPolygon = Vec3::Zero();  ///< the point on the manifold's clipped polygon (m)
  Vec3 normal = Vec3::UnitZ();    ///< the manifold's normal, from the terrain into the box
  double depth = 0.0;             ///< > 0 below the reference face (m)
  double mu = 0.0;                ///< friction coefficient of its feature
  double u = 0.0, v = 0.0;        ///< coordinates in the box face's plane (m)
  int feature = -1;               ///< terrain piece or surface feature id
  int group = -1;                 ///< index into BoxUnion::groups
};

/// Manifolds in one plane on one box face.
struct UnionGroup {
  int boxFace = -1;
  bool planar = true;  ///< false for an edge-pair point (no plane)
  Vec3 plane = Vec3::UnitZ();
  double offset = 0.0;
};

/// The manifolds of one box in one force evaluation, and buffers (no
/// allocation once warm).
struct BoxUnion {
  std::vector<UnionPoint> points;
  std::vector<UnionGroup> groups;
  std::vector<int> order, hull;
  void clear() {
    points.clear();
    groups.clear();
  }
};

/// Adds a feature's manifold (its `feature` id and friction coefficient `mu`)
/// to the union.
void addManifold(const BoxManifold& m, int feature, double mu, BoxUnion& u);

/// The contacts of the union's box faces under the force law above, one per
/// box face, appended to `out`. `box` gives k and c; `axes` are the placed
/// box's axes (columns, world frame).
void unionContacts(const ContactBox& box, const Eigen::Matrix3d& axes, const BodyMotion& motion,
                   BoxUnion& u, std::vector<BodyContact>& out);

}  // namespace roverlab
