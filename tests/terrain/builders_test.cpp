// Terrain builders: [KJ2025]'s quads and quad rows, prisms, boxes, wedges and
// [SP2017]'s planar profiles split into convex pieces.
#include "terrain/builders.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>

#include "geometry/gjk.h"
#include "support/oracle.h"
#include "support/random_shapes.h"

using namespace roverlab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool hasPathPrefix(const std::vector<Issue>& issues, const std::string& prefix) {
  for (const Issue& i : issues)
    if (i.path.rfind(prefix, 0) == 0) return true;
  return false;
}

// The face of `poly` with outward normal `n` (within 1e-12), or -1.
int faceWithNormal(const Polytope& poly, const Vec3& n) {
  for (size_t f = 0; f < poly.faces.size(); ++f)
    if ((poly.faces[f].normal - n).norm() < 1e-12) return static_cast<int>(f);
  return -1;
}

// Signed distance from p to the union of pieces: the minimum of the pieces'
// distances (exact outside; inside, it is at least as negative as the union's).
double unionDistance(const std::vector<Polytope>& pieces, const Vec3& p) {
  double d = kInf;
  for (const Polytope& poly : pieces) d = std::min(d, pointDistance(poly, p, kInf).distance);
  return d;
}

// Height of a polyline z(x) with non-decreasing x, at an x not on a vertical step.
double polylineHeight(const std::vector<Vec2>& line, double x) {
  for (size_t i = 0; i + 1 < line.size(); ++i)
    if (x >= line[i].x() && x <= line[i + 1].x() && line[i + 1].x() > line[i].x()) {
      const double t = (x - line[i].x()) / (line[i + 1].x() - line[i].x());
      return line[i].y() + t * (line[i + 1].y() - line[i].y());
    }
  return std::numeric_limits<double>::quiet_NaN();
}

// The profile's pieces fill exactly the region under the polyline: for x
// samples away from the polyline's vertices, a point 1e-6 m above the line is
// outside every piece and a point 1e-6 m below is inside exactly one; a point
// just above the base is inside exactly one; nothing lies outside |y| ≤ w/2.
void checkProfileRegion(const std::vector<Polytope>& pieces, const std::vector<Vec2>& line,
                        double width, double base) {
  const double eps = 1e-6;  // ≫ the hull tolerance (1e-10·size), ≪ every feature of the profiles
  const double x0 = line.front().x(), x1 = line.back().x();
  for (int k = 1; k < 400; ++k) {
    const double x = x0 + (x1 - x0) * (k + 0.37) / 400;  // offset avoids the vertices
    bool nearVertex = false;
    for (const Vec2& v : line) nearVertex = nearVertex || std::abs(v.x() - x) < 1e-3;
    if (nearVertex) continue;
    const double z = polylineHeight(line, x);
    for (double y : {-0.45 * width, 0.0, 0.3 * width}) {
      INFO("x " << x << " y " << y << " z(x) " << z);
      int below = 0, above = 0, bottom = 0;
      for (const Polytope& p : pieces) {
        above += pointDistance(p, Vec3(x, y, z + eps), kInf).distance < 0;
        below += pointDistance(p, Vec3(x, y, z - eps), kInf).distance < 0;
        bottom += pointDistance(p, Vec3(x, y, base + eps), kInf).distance < 0;
      }
      CHECK(above == 0);
      CHECK(below == 1);
      CHECK(bottom == 1);
    }
    CHECK(unionDistance(pieces, Vec3(x, 0.5 * width + eps, z - eps)) > 0);
    CHECK(unionDistance(pieces, Vec3(x, 0, base - eps)) > 0);
  }
  for (const Polytope& p : pieces) {
    CHECK(p.box.min.y() == Approx(-0.5 * width).margin(1e-12));
    CHECK(p.box.max.y() == Approx(0.5 * width).margin(1e-12));
    CHECK(p.box.min.z() == Approx(base).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("makeQuad derives the far side, plane and sides from a, b and m", "[builders]") {
  // A sloped quad: a, b on the near side, m the midpoint of the far side.
  const QuadSegment s{Vec3(0, 0, 0), Vec3(0, 1.5, 0.3), Vec3(2, 0.9, 0.95)};
  const Expected<Quad> r = makeQuad(s);
  REQUIRE(r.ok());
  const Quad& q = r.value();
  // a' = m + (a − b)/2 = (2, 0.9, 0.95) + (0, −0.75, −0.15) = (2, 0.15, 0.8)
  // b' = m + (b − a)/2 = (2, 0.9, 0.95) + (0,  0.75,  0.15) = (2, 1.65, 1.1)
  // Unit-sized inputs: rounding ≤ 1e-15, checked to 1e-14.
  const Vec3 farA(2, 0.15, 0.8), farB(2, 1.65, 1.1);
  CHECK((q.corners[0] - s.a).norm() == 0);
  CHECK((q.corners[1] - s.b).norm() == 0);
  CHECK((q.corners[2] - farB).norm() < 1e-14);
  CHECK((q.corners[3] - farA).norm() < 1e-14);
  CHECK((q.sideAB - Vec3(0, 1.5, 0.3)).norm() < 1e-14);
  CHECK((q.sideAM - farA).norm() < 1e-14);  // a' − a with a = 0
  // Normal: unit, up, perpendicular to both sides; the analytic value is
  // sideAB × sideAM = (1.5·0.8 − 0.3·0.15, 0.3·2 − 0, 0 − 1.5·2) = (1.155, 0.6, −3),
  // flipped to point up: (−1.155, −0.6, 3)/|·|.
  const Vec3 n = Vec3(-1.155, -0.6, 3).normalized();
  CHECK(q.normal.norm() == Approx(1).margin(1e-15));
  CHECK(q.normal.z() > 0);
  CHECK((q.normal - n).norm() < 1e-14);
  // The plane n·x = offset contains a, b, m, a', b'.
  for (const Vec3& p : {s.a, s.b, s.m, farA, farB})
    CHECK(std::abs(q.normal.dot(p) - q.offset) < 1e-14);
}

TEST_CASE("makeQuad normal points up whatever the corner order", "[builders]") {
  // Same rectangle, near side typed right-to-left: the cross product flips,
  // the normal must not.
  const Expected<Quad> r = makeQuad({Vec3(0, 1, 0), Vec3(0, 0, 0), Vec3(1, 0.5, 0)});
  REQUIRE(r.ok());
  CHECK((r.value().normal - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK(r.value().offset == Approx(0).margin(1e-15));
}

TEST_CASE("makeQuad rejects non-finite, coincident and vertical input", "[builders]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Expected<Quad> bad = makeQuad({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(nan, 0.5, 0)});
  CHECK_FALSE(bad.ok());
  CHECK(hasPathPrefix(bad.issues(), "m"));
  const Expected<Quad> inf = makeQuad({Vec3(0, 0, kInf), Vec3(0, 1, 0), Vec3(1, 0.5, 0)});
  CHECK_FALSE(inf.ok());
  CHECK(hasPathPrefix(inf.issues(), "a"));
  CHECK_FALSE(makeQuad({Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(1, 0.5, 0)}).ok());  // a = b
  CHECK_FALSE(
      makeQuad({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 0.5, 0)}).ok());        // m on the near side
  CHECK_FALSE(makeQuad({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 3, 0)}).ok());  // m on line ab
  CHECK_FALSE(makeQuad({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 0.5, 2)}).ok());  // vertical wall
  for (const Expected<Quad>& e : {makeQuad({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 0.5, 2)})})
    CHECK_FALSE(e.message().empty());
}

TEST_CASE("makeQuadRow chains segments through shared points", "[builders]") {
  // Flat, then up a slope, then a crest: each segment starts at the previous
  // segment's far side (a_{i+1} = a'_i, b_{i+1} = b'_i).
  std::vector<QuadSegment> row;
  Vec3 a(0, 0, 0), b(0, 1, 0);
  const Vec3 steps[] = {Vec3(1, 0, 0), Vec3(1, 0, 0.4), Vec3(1.5, 0.2, 0.1), Vec3(1, 0, -0.3)};
  for (const Vec3& d : steps) {
    row.push_back({a, b, 0.5 * (a + b) + d});
    a += d;
    b += d;
  }
  const Expected<std::vector<Quad>> r = makeQuadRow(row);
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 4);
  for (size_t i = 0; i + 1 < 4; ++i) {
    const Quad& q = r.value()[i];
    const Quad& next = r.value()[i + 1];
    CHECK((q.corners[3] - next.corners[0]).norm() < 1e-14);  // a'_i = a_{i+1}
    CHECK((q.corners[2] - next.corners[1]).norm() < 1e-14);  // b'_i = b_{i+1}
    // The shared edge lies on both planes (unit-sized data: 1e-14).
    for (int k : {2, 3}) {
      CHECK(std::abs(q.normal.dot(q.corners[k]) - q.offset) < 1e-14);
      CHECK(std::abs(next.normal.dot(q.corners[k]) - next.offset) < 1e-14);
    }
  }
  // Each quad matches makeQuad of its segment.
  for (size_t i = 0; i < 4; ++i)
    CHECK((makeQuad(row[i]).value().normal - r.value()[i].normal).norm() == 0);
}

TEST_CASE("makeQuadRow names a segment that does not start at the previous far side",
          "[builders]") {
  std::vector<QuadSegment> row{
      {Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0.5, 0)},
      {Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(2, 0.5, 0)},
      {Vec3(2, 0, 0), Vec3(2.01, 1, 0), Vec3(3, 0.5, 0)}};  // b_2 off by 1 cm
  const Expected<std::vector<Quad>> r = makeQuadRow(row);
  CHECK_FALSE(r.ok());
  CHECK(hasPathPrefix(r.issues(), "[2]"));
  CHECK_FALSE(hasPathPrefix(r.issues(), "[1]"));
  CHECK_FALSE(r.message().empty());
  // A bad segment inside the row is reported with its index.
  row[2] = {Vec3(2, 0, 0), Vec3(2, 1, 0), Vec3(2, 0.5, 1)};  // vertical
  row[1].m = Vec3(2, 0.5, std::numeric_limits<double>::quiet_NaN());
  const Expected<std::vector<Quad>> r2 = makeQuadRow(row);
  CHECK_FALSE(r2.ok());
  CHECK(hasPathPrefix(r2.issues(), "[1]"));
}

TEST_CASE("quadPrism has the quad as its top face and a flat base", "[builders]") {
  const Quad q = makeQuad({Vec3(0, 0, 0.2), Vec3(0, 1.5, 0.5), Vec3(2, 0.9, 1.15)}).value();
  const Expected<Polytope> r = quadPrism(q, -1.0);
  REQUIRE(r.ok());
  const Polytope& p = r.value();
  CHECK(p.vertices.size() == 8);
  CHECK(p.faces.size() == 6);
  const int top = faceWithNormal(p, q.normal);
  REQUIRE(top >= 0);
  CHECK(p.faces[top].offset == Approx(q.offset).margin(1e-14));
  CHECK(p.faceVertices[top].size() == 4);
  for (int v : p.faceVertices[top]) {
    double best = kInf;
    for (const Vec3& c : q.corners) best = std::min(best, (p.vertices[v] - c).norm());
    CHECK(best < 1e-14);
  }
  const int bottom = faceWithNormal(p, Vec3(0, 0, -1));
  REQUIRE(bottom >= 0);
  CHECK(p.faces[bottom].offset == Approx(1.0).margin(1e-14));  // −z·x = 1 on z = −1
  CHECK(p.box.min.z() == -1.0);
  // Side faces are vertical: their normals have no z component.
  for (size_t f = 0; f < p.faces.size(); ++f)
    if (static_cast<int>(f) != top && static_cast<int>(f) != bottom)
      CHECK(std::abs(p.faces[f].normal.z()) < 1e-14);
  // A point above the quad's centre is at its plane distance from the prism.
  const Vec3 centre = 0.25 * (q.corners[0] + q.corners[1] + q.corners[2] + q.corners[3]);
  CHECK(pointDistance(p, centre + 0.1 * q.normal, kInf).distance == Approx(0.1).margin(1e-14));
  // The base must lie below the quad.
  CHECK_FALSE(quadPrism(q, 0.3).ok());
}

TEST_CASE("makeBox places the corners of a turned box", "[builders]") {
  const Vec3 c(1, 2, 3), size(4, 2, 1);
  const double yaw = 0.5;
  const Expected<Polytope> r = makeBox(c, size, yaw);
  REQUIRE(r.ok());
  const Polytope& p = r.value();
  REQUIRE(p.vertices.size() == 8);
  CHECK(p.faces.size() == 6);
  const Vec3 fwd(std::cos(yaw), std::sin(yaw), 0), left(-std::sin(yaw), std::cos(yaw), 0);
  for (double sx : {-1, 1})
    for (double sy : {-1, 1})
      for (double sz : {-1, 1}) {
        const Vec3 corner = c + sx * 2 * fwd + sy * 1 * left + Vec3(0, 0, sz * 0.5);
        double best = kInf;
        for (const Vec3& v : p.vertices) best = std::min(best, (v - corner).norm());
        CHECK(best < 1e-14);  // sin/cos of 0.5 and sums of O(1) terms: ~1e-15
      }
  CHECK(faceWithNormal(p, fwd) >= 0);
  CHECK(faceWithNormal(p, -left) >= 0);
  CHECK(faceWithNormal(p, Vec3(0, 0, 1)) >= 0);
  CHECK((p.centroid - c).norm() < 1e-14);
  // Yaw 0: axis-aligned, exact bounds.
  const Polytope a = makeBox(c, size, 0).value();
  CHECK((a.box.min - Vec3(-1, 1, 2.5)).norm() == 0);
  CHECK((a.box.max - Vec3(3, 3, 3.5)).norm() == 0);
  CHECK_FALSE(makeBox(c, Vec3(1, 0, 1), 0).ok());
  CHECK_FALSE(makeBox(c, Vec3(1, -1, 1), 0).ok());
  CHECK_FALSE(makeBox(Vec3(0, std::numeric_limits<double>::quiet_NaN(), 0), size, 0).ok());
}

TEST_CASE("makeWedge rises along its yaw to the given height", "[builders]") {
  const Vec3 start(1, 1, 0.5);
  const double length = 3, width = 1, height = 0.6, yaw = M_PI / 2;  // rising towards +y
  const Expected<Polytope> r = makeWedge(start, length, width, height, yaw);
  REQUIRE(r.ok());
  const Polytope& p = r.value();
  CHECK(p.vertices.size() == 6);
  CHECK(p.faces.size() == 5);
  // Footprint: x in [0.5, 1.5], y in [1, 4]; the high edge at y = 4 reaches z = 1.1.
  CHECK((p.box.min - Vec3(0.5, 1, 0.5)).norm() < 1e-14);
  CHECK((p.box.max - Vec3(1.5, 4, 1.1)).norm() < 1e-14);
  // Ramp normal: perpendicular to the rise (0, 3, 0.6) and the low edge (1, 0, 0),
  // up: (0, −0.6, 3)/|·|.
  const Vec3 ramp = Vec3(0, -0.6, 3).normalized();
  const int f = faceWithNormal(p, ramp);
  REQUIRE(f >= 0);
  CHECK(p.faces[f].offset == Approx(ramp.dot(start)).margin(1e-14));
  // Height of the ramp above the middle of the footprint: 0.5 + 0.6·(1.5/3) = 0.8.
  CHECK(pointDistance(p, Vec3(1, 2.5, 0.8 + 1e-3), kInf).distance ==
        Approx(1e-3 * ramp.z()).margin(1e-14));
  CHECK_FALSE(makeWedge(start, 0, width, height, yaw).ok());
  CHECK_FALSE(makeWedge(start, length, width, -1, yaw).ok());
}

TEST_CASE("makeProfile splits a polyline into convex pieces that fill the region under it",
          "[builders]") {
  const double width = 0.8, base = -1.0;
  struct Case {
    const char* name;
    std::vector<Vec2> line;
    size_t pieces;  // by the rule: merge while the slope does not increase
  };
  const std::vector<Case> cases = {
      // Block ([SP2017]'s "cube"): flat, up, flat top, down, flat → 3.
      {"block", {{0, 0}, {1, 0}, {1, 0.3}, {2, 0.3}, {2, 0}, {3, 0}}, 3},
      // Ditch: flat, down, flat bottom, up, flat → 3.
      {"ditch", {{0, 0}, {1, 0}, {1, -0.3}, {2, -0.3}, {2, 0}, {3, 0}}, 3},
      // Stairs: three treads → 3.
      {"stairs", {{0, 0}, {1, 0}, {1, 0.2}, {2, 0.2}, {2, 0.4}, {3, 0.4}}, 3},
      // Concave hill, slopes 0.5, 0.3, 0.1, −0.4 (never increasing) → 1.
      {"hill", {{0, 0}, {1, 0.5}, {2, 0.8}, {3, 0.9}, {4, 0.5}}, 1},
      // V-shaped valley: slopes −1, 1 → 2.
      {"valley", {{0, 1}, {1, 0}, {2, 1}}, 2},
      // [SP2017] Fig. 7-like: slopes 1, 0.5, −0.5 | 1, 0.5 → 2.
      {"mixed", {{0, 0}, {1, 1}, {2, 1.5}, {3, 1}, {4, 2}, {5, 2.5}}, 2},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Expected<std::vector<Polytope>> r = makeProfile(c.line, width, base);
    REQUIRE(r.ok());
    CHECK(r.value().size() == c.pieces);
    checkProfileRegion(r.value(), c.line, width, base);
  }
}

TEST_CASE("makeProfile: heights above the block profile", "[builders]") {
  const std::vector<Vec2> block{{0, 0}, {1, 0}, {1, 0.3}, {2, 0.3}, {2, 0}, {3, 0}};
  const std::vector<Polytope> pieces = makeProfile(block, 1.0, -1.0).value();
  // From z = 1 straight down: the surface is 1 − z(x) below where no step
  // corner is closer (horizontal distance to x = 1 or 2 exceeds 1 − z(x)).
  // Unit-sized data: 1e-14.
  CHECK(unionDistance(pieces, Vec3(1.5, 0, 1.0)) == Approx(0.7).margin(1e-14));
  CHECK(unionDistance(pieces, Vec3(1.5, 0.2, 0.31)) == Approx(0.01).margin(1e-14));
  CHECK(unionDistance(pieces, Vec3(0.2, 0, 0.5)) == Approx(0.5).margin(1e-14));
  // Beside the block at height 0.1: the step face is 0.05 away.
  CHECK(unionDistance(pieces, Vec3(0.95, 0, 0.1)) == Approx(0.05).margin(1e-14));
  // Above the top corner at (1, 0.3), diagonally: √(0.1² + 0.1²).
  CHECK(unionDistance(pieces, Vec3(0.9, 0, 0.4)) == Approx(std::sqrt(0.02)).epsilon(1e-13));
}

TEST_CASE("makeProfile rejects decreasing x and bad parameters", "[builders]") {
  const Expected<std::vector<Polytope>> r =
      makeProfile({{0, 0}, {1, 0}, {0.5, 0.2}, {2, 0}}, 1.0, -1.0);
  CHECK_FALSE(r.ok());
  CHECK(r.message().find("[2]") != std::string::npos);
  CHECK_FALSE(makeProfile({{0, 0}}, 1.0, -1.0).ok());
  CHECK_FALSE(makeProfile({{0, 0}, {1, 0}}, 0.0, -1.0).ok());
  CHECK_FALSE(makeProfile({{0, 0}, {1, 0}}, 1.0, 0.5).ok());  // base above the profile
  CHECK_FALSE(makeProfile({{0, 0}, {1, std::numeric_limits<double>::quiet_NaN()}}, 1.0, -1.0).ok());
}

TEST_CASE("makeProfile accepts a finely sampled concave hill", "[builders]") {
  // A smooth hill sampled every 2 cm: one concave chain of 101 points. The
  // region under it is one convex piece by the header's rule, but a hull of
  // 2·(101 + 2) points exceeds kMaxHullPoints; the builder must still cover it
  // (for example by splitting the chain).
  std::vector<Vec2> hill;
  for (int i = 0; i <= 100; ++i) {
    const double x = 0.02 * i;
    hill.emplace_back(x, 0.3 * std::sin(M_PI * x / 2));
  }
  const Expected<std::vector<Polytope>> r = makeProfile(hill, 1.0, -0.5);
  INFO(r.message());
  REQUIRE(r.ok());
  checkProfileRegion(r.value(), hill, 1.0, -0.5);
}

TEST_CASE("makeQuadRow names a segment that folds back over the previous one", "[builders]") {
  // Segment 1 starts at segment 0's far side but its far midpoint lies behind
  // it: the row would run backwards over segment 0.
  const std::vector<QuadSegment> row{{Vec3(0, 1, 0), Vec3(0, 0, 0), Vec3(1, 0.5, 0)},
                                     {Vec3(1, 1, 0), Vec3(1, 0, 0), Vec3(0.4, 0.5, 0)}};
  const Expected<std::vector<Quad>> r = makeQuadRow(row);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.issues().size() == 1);
  CHECK(r.issues()[0].path == "[1].m");
  CHECK(r.issues()[0].message.find("folds back") != std::string::npos);
  // Going on forwards is fine.
  const std::vector<QuadSegment> ok{row[0], {Vec3(1, 1, 0), Vec3(1, 0, 0), Vec3(1.6, 0.5, 0.1)}};
  CHECK(makeQuadRow(ok).ok());
}

TEST_CASE("quadsOverlapInPlan: overlapping, edge-sharing and separate quads", "[builders]") {
  const Quad q = makeQuad({Vec3(0, 1, 0), Vec3(0, 0, 0), Vec3(1, 0.5, 0)}).value();
  // Shares the edge y = 0 (the rows' usual contact): not an overlap.
  const Quad beside = makeQuad({Vec3(0, 0, 0), Vec3(0, -1, 0), Vec3(1, -0.5, 0.3)}).value();
  CHECK_FALSE(quadsOverlapInPlan(q, beside, 1e-6));
  // Reaches 0.2 m into q (height does not matter in plan view).
  const Quad into = makeQuad({Vec3(0, 0.2, 2), Vec3(0, -1, 2), Vec3(1, -0.4, 2)}).value();
  CHECK(quadsOverlapInPlan(q, into, 1e-6));
  CHECK(quadsOverlapInPlan(into, q, 1e-6));
  // Far away, and a slanted one whose boxes overlap but which lies clear of q.
  CHECK_FALSE(quadsOverlapInPlan(
      q, makeQuad({Vec3(5, 1, 0), Vec3(5, 0, 0), Vec3(6, 0.5, 0)}).value(), 1e-6));
  const Quad slanted =
      makeQuad({Vec3(1.05, 1.6, 0), Vec3(1.6, 1.05, 0), Vec3(1.9, 1.9, 0)}).value();
  CHECK_FALSE(quadsOverlapInPlan(q, slanted, 1e-6));
}
