// Track1 ([KJ2025] §2.4): nodes on the intersection lines of adjacent quad
// planes; moving a node by one coordinate keeps it on its line.
#include "terrain/track1.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "support/random_shapes.h"

using namespace roverlab;

namespace {

// A left row with changing slope and cross-slope, and a kink in heading, so
// adjacent planes really differ and their intersection is the shared edge.
std::vector<Quad> leftRow() {
  std::vector<QuadSegment> row;
  Vec3 a(0, 0, 0), b(0.2, 1.0, 0.1);
  const Vec3 steps[] = {Vec3(1, 0, 0), Vec3(1.2, 0.1, 0.35), Vec3(0.9, 0.3, 0.05),
                        Vec3(1.1, -0.2, -0.4)};
  for (const Vec3& d : steps) {
    row.push_back({a, b, 0.5 * (a + b) + d});
    a += d;
    b += d;
  }
  return makeQuadRow(row).value();
}

double planeError(const Quad& q, const Vec3& x) { return std::abs(q.normal.dot(x) - q.offset); }

// Distance from x to the infinite line through p with direction d.
double lineError(const Vec3& p, const Vec3& d, const Vec3& x) {
  return (x - p).cross(d.normalized()).norm();
}

}  // namespace

TEST_CASE("makeTrack1 puts nodes on both adjacent quad planes and on the shared edge", "[track1]") {
  const std::vector<Quad> row = leftRow();
  for (double lateral : {0.0, 0.3, 0.5, 1.0}) {
    INFO("lateral " << lateral);
    const Expected<std::vector<Track1Node>> r = makeTrack1(row, lateral);
    REQUIRE(r.ok());
    const std::vector<Track1Node>& nodes = r.value();
    REQUIRE(nodes.size() == row.size() + 1);
    // Data of size ~5 m: plane evaluations round at ~1e-15 m, 1e-9 as specified.
    CHECK(planeError(row.front(), nodes.front().point) < 1e-9);
    CHECK((nodes.front().point - (row[0].corners[0] + lateral * row[0].sideAB)).norm() < 1e-12);
    for (size_t i = 1; i < row.size(); ++i) {
      const Track1Node& n = nodes[i];
      const Quad& before = row[i - 1];
      const Quad& after = row[i];
      CHECK(planeError(before, n.point) < 1e-9);
      CHECK(planeError(after, n.point) < 1e-9);
      // On the shared edge a_i..b_i at the lateral fraction.
      CHECK((n.point - (after.corners[0] + lateral * after.sideAB)).norm() < 1e-12);
      // Its line is the planes' intersection: direction ⟂ both normals, through the node.
      CHECK(n.lineDir.norm() == Approx(1).margin(1e-15));
      CHECK(std::abs(n.lineDir.dot(before.normal)) < 1e-12);
      CHECK(std::abs(n.lineDir.dot(after.normal)) < 1e-12);
      CHECK(planeError(before, n.linePoint) < 1e-9);
      CHECK(planeError(after, n.linePoint) < 1e-9);
      CHECK(lineError(n.linePoint, n.lineDir, n.point) < 1e-12);
      // Displayed normal: the mean of the two quads' normals (as a direction).
      CHECK((n.normal.normalized() - (before.normal + after.normal).normalized()).norm() < 1e-12);
    }
    CHECK(planeError(row.back(), nodes.back().point) < 1e-9);
    CHECK((nodes.back().point - (row.back().corners[3] + lateral * row.back().sideAB)).norm() <
          1e-12);
  }
}

TEST_CASE("moveTrack1Node sets one coordinate exactly and keeps the node on both planes",
          "[track1]") {
  const std::vector<Quad> row = leftRow();
  const std::vector<Track1Node> nodes = makeTrack1(row, 0.5).value();
  shapes::Rng rng(17);
  for (size_t i = 1; i < row.size(); ++i) {
    const Track1Node& n = nodes[i];
    for (int axis = 0; axis < 3; ++axis) {
      if (std::abs(n.lineDir[axis]) < 0.05) continue;  // nearly perpendicular: see the next test
      std::vector<double> deltas{-0.4, -0.01, 0.0, 0.25, 1.0 / 3};
      for (int k = 0; k < 50; ++k) deltas.push_back(shapes::uniform(rng, -1, 1));
      for (double delta : deltas) {
        const double value = n.point[axis] + delta;
        const Expected<Track1Node> m = moveTrack1Node(n, axis, value);
        INFO("node " << i << " axis " << axis << " delta " << delta);
        // Nodes stay on the left row: beyond the edge's ends the move is refused.
        const double along = (value - n.linePoint[axis]) / n.lineDir[axis];
        if (along < -1e-9 || along > n.edgeLength + 1e-9) {
          REQUIRE_FALSE(m.ok());
          CHECK(m.message().find("off the left row") != std::string::npos);
          continue;
        }
        REQUIRE(m.ok());
        CHECK(m.value().point[axis] == value);  // exactly what the user typed
        // Still on both planes and on the line: the other coordinates follow.
        // The move scales by 1/|lineDir[axis]| ≤ 20, so 1e-9 holds easily.
        CHECK(planeError(row[i - 1], m.value().point) < 1e-9);
        CHECK(planeError(row[i], m.value().point) < 1e-9);
        CHECK(lineError(n.linePoint, n.lineDir, m.value().point) < 1e-9);
        CHECK((m.value().lineDir - n.lineDir).norm() == 0);
      }
    }
  }
}

TEST_CASE("moveTrack1Node rejects an axis perpendicular to the line and non-finite values",
          "[track1]") {
  // A row whose shared edges run exactly along y: x cannot be set on them.
  std::vector<QuadSegment> seg{{Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0.5, 0.2)},
                               {Vec3(1, 0, 0.2), Vec3(1, 1, 0.2), Vec3(2, 0.5, 0.1)}};
  const std::vector<Quad> row = makeQuadRow(seg).value();
  const Track1Node n = makeTrack1(row, 0.5).value()[1];
  CHECK(std::abs(n.lineDir.x()) < 1e-15);
  const Expected<Track1Node> bad = moveTrack1Node(n, 0, 1.5);
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(bad.message().empty());
  CHECK_FALSE(moveTrack1Node(n, 2, 0.3).ok());               // z is constant along this edge, too
  const Expected<Track1Node> y = moveTrack1Node(n, 1, 0.8);  // y is fine
  REQUIRE(y.ok());
  CHECK((y.value().point - Vec3(1, 0.8, 0.2)).norm() < 1e-15);
  CHECK_FALSE(moveTrack1Node(n, 1, std::numeric_limits<double>::quiet_NaN()).ok());
  CHECK_FALSE(moveTrack1Node(n, 1, std::numeric_limits<double>::infinity()).ok());
  CHECK_FALSE(moveTrack1Node(n, 3, 0.5).ok());
  CHECK_FALSE(moveTrack1Node(n, -1, 0.5).ok());
}

TEST_CASE(
    "Track1 nodes stay on the left row: moves and given nodes beyond an edge's ends are refused",
    "[track1]") {
  const std::vector<Quad> row = leftRow();
  const std::vector<Track1Node> nodes = makeTrack1(row, 0.5).value();
  for (const Track1Node& n : nodes) {
    // The edge is exactly the quads' shared side: from a' to b' of the quad before.
    CHECK(n.edgeLength > 0.5);
    const Vec3 end = n.linePoint + n.edgeLength * n.lineDir;
    // Both ends are reachable, a little beyond either is not.
    const int axis = std::abs(n.lineDir.y()) > 0.5 ? 1 : 0;
    CHECK(moveTrack1Node(n, axis, n.linePoint[axis]).ok());
    CHECK(moveTrack1Node(n, axis, end[axis]).ok());
    const double out = end[axis] + 0.01 * (n.lineDir[axis] > 0 ? 1 : -1);
    const Expected<Track1Node> beyond = moveTrack1Node(n, axis, out);
    REQUIRE_FALSE(beyond.ok());
    CHECK(beyond.message().find("off the left row") != std::string::npos);
    // track1Along: on the edge gives the distance along it, off it an issue.
    const Expected<double> mid = track1Along(n, n.linePoint + 0.3 * n.edgeLength * n.lineDir);
    REQUIRE(mid.ok());
    CHECK(mid.value() == Approx(0.3 * n.edgeLength).margin(1e-12));
    CHECK_FALSE(track1Along(n, end + 0.05 * n.lineDir).ok());
    CHECK_FALSE(
        track1Along(n, n.point + Vec3(0, 0, 0.01).cross(n.lineDir).normalized() * 0.01).ok());
  }
}
