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

bool sweepPairs(const std::vector<Aabb>& boxes, double overlap, long budget, std::vector<char>& dead,
                const std::function<void(int, int)>& visit) {
  const int n = static_cast<int>(boxes.size());
  // The axis along which the centres spread most: along it the fewest boxes
  // share a range (a tower of boxes is swept along z, a field along x or y).
  Vec3 mean = Vec3::Zero(), square = Vec3::Zero();
  for (const Aabb& b : boxes) {
    const Vec3 c = 0.5 * (b.min + b.max);
    mean += c;
    square += c.cwiseProduct(c);
  }
  int axis = 0;
  if (n > 0) {
    const Vec3 variance = square / n - (mean / n).cwiseProduct(mean / n);
    variance.maxCoeff(&axis);
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Ties by index, so that every standard library gives the same answer.
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    const double a = boxes[i].min[axis], b = boxes[j].min[axis];
    return a < b || (a == b && i < j);
  });
  long visited = 0;
  std::vector<int> active;  // live boxes whose range along the axis may still reach the next one's
  for (int i : order) {
    const Aabb& bi = boxes[i];
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](int j) { return dead[j] || boxes[j].max[axis] - bi.min[axis] <= overlap; }),
                 active.end());
    for (int j : active) {
      if (dead[j] || dead[i]) continue;
      const Aabb& bj = boxes[j];
      bool apart = false;
      for (int k = 0; k < 3; ++k) apart = apart || std::min(bi.max[k], bj.max[k]) - std::max(bi.min[k], bj.min[k]) <= overlap;
      if (apart) continue;
      if (++visited > budget) return false;
      visit(std::min(i, j), std::max(i, j));
    }
    if (!dead[i]) active.push_back(i);
  }
  return true;
}

bool findOverlaps(const std::vector<const Polytope*>& pieces, double tolerance, std::vector<PieceOverlap>& found) {
  std::vector<Aabb> boxes;
  for (const Polytope* p : pieces) boxes.push_back(p->box);
  std::vector<char> flagged(pieces.size(), 0);
  found.clear();
  const bool complete = sweepPairs(boxes, tolerance, kMaxBoundsPairs, flagged, [&](int i, int j) {
    const double depth = penetrationDepth(*pieces[i], *pieces[j], 1e9);
    if (depth <= tolerance) return;
    flagged[j] = 1;  // the later piece
    found.push_back({j, i, depth});
  });
  std::sort(found.begin(), found.end(), [](const PieceOverlap& x, const PieceOverlap& y) { return x.piece < y.piece; });
  return complete;
}

}  // namespace roverlab
