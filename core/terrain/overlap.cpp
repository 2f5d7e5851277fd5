#include "terrain/overlap.h"

#include <algorithm>
#include <numeric>

namespace roverlab {
namespace {

// Distinct edge directions of a polytope (unit; parallel edges once).
std::vector<Vec3> edgeDirections(const Polytope& p) {
  std::vector<Vec3> out;
  for (const std::vector<int>& face : p.faceVertices)
    for (size_t k = 0; k < face.size(); ++k) {
      const Vec3 d = p.vertices[face[(k + 1) % face.size()]] - p.vertices[face[k]];
      const double len = d.norm();
      if (!(len > 0)) continue;
      const Vec3 u = d / len;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const Vec3& v) { return u.cross(v).norm() < 1e-9; });
      if (!seen) out.push_back(u);
    }
  return out;
}

// Overlap of the two projections on unit axis n (m): the distance either
// shape must move along n to separate them.
double overlapAlong(const Polytope& a, const Polytope& b, const Vec3& n) {
  double minA = n.dot(a.vertices[0]), maxA = minA, minB = n.dot(b.vertices[0]), maxB = minB;
  for (const Vec3& v : a.vertices) {
    const double s = n.dot(v);
    minA = std::min(minA, s), maxA = std::max(maxA, s);
  }
  for (const Vec3& v : b.vertices) {
    const double s = n.dot(v);
    minB = std::min(minB, s), maxB = std::max(maxB, s);
  }
  return std::min(maxA - minB, maxB - minA);
}

}  // namespace

double penetrationDepth(const Polytope& a, const Polytope& b, double enough) {
  double depth = enough;
  for (const Polytope* p : {&a, &b})
    for (const Plane& f : p->faces) {
      depth = std::min(depth, overlapAlong(a, b, f.normal));
      if (depth <= 0) return depth;
    }
  const std::vector<Vec3> ea = edgeDirections(a), eb = edgeDirections(b);
  for (const Vec3& u : ea)
    for (const Vec3& v : eb) {
      const Vec3 c = u.cross(v);
      const double len = c.norm();
      if (len < 1e-6) continue;  // parallel edges: a face normal covers them
      depth = std::min(depth, overlapAlong(a, b, c / len));
      if (depth <= 0) return depth;
    }
  return depth;
}

std::vector<PieceOverlap> findOverlaps(const std::vector<const Polytope*>& pieces, double tolerance) {
  const int n = static_cast<int>(pieces.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) { return pieces[i]->box.min.x() < pieces[j]->box.min.x(); });
  std::vector<PieceOverlap> found;
  std::vector<char> flagged(n, 0);
  std::vector<int> active;  // unflagged pieces whose x range may still reach the next one's
  for (int i : order) {
    const Aabb& bi = pieces[i]->box;
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](int j) { return flagged[j] || pieces[j]->box.max.x() - bi.min.x() <= tolerance; }),
                 active.end());
    for (int j : active) {
      if (flagged[j]) continue;
      const Aabb& bj = pieces[j]->box;
      bool apart = false;
      for (int k = 0; k < 3; ++k)
        apart = apart || std::min(bi.max[k], bj.max[k]) - std::max(bi.min[k], bj.min[k]) <= tolerance;
      if (apart) continue;
      const double depth = penetrationDepth(*pieces[i], *pieces[j], 1.0);
      if (depth <= tolerance) continue;
      const int later = std::max(i, j), earlier = std::min(i, j);
      flagged[later] = 1;
      found.push_back({later, earlier, depth});
      if (later == i) break;
    }
    if (!flagged[i]) active.push_back(i);
  }
  std::sort(found.begin(), found.end(), [](const PieceOverlap& x, const PieceOverlap& y) { return x.piece < y.piece; });
  return found;
}

}  // namespace roverlab
