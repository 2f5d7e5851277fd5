// The ground probe (terrain/terrain.h, groundUnder) on every terrain kind: the
// same sloped surface given as a convex piece, a heightfield and a mesh reads
// the same height everywhere over it; stacked pieces answer the highest top
// not above the probe; nothing under the point answers false.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "terrain/builders.h"
#include "terrain/heightfield.h"
#include "terrain/terrain.h"
#include "terrain/trimesh.h"

using namespace roverlab;

namespace {

// The plane z = 0.1 x + 0.05 y + 0.2 over [-2, 2] x [-2, 2] (m).
double plane(double x, double y) { return 0.1 * x + 0.05 * y + 0.2; }

Terrain asPiece() {
  std::vector<Vec3> points;
  for (double x : {-2.0, 2.0})
    for (double y : {-2.0, 2.0}) {
      points.emplace_back(x, y, plane(x, y));
      points.emplace_back(x, y, -1.0);
    }
  TerrainBuilder tb;
  tb.addPiece(makeHull(points).value());
  return std::move(tb).build().value();
}

Terrain asHeightfield() {
  HeightfieldSpec spec;
  spec.originX = spec.originY = -2;
  spec.dx = spec.dy = 0.5;
  spec.nx = spec.ny = 9;
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i)
      spec.heights.push_back(static_cast<float>(plane(-2 + 0.5 * i, -2 + 0.5 * j)));
  spec.base = -1;
  TerrainBuilder tb;
  tb.addHeightfield(makeHeightfield(std::move(spec)).value());
  return std::move(tb).build().value();
}

Terrain asMesh() {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) v.emplace_back(-2 + i, -2 + j, plane(-2 + i, -2 + j));
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      const int a = j * 5 + i;
      t.push_back({a, a + 1, a + 6});
      t.push_back({a, a + 6, a + 5});
    }
  TerrainBuilder tb;
  tb.addMesh(makeTriMesh(std::move(v), std::move(t), -1).value());
  return std::move(tb).build().value();
}

}  // namespace

TEST_CASE("the ground probe reads one sloped surface alike as a piece, a heightfield and a mesh",
          "[terrain][ground]") {
  const Terrain kinds[] = {asPiece(), asHeightfield(), asMesh()};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.99, 1.99);
  std::vector<int> near;
  for (int k = 0; k < 1000; ++k) {
    const double x = u(rng), y = u(rng);
    for (const Terrain& t : kinds) {
      double z = 0;
      REQUIRE(groundUnder(t, x, y, 5.0, z, near));
      // The heightfield stores heights as floats: 1e-7 of 0.6 m is 6e-8 m.
      CHECK(z == Approx(plane(x, y)).margin(1e-7));
      // A probe below the surface finds nothing: the piece's stretch, the field and the mesh
      // all reach above it.
      CHECK_FALSE(groundUnder(t, x, y, plane(x, y) - 0.01, z, near));
    }
  }
  double z = 0;
  for (const Terrain& t : kinds)
    CHECK_FALSE(groundUnder(t, 3.0, 0.0, 5.0, z, near));  // off the edge
}

TEST_CASE("over stacked pieces the probe answers the highest top not above it",
          "[terrain][ground]") {
  TerrainBuilder tb;
  tb.addPiece(makeBox(Vec3(0, 0, -0.5), Vec3(10, 4, 1), 0).value());     // the ground, top at 0
  tb.addPiece(makeBox(Vec3(2, 0, 0.325), Vec3(1, 4, 0.65), 0).value());  // a 0.65 m step on it
  tb.addPiece(makeBox(Vec3(-2, 0, 2.0), Vec3(1, 4, 0.2), 0).value());    // a shelf overhead
  const Terrain t = std::move(tb).build().value();
  std::vector<int> near;
  double z = 0;
  REQUIRE(groundUnder(t, 2.0, 0.0, 1.0, z, near));
  CHECK(z == Approx(0.65));
  REQUIRE(groundUnder(t, 0.0, 0.0, 1.0, z, near));
  CHECK(z == Approx(0.0).margin(1e-12));
  REQUIRE(groundUnder(t, -2.0, 0.0, 1.0, z, near));  // under the shelf: the ground
  CHECK(z == Approx(0.0).margin(1e-12));
  REQUIRE(groundUnder(t, -2.0, 0.0, 3.0, z, near));  // above it: the shelf
  CHECK(z == Approx(2.1));
}
