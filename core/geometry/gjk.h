// Distance queries against convex polytopes.
//
// Point-to-polytope: the "modified GJK" of [GKS2025] §2 — the Minkowski
// difference of a point and a polytope is the polytope itself translated, so
// GJK between a point and the polytope needs no EPA and no clipping. A
// face-plane pass runs first: it answers points inside (exact signed distance
// and the exit direction through the nearest face), points far beyond the query
// radius, points whose projection falls inside the nearest face, and points
// in the region of that face's edge the projection lies beyond. The rest
// go to GJK (Gilbert, Johnson, Keerthi 1988) with the signed-volume
// sub-algorithm of Montanari, Petrinic, Barbieri (ACM TOG 36(1), 2017).
#pragma once

#include "geometry/polytope.h"

namespace roverlab {

/// What the closest point lies on.
enum class Feature : unsigned char { Face, Edge, Vertex, Inside, Far };

/// Result of a point-to-polytope query.
struct PointDistance {
  double distance = 0.0;        ///< signed distance (m): > 0 outside, < 0 inside
  Vec3 closest = Vec3::Zero();  ///< nearest point on the boundary (m); unset when Far
  Vec3 normal = Vec3::UnitZ();  ///< unit direction from the polytope towards the point
                                ///< (outside), or the exit direction through the nearest
                                ///< face (inside); unset when Far
  int face = -1;                ///< nearest face when Face or Inside, else -1
  Feature feature = Feature::Far;
  bool converged = true;  ///< false only if GJK hit its iteration cap
  int iterations = 0;     ///< GJK iterations used (0 when the face pass answered)
};

/// Maximum GJK iterations; a polytope of n vertices needs at most about n.
constexpr int kGjkMaxIterations = 64;

/// Signed distance from p to the polytope. Points farther than `radius` are
/// reported as Feature::Far with distance set to a lower bound (> radius); the
/// closest point and normal are then meaningful only when GJK ran
/// (iterations > 0). Pass infinity for an exact distance at any range.
PointDistance pointDistance(const Polytope& poly, const Vec3& p, double radius);

/// Result of a convex-convex distance query.
struct ConvexDistance {
  double distance = 0.0;       ///< >= 0 (m); 0 when the polytopes touch or overlap
  Vec3 pointA = Vec3::Zero();  ///< closest point on A (m)
  Vec3 pointB = Vec3::Zero();  ///< closest point on B (m)
  bool intersecting = false;   ///< true when distance is 0 within tolerance
  bool converged = true;
  int iterations = 0;
};

/// GJK distance between two convex polytopes (signed-volume sub-algorithm).
ConvexDistance convexDistance(const Polytope& a, const Polytope& b);

}  // namespace roverlab
