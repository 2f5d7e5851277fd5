// The union law over folded surfaces, however they are given: random grounds
// with 1-4 folds of random angle (0.1° to 60°, concave and convex), folds
// across the path or along a heightmap's cell diagonals, written as one hull
// per face (the reference), as hulls cut into more coplanar pieces, as a
// heightmap and as an irregular mesh. At every sampled wheel centre the
// spring force per unit stiffness Σ share·Z·n is the reference's.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "support/folded_surfaces.h"
#include "support/scenario_files.h"
#include "support/surface_terrains.h"

using namespace roverlab;

namespace {

Terrain terrainFrom(const std::string& terrain) {
  Simulation sim = testing::simulationFromText(
      R"({"format": "roverlab-scenario", "version": 1, "terrain": {)" + terrain +
      R"(}, "robot": {"preset": "wheel-rig", "pose": {"position": [0.3, 0]}}})");
  return *sim.model.terrain;
}

}  // namespace

TEST_CASE("a folded ground loads a wheel the same as hulls, cut hulls, heightmap and mesh",
          "[contact][union][property]") {
  std::mt19937 rng(2811);
  const double r = testing::kSurfaceWheel.radius;
  std::uniform_real_distribution<double> unit(0, 1);
  double worst = 0;
  long samples = 0, shared = 0;
  for (int surface = 0; surface < 24; ++surface) {
    const bool diagonal = surface % 2 == 1;
    const int folds = 1 + surface / 2 % 4;
    // Along a diagonal the ground also leans across the path by a face's
    // angle over √2: faces within ±20° keep the contact on the tread.
    const testing::FoldedSurface s =
        testing::randomFolded(rng, folds, 0.1, diagonal ? 40 : 60, diagonal ? 20 : 45, diagonal);
    const Terrain reference = terrainFrom(testing::hullsJson(s, false, rng));
    const Terrain others[] = {terrainFrom(testing::hullsJson(s, true, rng)),
                              terrainFrom(testing::heightmapJson(s)),
                              terrainFrom(testing::meshJson(s, rng))};
    const double xEnd = s.xOf(s.folds.back(), 0) + 0.5;
    for (double x = 0.5; x < xEnd; x += 0.7e-3) {
      // Random deflection (1e-3 r to 0.1 r of the face below) and lateral place.
      const double y = 0.3 * (2 * unit(rng) - 1), u = s.u(x, y);
      const double slope = s.slopes[s.faceAt(u)];
      const double z =
          s.height(u) + r * (1 - std::pow(10, -3 + 2 * unit(rng))) * std::sqrt(1 + slope * slope);
      const Vec3 centre(x, y, z);
      const Vec3 want = testing::load(reference, centre, Vec3::UnitY());
      std::vector<WheelContact> touches;
      WheelContactScratch scratch;
      shared += wheelTouches(reference, testing::kSurfaceWheel, centre, Vec3::UnitY(), scratch,
                             touches) > 1;
      ++samples;
      for (const Terrain& t : others) {
        const char* kind = &t == &others[0] ? "cut hulls" : &t == &others[1] ? "heightmap" : "mesh";
        const Vec3 got = testing::load(t, centre, Vec3::UnitY());
        // Over a convex fold the wheel may reach neither face: no load at all.
        const double off = (got - want).norm() / std::max(want.norm(), 1e-9);
        worst = std::max(worst, off);
        INFO(kind << ", surface " << surface << " x " << x << " y " << y << " want "
                  << want.transpose() << " got " << got.transpose());
        // Heights of a heightmap are 32-bit floats: 2.4e-7 m on grounds up to 4 m
        // high against deflections from 1.9e-4 m (1e-3 r): 0.13 % at most; the
        // pieces and the mesh agree to the rounding.
        REQUIRE(off <= 0.01);
      }
    }
  }
  INFO("samples " << samples << ", with two or more touches " << shared << ", worst " << worst);
  CHECK(shared > 1000);  // the folds were met: the law had something to share
}
