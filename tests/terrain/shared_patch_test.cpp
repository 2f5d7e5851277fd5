// A shared patch (terrain/terrain.h): where two pieces' faces lie flush, and
// whether a point lies on it (SharedPatch::covers), from the lines of its
// sides kept when the terrain is built.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "support/surface_terrains.h"
#include "terrain/builders.h"
#include "terrain/terrain.h"

using namespace roverlab;
using testing::terrainOf;

namespace {

// The covering rule written out from the polygon alone: q's offsets from
// the sides' lines in the plane (a side's cross product with q − its first
// corner, along the plane's normal, over its length) beyond tol all of one
// sign, whichever way round the polygon runs.
bool coveredByPolygon(const SharedPatch& patch, const Vec3& q, double tol) {
  const size_t k = patch.polygon.size();
  double sign = 0;
  for (size_t i = 0; i < k; ++i) {
    const Vec3& a = patch.polygon[i];
    const Vec3 side = patch.polygon[(i + 1) % k] - a;
    const double s = side.cross(q - a).dot(patch.plane.normal) / side.norm();
    if (std::abs(s) <= tol) continue;
    if (sign == 0) sign = s;
    if (s * sign < 0) return false;
  }
  return k >= 3;
}

}  // namespace

TEST_CASE("shared patch: covers the flush face's overlap, to within tol of its sides",
          "[terrain][seam]") {
  // Two boxes side by side: x in [-2, 0] and [0, 2], y in [-1, 1] and
  // [-0.5, 1.5], z in [-1, 0]. Their overlap on x = 0 is y in [-0.5, 1], z in [-1, 0].
  const Terrain t = terrainOf({makeBox(Vec3(-1, 0, -0.5), Vec3(2, 2, 1), 0).value(),
                               makeBox(Vec3(1, 0.5, -0.5), Vec3(2, 2, 1), 0).value()});
  REQUIRE(t.pieces[0].shared.size() == 1);
  REQUIRE(t.pieces[1].shared.size() == 1);
  const double tol = 1e-3;
  // Each piece's patch runs the other way round (opposite normals): the
  // same points are covered by both.
  for (const TerrainPiece& piece : t.pieces) {
    const SharedPatch& patch = piece.shared[0];
    CHECK(patch.sides.size() == 4);
    CHECK(patch.covers(Vec3(0, 0.2, -0.5), tol));
    CHECK(patch.covers(Vec3(0.3, 0.2, -0.5), tol));           // projected along the normal
    CHECK(patch.covers(Vec3(0, 1 + 0.9 * tol, -0.5), tol));   // within tol of the side y = 1
    CHECK(patch.covers(Vec3(0, 0.2, 0.9 * tol), tol));        // of the top z = 0
    CHECK(patch.covers(Vec3(0, -0.5 - 0.9 * tol, -1), tol));  // near a corner
    CHECK_FALSE(patch.covers(Vec3(0, 1 + 1.1 * tol, -0.5), tol));
    CHECK_FALSE(patch.covers(Vec3(0, -0.7, -0.5), tol));      // on the first box's face only
    CHECK_FALSE(patch.covers(Vec3(0, 1.2, 0.2), tol));        // beyond two sides at once
    CHECK_FALSE(patch.covers(Vec3(0, 1.5, 0.5 * tol), tol));  // on the top's line, beyond its end
  }
}

TEST_CASE("shared patch: the kept sides decide as the polygon does, tilted and turned",
          "[terrain][seam]") {
  // Two boxes turned about z and abutting along a turned side; points drawn
  // around their patch (and off its plane) get the same answer from the
  // kept sides as from the polygon, but within 1e-9 m of a side's line ± tol
  // (the two sums round differently there).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double yaw : {0.3, -1.1, 2.0}) {
    const Vec3 across(std::cos(yaw), std::sin(yaw), 0);
    const Terrain t = terrainOf(
        {makeBox(Vec3(0, 0, -0.5), Vec3(2, 2, 1), yaw).value(),
         makeBox(Vec3(0, 0, -0.5) + 2 * across + Vec3(0, 0, 0.3), Vec3(2, 2, 1), yaw).value()});
    REQUIRE(t.pieces[0].shared.size() == 1);
    const SharedPatch& patch = t.pieces[0].shared[0];
    const Vec3 centre = across + Vec3(0, 0, -0.35);  // the overlap's middle
    const Vec3 along(-std::sin(yaw), std::cos(yaw), 0);
    int covered = 0, agreed = 0, near = 0;
    for (int k = 0; k < 20000; ++k) {
      const Vec3 q =
          centre + 1.3 * u(rng) * along + 0.6 * u(rng) * Vec3::UnitZ() + 0.1 * u(rng) * across;
      bool edge = false;
      for (const Plane& side : patch.sides)
        edge = edge || std::abs(std::abs(side.signedDistance(q)) - kFlushTolerance) < 1e-9;
      if (edge) {
        ++near;
        continue;
      }
      const bool got = patch.covers(q, kFlushTolerance);
      covered += got;
      agreed += got == coveredByPolygon(patch, q, kFlushTolerance);
    }
    INFO("yaw " << yaw);
    CHECK(agreed == 20000 - near);
    // The patch (2 m by 0.7 m) in the sampled 2.6 m by 1.2 m: about 45 % covered.
    CHECK(covered > 6000);
    CHECK(covered < 12000);
  }
}
