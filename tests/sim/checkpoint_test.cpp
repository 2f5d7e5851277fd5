// Going back in a run (sim/checkpoint.h): a run sought back to an earlier
// time and run on again reaches the very same state as the run that never
// went back (bit for bit: the checkpoint holds everything that changes,
// the controller's phase included); seeking forward or before the start is
// refused; a long run keeps its checkpoints bounded.
#include "sim/checkpoint.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "sim/run.h"
#include "support/scenario_files.h"
#include "world/state_hash.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;

namespace {

/// Runs to `until` seconds, offering a checkpoint at every 10 ms sample (as the app's World does).
void runWithCheckpoints(Simulation& sim, Checkpoints& checkpoints, double until) {
  const long long steps = stepsIn(until - sim.state.bodies.time, sim.model.dt);
  runSteps(sim, steps, stepsIn(0.01, sim.model.dt), [&](Simulation& s) {
    checkpoints.offer(s);
    return true;
  });
}

}  // namespace

TEST_CASE("a run sought back and run on reaches the same state as one that never went back",
          "[sim][checkpoint]") {
  // climb-articulated6: the step-climb controller's phases change within the first seconds.
  for (const char* file : {"climb-articulated6.json", "depression-rocker8.json"}) {
    INFO(file);
    Simulation straight = simulationOf(file);
    runUntil(straight, 3.0);

    Simulation sim = simulationOf(file);
    Checkpoints checkpoints;
    checkpoints.offer(sim);
    runWithCheckpoints(sim, checkpoints, 3.0);
    CHECK(stateHash(sim.state) == stateHash(straight.state));
    // Back to 1.234 s (between checkpoints), then on to 3 s again.
    REQUIRE(checkpoints.seek(sim, 1.234));
    CHECK(sim.state.bodies.time == Approx(1.234).margin(0.5 * sim.model.dt));
    runWithCheckpoints(sim, checkpoints, 3.0);
    CHECK(stateHash(sim.state) == stateHash(straight.state));
    CHECK(sim.steps == straight.steps);
    // And the hash sees a difference: the state at 1.234 s is not the one at 3 s.
    Simulation early = simulationOf(file);
    runUntil(early, 1.234);
    CHECK(stateHash(early.state) != stateHash(straight.state));
  }
}

TEST_CASE("a seek after the run's time or before its start is refused and changes nothing",
          "[sim][checkpoint]") {
  Simulation sim = simulationOf("flat-rocker8.json");
  Checkpoints checkpoints;
  checkpoints.offer(sim);
  runWithCheckpoints(sim, checkpoints, 0.5);
  const auto hash = stateHash(sim.state);
  CHECK_FALSE(checkpoints.seek(sim, 0.6));
  CHECK_FALSE(checkpoints.seek(sim, -1.0));
  CHECK_FALSE(checkpoints.seek(sim, std::nan("")));
  CHECK_FALSE(checkpoints.seek(sim, -std::numeric_limits<double>::infinity()));
  CHECK(stateHash(sim.state) == hash);
  // Seeking back drops the checkpoints after the new time (the run branches there).
  const size_t before = checkpoints.size();
  REQUIRE(checkpoints.seek(sim, 0.2));
  CHECK(checkpoints.size() < before);
  CHECK_FALSE(checkpoints.seek(sim, 0.3));  // now in the future of this branch
}

TEST_CASE("a run that stopped goes again from a time before it stopped", "[sim][checkpoint]") {
  // The wall scenario's vehicle drives off the terrain's end within 60 s (docs: left_terrain).
  Simulation sim = simulationOf("flat-wheel-rig.json");
  Checkpoints checkpoints;
  checkpoints.offer(sim);
  runWithCheckpoints(sim, checkpoints, 0.5);
  // Stop it by hand, as the run checks do.
  sim.outcome = RunOutcome::BlewUp;
  sim.data.error = "stopped for the test";
  CHECK_FALSE(advance(sim));
  REQUIRE(checkpoints.seek(sim, 0.3));
  CHECK(sim.outcome == RunOutcome::Ok);
  CHECK(sim.data.error.empty());
  CHECK(advance(sim));
}

TEST_CASE("checkpoints stay bounded on a long run: the interval doubles", "[sim][checkpoint]") {
  Simulation sim = simulationOf("flat-wheel-rig.json");
  Checkpoints checkpoints(0.01, 16);
  checkpoints.offer(sim);
  runWithCheckpoints(sim, checkpoints, 2.0);
  CHECK(checkpoints.size() <= 16);
  CHECK(checkpoints.interval() >= 0.08);
  // Still able to go back to any time of the run.
  REQUIRE(checkpoints.seek(sim, 0.55));
  CHECK(sim.state.bodies.time == Approx(0.55).margin(0.5 * sim.model.dt));
}
