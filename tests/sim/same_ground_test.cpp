// The same ground given three ways, as pieces (one hull per face), as a
// heightmap and as an irregular mesh, drives articulated6 and rocker8 to the
// same end state: a ground with folds of up to 8° across the path (and one
// along the heightmap's cell diagonals), 10 s of driving.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "support/folded_surfaces.h"
#include "support/scenario_files.h"

using namespace roverlab;

namespace {

Vec3 basePosition(const Simulation& sim) {
  return worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
}

}  // namespace

TEST_CASE("the same ground as pieces, heightmap and mesh drives a robot to the same end state",
          "[sim][union][kinds]") {
  std::mt19937 rng(2814);
  for (const char* preset : {"articulated6", "rocker8"})
    for (bool diagonal : {false, true}) {
      testing::FoldedSurface s =
          testing::randomFolded(rng, 6, 1, 8, 8, diagonal, 1.0, 1.3, testing::FoldGrid{});
      s.uMax = 12;
      s.halfWidth = 2;
      const std::string kinds[] = {testing::hullsJson(s, false, rng), testing::heightmapJson(s),
                                   testing::meshJson(s, rng)};
      std::vector<Vec3> ends;
      for (const std::string& terrain : kinds) {
        Simulation sim = testing::simulationFromText(
            R"({"format": "roverlab-scenario", "version": 1, "terrain": {)" + terrain +
            R"(}, "robot": {"preset": ")" + preset +
            R"(", "pose": {"position": [0, 0]}}, "control": {"wheel_speed": 3}})");
        testing::runUntil(sim, 10.0);
        ends.push_back(basePosition(sim));
      }
      for (size_t k = 1; k < ends.size(); ++k) {
        INFO(preset << (diagonal ? ", diagonal folds" : "") << ": pieces end at "
                    << ends[0].transpose() << ", " << (k == 1 ? "heightmap" : "mesh") << " at "
                    << ends[k].transpose());
        CHECK(ends[0].x() > 3);  // it drove over the folds
        CHECK((ends[k] - ends[0]).norm() <= 1e-3);
      }
    }
}
