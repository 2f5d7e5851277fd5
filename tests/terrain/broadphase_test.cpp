// Static broadphase: grid queries return exactly the brute-force overlap set.
#include "terrain/broadphase.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "support/random_shapes.h"
#include "terrain/builders.h"
#include "terrain/terrain.h"

using namespace roverlab;

namespace {

Aabb box(const Vec3& lo, const Vec3& hi) {
  Aabb b;
  b.min = lo;
  b.max = hi;
  return b;
}

Aabb randomBox(shapes::Rng& rng, double world, double maxSize) {
  const Vec3 lo = shapes::uniformBox(rng, Vec3(-world, -world, -2), Vec3(world, world, 2));
  // Mostly small pieces, some long ones spanning many cells, some flat.
  const double s = rng() % 10 == 0 ? 10 * maxSize : maxSize;
  Vec3 size = shapes::uniformBox(rng, Vec3::Zero(), Vec3(s, s, 1));
  if (rng() % 20 == 0) size.x() = 0;  // zero-width box
  return box(lo, lo + size);
}

std::vector<int> bruteForce(const std::vector<Aabb>& boxes, const Aabb& q) {
  std::vector<int> out;
  for (size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].overlaps(q)) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("queryBroadphase returns exactly the overlapping boxes", "[broadphase]") {
  shapes::Rng rng(77);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 2000; ++i) boxes.push_back(randomBox(rng, 50, 2));
  const Broadphase bp = buildBroadphase(boxes);
  int mismatches = 0, nonEmpty = 0;
  std::vector<int> out;
  for (int q = 0; q < 3000; ++q) {
    // Queries from wheel-sized to larger than the terrain, some outside it.
    const double s = std::pow(10.0, shapes::uniform(rng, -1.5, 2.2));
    const Vec3 lo = shapes::uniformBox(rng, Vec3(-70, -70, -3), Vec3(70, 70, 3));
    const Aabb query = box(lo, lo + shapes::uniformBox(rng, Vec3::Zero(), Vec3(s, s, s)));
    out.clear();
    queryBroadphase(bp, query, out);
    const std::vector<int> want = bruteForce(boxes, query);
    nonEmpty += !want.empty();
    // No duplicates: sorting must not shrink the set under unique().
    std::vector<int> got = sorted(out);
    const bool dup = std::adjacent_find(got.begin(), got.end()) != got.end();
    if (dup || got != want) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(nonEmpty > 1000);  // the queries do hit boxes
}

TEST_CASE("queryBroadphase counts touching boxes and filters by height", "[broadphase]") {
  const std::vector<Aabb> boxes{
      box(Vec3(0, 0, 0), Vec3(1, 1, 1)), box(Vec3(1, 0, 0), Vec3(2, 1, 1)),
      box(Vec3(0, 0, 5), Vec3(2, 1, 6)), box(Vec3(10, 10, 0), Vec3(11, 11, 1))};
  const Broadphase bp = buildBroadphase(boxes);
  std::vector<int> out;
  // Touching the shared face x = 1 (Aabb::overlaps is inclusive).
  queryBroadphase(bp, box(Vec3(1, 0.5, 0.5), Vec3(1, 0.5, 0.5)), out);
  CHECK(sorted(out) == std::vector<int>{0, 1});
  // Same footprint as the high box, but below it: the grid is 2-D, z must still filter.
  out.clear();
  queryBroadphase(bp, box(Vec3(0.2, 0.2, 2), Vec3(1.8, 0.8, 4)), out);
  CHECK(out.empty());
  // Appends to `out` without clearing it.
  out = {42};
  queryBroadphase(bp, box(Vec3(10.5, 10.5, 0.5), Vec3(12, 12, 0.6)), out);
  CHECK(out == std::vector<int>{42, 3});
  // Outside the grid entirely.
  out.clear();
  queryBroadphase(bp, box(Vec3(-5, -5, 0), Vec3(-4, -4, 1)), out);
  CHECK(out.empty());
}

TEST_CASE("a query larger than the whole terrain returns every overlapping box", "[broadphase]") {
  shapes::Rng rng(5);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 300; ++i) boxes.push_back(randomBox(rng, 20, 1));
  const Broadphase bp = buildBroadphase(boxes);
  for (double big : {1e3, 1e9, 1e30, std::numeric_limits<double>::infinity()}) {
    INFO("query half-size " << big);
    const Aabb query = box(Vec3::Constant(-big), Vec3::Constant(big));
    std::vector<int> out;
    queryBroadphase(bp, query, out);
    CHECK(sorted(out) == bruteForce(boxes, query));
  }
}

TEST_CASE("piecesNear on a terrain finds the pieces whose boxes overlap", "[broadphase][terrain]") {
  TerrainBuilder tb;
  // A 10 × 10 grid of 1 m boxes on the ground and a few blocks on top.
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      tb.addPiece(makeBox(Vec3(i + 0.5, j + 0.5, -0.5), Vec3(1, 1, 1), 0).value());
  tb.addPiece(makeBox(Vec3(3, 3, 0.25), Vec3(2, 2, 0.5), 0.3).value());
  tb.addPiece(makeWedge(Vec3(6, 2, 0), 3, 1, 0.5, 1.0).value());
  Expected<Terrain> built = std::move(tb).build();
  REQUIRE(built.ok());
  const Terrain& t = built.value();
  REQUIRE(t.pieces.size() == 102);
  shapes::Rng rng(8);
  std::vector<Aabb> boxes;
  for (const TerrainPiece& p : t.pieces) boxes.push_back(p.shape.box);
  std::vector<int> out{7, 7, 7};  // cleared first
  for (int q = 0; q < 500; ++q) {
    const Vec3 c = shapes::uniformBox(rng, Vec3(-1, -1, -1), Vec3(11, 11, 1.5));
    const double r = shapes::uniform(rng, 0.05, 1.5);
    Aabb query;
    query.min = c.array() - r;
    query.max = c.array() + r;
    piecesNear(t, query, out);
    CHECK(sorted(out) == bruteForce(boxes, query));
  }
  CHECK((t.box.min - Vec3(0, 0, -1)).norm() < 1e-12);
  CHECK(t.box.max.x() == Approx(10).margin(1e-12));
}
