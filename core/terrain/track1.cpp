#include "terrain/track1.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/size_optimized.h"

ROVERLAB_SIZE_OPTIMIZED_BEGIN

namespace roverlab {
namespace {

Track1Node nodeOnEdge(const Vec3& a, const Vec3& b, double lateral, const Vec3& normal) {
  Track1Node n;
  n.linePoint = a;
  n.lineDir = (b - a).normalized();
  n.edgeLength = (b - a).norm();
  n.point = a + lateral * (b - a);
  n.normal = normal;
  return n;
}

}  // namespace

Expected<std::vector<Track1Node>> makeTrack1(const std::vector<Quad>& row, double lateral) {
  if (row.empty())
    return Expected<std::vector<Track1Node>>::failure("left",
                                                      "Track1 needs at least one left-row quad");
  if (!(lateral >= 0 && lateral <= 1))
    return Expected<std::vector<Track1Node>>::failure("lateral", "must be within [0, 1]");
  std::vector<Track1Node> nodes;
  nodes.push_back(nodeOnEdge(row[0].corners[0], row[0].corners[1], lateral, row[0].normal));
  for (size_t i = 0; i < row.size(); ++i) {
    // The far edge of quad i is the near edge of quad i+1: it lies on both
    // planes, so it is their intersection line.
    const Vec3 normal =
        i + 1 < row.size() ? (row[i].normal + row[i + 1].normal).normalized() : row[i].normal;
    nodes.push_back(nodeOnEdge(row[i].corners[3], row[i].corners[2], lateral, normal));
  }
  return nodes;
}

Expected<Track1Node> moveTrack1Node(const Track1Node& node, int axis, double value) {
  if (axis < 0 || axis > 2)
    return Expected<Track1Node>::failure("axis", "must be 0 (x), 1 (y) or 2 (z)");
  if (!std::isfinite(value)) return Expected<Track1Node>::failure("value", "not finite");
  const char* names[] = {"x", "y", "z"};
  if (std::abs(node.lineDir[axis]) < 1e-9)
    return Expected<Track1Node>::failure(
        names[axis], std::string("the node's line is perpendicular to the ") + names[axis] +
                         " axis, so " + names[axis] + " cannot change; set another coordinate");
  const double t = (value - node.linePoint[axis]) / node.lineDir[axis];
  const double tol = 1e-9 * (1.0 + node.edgeLength);
  if (t < -tol || t > node.edgeLength + tol) {
    const double lo = node.linePoint[axis],
                 hi = node.linePoint[axis] + node.edgeLength * node.lineDir[axis];
    return Expected<Track1Node>::failure(
        names[axis], std::string(names[axis]) + " = " + format(value) +
                         " would take the node off the left row; on its edge " + names[axis] +
                         " runs from " + format(std::min(lo, hi)) + " to " +
                         format(std::max(lo, hi)) + " m");
  }
  Track1Node moved = node;
  moved.point = node.linePoint + t * node.lineDir;
  moved.point[axis] = value;
  return moved;
}

Expected<double> track1Along(const Track1Node& node, const Vec3& point) {
  if (!point.allFinite()) return Expected<double>::failure("", "not finite");
  const Vec3 off = point - node.linePoint;
  const double along = off.dot(node.lineDir);
  const double dist = (off - along * node.lineDir).norm();
  if (dist > 1e-6 * (1 + off.norm()))
    return Expected<double>::failure(
        "", "is " + format(dist) +
                " m off its line (the intersection of the adjacent left-row planes)");
  const double tol = 1e-6 * (1.0 + node.edgeLength);
  if (along < -tol || along > node.edgeLength + tol)
    return Expected<double>::failure(
        "", "lies off the left row: " + format(along < 0 ? -along : along - node.edgeLength) +
                " m beyond the end of its edge (Track1 nodes stay on the left part)");
  return along;
}

}  // namespace roverlab

ROVERLAB_SIZE_OPTIMIZED_END
