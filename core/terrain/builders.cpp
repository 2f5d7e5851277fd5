#include "terrain/builders.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/elementary.h"

namespace roverlab {
namespace {

std::string idx(const char* name, size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

bool finitePositive(double v) { return std::isfinite(v) && v > 0; }

Expected<Polytope> hullOrIssue(const std::vector<Vec3>& pts, const char* what) {
  Expected<Polytope> h = makeHull(pts);
  if (!h)
    return Expected<Polytope>::failure("", std::string(what) + " is degenerate: " + h.message());
  return h;
}

}  // namespace

std::uint32_t quadColor(int side, size_t i) {
  static const std::uint32_t palette[2][4] = {{0xa3a095, 0x8f9a8a, 0xb0a48c, 0x959aa3},
                                              {0x9aa394, 0x8c9a9e, 0xa8a091, 0x9a938c}};
  return palette[side != 0][i % 4];
}

Expected<Quad> makeQuad(const QuadSegment& s) {
  std::vector<Issue> issues;
  if (!s.a.allFinite()) issues.push_back({"a", "not finite: " + format(s.a)});
  if (!s.b.allFinite()) issues.push_back({"b", "not finite: " + format(s.b)});
  if (!s.m.allFinite()) issues.push_back({"m", "not finite: " + format(s.m)});
  if (!issues.empty()) return issues;
  Quad q;
  const Vec3 half = 0.5 * (s.b - s.a);
  const Vec3 farA = s.m - half, farB = s.m + half;
  q.corners[0] = s.a;
  q.corners[1] = s.b;
  q.corners[2] = farB;
  q.corners[3] = farA;
  q.sideAB = s.b - s.a;
  q.sideAM = farA - s.a;
  const double size = std::max(q.sideAB.norm(), q.sideAM.norm());
  if (!(q.sideAB.norm() > 1e-9)) return Expected<Quad>::failure("b", "coincides with a");
  Vec3 n = q.sideAB.cross(q.sideAM);
  if (!(n.norm() > 1e-9 * size * size))
    return Expected<Quad>::failure("m", "lies on the line through a and b: the quad has no area");
  n.normalize();
  if (n.z() < 0) n = -n;
  if (n.z() < 1e-6)
    return Expected<Quad>::failure("m", "the quad is vertical; ground quads must face up");
  q.normal = n;
  q.offset = n.dot(s.a);
  return q;
}

Expected<std::vector<Quad>> makeQuadRow(const std::vector<QuadSegment>& row) {
  std::vector<Quad> quads;
  std::vector<Issue> issues;
  for (size_t i = 0; i < row.size(); ++i) {
    Expected<Quad> q = makeQuad(row[i]);
    if (!q) {
      for (const Issue& is : prefixed(idx("", i), q.issues())) issues.push_back(is);
      continue;
    }
    if (!quads.empty()) {
      const Quad& prev = quads.back();
      // Every segment of a row shares the near-side vector b − a, so the sign
      // of (b − a) × (a' − a) along z says which way the row runs: a flip
      // means this segment lies back over the previous one.
      const double turn =
          prev.sideAB.cross(prev.sideAM).z() * q.value().sideAB.cross(q.value().sideAM).z();
      if (turn < 0)
        issues.push_back({idx("", i) + ".m",
                          "folds back over the previous segment: its far side "
                          "must lie ahead of its near side, like the previous one's"});
      const double tol = 1e-9 * std::max({1.0, prev.sideAB.norm(), prev.sideAM.norm()});
      if ((row[i].a - prev.corners[3]).norm() > tol)
        issues.push_back({idx("", i) + ".a", "must equal the previous segment's far vertex a' = " +
                                                 format(prev.corners[3]) + ", got " +
                                                 format(row[i].a)});
      if ((row[i].b - prev.corners[2]).norm() > tol)
        issues.push_back({idx("", i) + ".b", "must equal the previous segment's far vertex b' = " +
                                                 format(prev.corners[2]) + ", got " +
                                                 format(row[i].b)});
    }
    quads.push_back(q.value());
  }
  if (!issues.empty()) return issues;
  return quads;
}

bool quadsOverlapInPlan(const Quad& p, const Quad& q, double tolerance) {
  // Separating-axis test of two convex polygons in the xy plane: they overlap
  // by more than `tolerance` unless some edge normal separates them.
  const Quad* both[2] = {&p, &q};
  for (const Quad* owner : both)
    for (int e = 0; e < 4; ++e) {
      const Vec3 d = owner->corners[(e + 1) % 4] - owner->corners[e];
      const Eigen::Vector2d axis = Eigen::Vector2d(-d.y(), d.x()).normalized();
      double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
      for (int k = 0; k < 2; ++k)
        for (const Vec3& c : both[k]->corners) {
          const double t = axis.dot(c.head<2>());
          lo[k] = std::min(lo[k], t);
          hi[k] = std::max(hi[k], t);
        }
      if (std::min(hi[0], hi[1]) - std::max(lo[0], lo[1]) <= tolerance) return false;
    }
  return true;
}

Expected<Polytope> quadPrism(const Quad& q, double base) {
  double low = q.corners[0].z();
  for (const Vec3& c : q.corners) low = std::min(low, c.z());
  if (!std::isfinite(base) || base >= low - 1e-9)
    return Expected<Polytope>::failure(
        "base", "must lie below the quad's lowest corner (z = " + std::to_string(low) + " m)");
  std::vector<Vec3> pts;
  for (const Vec3& c : q.corners) {
    pts.push_back(c);
    pts.emplace_back(c.x(), c.y(), base);
  }
  return hullOrIssue(pts, "quad prism");
}

Expected<Polytope> makeBox(const Vec3& centre, const Vec3& size, double yaw) {
  std::vector<Issue> issues;
  if (!centre.allFinite()) issues.push_back({"centre", "not finite: " + format(centre)});
  for (int k = 0; k < 3; ++k)
    if (!finitePositive(size[k]))
      issues.push_back(
          {idx("size", k), "must be a finite length > 0 m, got " + std::to_string(size[k])});
  if (!std::isfinite(yaw)) issues.push_back({"yaw", "not finite"});
  if (!issues.empty()) return issues;
  const Eigen::Matrix3d rot = elementary::rotation(Vec3::UnitZ(), yaw);
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i) {
    const Vec3 local(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
    pts.push_back(centre + rot * local.cwiseProduct(size));
  }
  return hullOrIssue(pts, "box");
}

Expected<Polytope> makeWedge(const Vec3& start, double length, double width, double height,
                             double yaw) {
  std::vector<Issue> issues;
  if (!start.allFinite()) issues.push_back({"start", "not finite: " + format(start)});
  if (!finitePositive(length)) issues.push_back({"length", "must be a finite length > 0 m"});
  if (!finitePositive(width)) issues.push_back({"width", "must be a finite length > 0 m"});
  if (!finitePositive(height)) issues.push_back({"height", "must be a finite length > 0 m"});
  if (!std::isfinite(yaw)) issues.push_back({"yaw", "not finite"});
  if (!issues.empty()) return issues;
  const Vec3 fwd(elementary::cos(yaw), elementary::sin(yaw), 0),
      side(-elementary::sin(yaw), elementary::cos(yaw), 0);
  const Vec3 up = Vec3::UnitZ();
  std::vector<Vec3> pts;
  for (double s : {-0.5, 0.5}) {
    const Vec3 low = start + s * width * side;
    pts.push_back(low);
    pts.push_back(low + length * fwd);
    pts.push_back(low + length * fwd + height * up);
  }
  return hullOrIssue(pts, "wedge");
}

Expected<std::vector<Polytope>> makeProfile(const std::vector<Vec2>& line, double width,
                                            double base) {
  std::vector<Issue> issues;
  if (line.size() < 2) issues.push_back({"points", "needs at least 2 points"});
  if (!finitePositive(width)) issues.push_back({"width", "must be a finite length > 0 m"});
  if (!std::isfinite(base)) issues.push_back({"base", "not finite"});
  double low = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < line.size(); ++i) {
    if (!line[i].allFinite()) {
      issues.push_back({idx("points", i), "not finite"});
      continue;
    }
    low = std::min(low, line[i].y());
    if (i > 0 && line[i].x() < line[i - 1].x())
      issues.push_back(
          {idx("points", i) + "[0]", "must not decrease: " + std::to_string(line[i].x()) +
                                         " m after " + std::to_string(line[i - 1].x()) + " m"});
  }
  if (issues.empty() && !(base < low - 1e-9))
    issues.push_back(
        {"base", "must lie below the profile's lowest point (z = " + std::to_string(low) + " m)"});
  if (!issues.empty()) return issues;

  std::vector<Polytope> pieces;
  auto emit = [&](size_t first, size_t last) -> bool {  // chain line[first..last]
    std::vector<Vec3> pts;
    for (double y : {-0.5 * width, 0.5 * width}) {
      for (size_t k = first; k <= last; ++k) pts.emplace_back(line[k].x(), y, line[k].y());
      pts.emplace_back(line[first].x(), y, base);
      pts.emplace_back(line[last].x(), y, base);
    }
    Expected<Polytope> h = makeHull(pts);
    if (!h) {
      issues.push_back({idx("points", first), "piece is degenerate: " + h.message()});
      return false;
    }
    pieces.push_back(std::move(h).value());
    return true;
  };
  // Grow a chain while the slope does not increase (the region under it stays
  // convex); vertical segments (steps) separate pieces.
  size_t first = 0;
  while (first + 1 < line.size()) {
    if (line[first + 1].x() - line[first].x() <= 1e-12) {
      ++first;
      continue;
    }
    size_t last = first + 1;
    double slope = (line[last].y() - line[first].y()) / (line[last].x() - line[first].x());
    while (last + 1 < line.size()) {
      const double dx = line[last + 1].x() - line[last].x();
      if (dx <= 1e-12) break;
      const double next = (line[last + 1].y() - line[last].y()) / dx;
      // The region under a concave chain is convex; also keep each piece within
      // the hull's point limit (2 points per vertex plus 4 at the base).
      if (next > slope + 1e-12 || 2 * (last - first + 2) + 4 > kMaxHullPoints) break;
      slope = next;
      ++last;
    }
    if (!emit(first, last)) return issues;
    first = last;
  }
  if (pieces.empty())
    return Expected<std::vector<Polytope>>::failure("points", "has no horizontal extent");
  return pieces;
}

}  // namespace roverlab
