// The run loop shared by the command-line tool and the WebAssembly module:
// steps a simulation and samples it at a fixed simulated interval.
#pragma once

#include <functional>

#include "sim/simulation.h"

namespace roverlab {

/// Simulated time between the samples that keep run statistics and telemetry (s).
constexpr double kSampleInterval = 0.01;

/// Steps in `seconds` of simulated time at step dt, in 64 bits
/// (1e5 s at dt = 1e-6 s is 1e11 steps).
long long stepsIn(double seconds, double dt);

/// Takes up to `steps` steps. Every `every` steps (at least 1) (counted by sim.steps) it
/// updates the kinematics and calls `sample`, which returns false to stop
/// the run there. Returns the steps taken: fewer when the run stopped
/// (sim.outcome says why) or `sample` stopped it.
long long runSteps(Simulation& sim, long long steps, long long every, const std::function<bool(Simulation&)>& sample);

}  // namespace roverlab
