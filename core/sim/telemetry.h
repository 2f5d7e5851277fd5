// Telemetry of a running simulation: one row of numbers per sample with named
// columns (time, base pose, joint positions, per wheel: centre, contacts,
// forces, slip, per joint its torque or force), and the statistics of a run (its summary:
// sim/describe.h).
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace roverlab {

/// Column names with units, e.g. "time_s", "base_x_m", "wheel_front_left_normal_N";
/// pitch and roll as in sim/tilt.h, "base_upside_down" 1 or 0; per body box
/// "box_BODY_contacts" (touching terrain pieces), "box_BODY_normal_N" and
/// "box_BODY_tangential_N" (sums of the force magnitudes); per joint, wheels
/// included, "JOINT_torque_Nm" (revolute) or "JOINT_force_N" (prismatic): the
/// joint force as the step last evaluated it (drive, limits and springs; the
/// articulated-body algorithm's τ); with the controller a last column with
/// its phase value (its kind's phaseColumn).
std::vector<std::string> telemetryColumns(const Simulation& sim);

/// Values of the columns for the current state and the last step's contacts.
/// Needs updateKinematics(sim) after the step.
void telemetryRow(const Simulation& sim, std::vector<double>& row);

/// The row at the run's start (t = 0, before any step): the forces and
/// contacts of the start state, evaluated on a copy of the step's data, so
/// the run itself is not touched.
void startRow(const Simulation& sim, std::vector<double>& row);

/// Running extremes gathered while sampling (for the summary).
struct RunStats {
  std::vector<double> maxAbsPitch;  ///< per section (rad)
  double flippedAt =
      -1.0;  ///< first sampled time the base had flipped over (Tilt::flippedOver) (s), −1 if never
  int maxBodyContacts = 0;  ///< most body box–terrain piece contacts at one sample
  void sample(const Simulation& sim);
};

/// Body box–terrain piece contacts of the last step.
int bodyContactCount(const Simulation& sim);

/// A body box's name: its body's, with the box's index among the body's boxes
/// when it has several (the telemetry's `box_NAME_...` columns, a program's
/// `boxes.NAME`).
std::string boxName(const Simulation& sim, size_t box);

}  // namespace roverlab
