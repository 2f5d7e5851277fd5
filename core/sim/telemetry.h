// Telemetry of a running simulation: one row of numbers per sample with named
// columns (time, base pose, joint positions, per wheel: centre, contacts,
// forces, slip), and the end-of-run summary.
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace roverlab {

/// Column names with units, e.g. "time_s", "base_x_m", "wheel_front_left_normal_N";
/// with the step-climb controller a last column "climb_phase" (ClimbPhase as a number).
std::vector<std::string> telemetryColumns(const Simulation& sim);

/// Values of the columns for the current state and the last step's contacts.
/// Needs updateKinematics(sim) after the step.
void telemetryRow(const Simulation& sim, std::vector<double>& row);

/// Running extremes gathered while sampling (for the summary).
struct RunStats {
  std::vector<double> maxAbsPitch;  ///< per section (rad)
  void sample(const Simulation& sim);
};

/// One-line JSON summary: final base pose, each wheel's contact state, max
/// |pitch| per section, steps, wall time, steps/s and real-time factor, and
/// the controller's "phase" name when one runs.
std::string summaryJson(const Simulation& sim, const RunStats& stats, double wallSeconds);

}  // namespace roverlab
