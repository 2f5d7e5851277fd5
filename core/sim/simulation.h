// A running scenario: the robot and world built from a Scenario, its control
// inputs (commands, timed script), and per-step telemetry.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "control/step_climb.h"
#include "scenario/scenario.h"

namespace roverlab {

struct Simulation {
  Robot robot;
  WorldModel model;
  WorldState state;
  WorldData data;
  ControlSpec control;
  double duration = 0.0;   ///< (s)
  size_t nextScript = 0;   ///< first script entry not applied yet
  double leftSpeed = 0.0, rightSpeed = 0.0;  ///< wheel speed commands (rad/s), before clamping
  long steps = 0;
  std::optional<StepClimb> climb;  ///< set when control.controller is "step-climb"
  bool controllerOn = true;        ///< the named controller drives (off: the commands stay as last set)
};

/// Builds the robot on the terrain and places it (on the ground when the pose
/// has no z). Issues: `robot.pose.position` when a wheel would start inside
/// the terrain or there is no ground under the robot, plus preset issues.
Expected<Simulation> makeSimulation(const Scenario& scenario);

/// Wheel speed commands for each side (rad/s), clamped to the preset's limit.
void setWheelSpeeds(Simulation& sim, double left, double right);
/// Target of a named joint drive (rad or m); false if there is no such drive.
bool setJointTarget(Simulation& sim, const std::string& name, double target);

/// Turns the named controller on or off (operator mode). Off, the wheel and
/// joint commands stay as the controller or the operator last set them; on
/// again, it continues from its phase at the next control period. False when
/// the scenario has no controller.
bool setControllerOn(Simulation& sim, bool on);

/// One step: script entries due, the controller when its period is due, then
/// the world step. False (with sim.data.error set) when the state blew up;
/// later calls do nothing.
bool advance(Simulation& sim);

/// Recomputes body poses for the current state (the step leaves them at the
/// start of the step); call before reading poses.
void updateKinematics(Simulation& sim);

/// Pitch of a body (rad, nose-up positive: rotation of its x axis above the
/// horizontal) and roll (rad, left side up positive), from the last kinematics.
double bodyPitch(const Simulation& sim, int body);
double bodyRoll(const Simulation& sim, int body);

}  // namespace roverlab
