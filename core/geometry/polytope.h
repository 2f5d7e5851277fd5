// Convex polytope: the shape of every terrain piece ([GKS2025] §2: terrain is a
// set of convex polyhedra). Built once from points by a convex hull; immutable.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#include "common/types.h"

namespace roverlab {

/// Oriented plane n·x = offset, n unit length.
struct Plane {
  Vec3 normal = Vec3::UnitZ();  ///< unit outward normal
  double offset = 0.0;          ///< n·x on the plane (m)
  double signedDistance(const Vec3& p) const { return normal.dot(p) - offset; }
};

/// Allocates on 64-byte cache lines: an array of n such lines' worth of
/// elements then spans n lines, not n + 1.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kLine{64};
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kLine)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kLine); }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
  friend bool operator!=(const CacheLineAllocator&, const CacheLineAllocator&) { return false; }
};

/// One edge of one face: the plane through the edge perpendicular to the face,
/// normal pointing out of the face, and the edge's two vertices.
struct FaceEdge {
  Plane plane;
  int from = 0, to = 0;  ///< vertex indices, in the face's counter-clockwise order
};

/// A convex polytope in world coordinates.
struct Polytope {
  std::vector<Vec3> vertices;  ///< hull vertices (m), no duplicates
  /// one plane per face, outward normals; on cache lines, because a point
  /// query reads them all first (pointDistance in geometry/gjk.h)
  std::vector<Plane, CacheLineAllocator<Plane>> faces;
  std::vector<std::vector<int>> faceVertices;  ///< per face: vertex indices, CCW seen from outside
  std::vector<FaceEdge> edges;                 ///< face edges, grouped by face
  std::vector<int> edgeStart;    ///< (faces + 1): faces[f]'s edges are edgeStart[f]..edgeStart[f+1]
  Aabb box;                      ///< bounding box of the vertices (m)
  Vec3 centroid = Vec3::Zero();  ///< mean of the vertices (m)
  double scale = 0.0;            ///< largest box extent (m), sets tolerances

  /// Vertex index of the support point in direction d (max d·v).
  int support(const Vec3& d) const;
};

/// Maximum number of input points the hull accepts. Terrain pieces are small
/// convex cells; larger sets should be split into several pieces.
constexpr int kMaxHullPoints = 128;

/// Convex hull of points. Rejects non-finite coordinates, fewer than 4 points,
/// and point sets that are (nearly) coplanar, collinear or coincident, with an
/// Issue whose path is `points` or `points[i]`.
Expected<Polytope> makeHull(const std::vector<Vec3>& points);

/// Fills `edges` and `edgeStart` from faces and faceVertices (for shapes
/// assembled by hand, e.g. by terrain builders).
void buildFaceEdges(Polytope& poly);

/// True when the point lies inside or on the polytope within `tol` (m).
bool contains(const Polytope& poly, const Vec3& p, double tol = 0.0);

}  // namespace roverlab
