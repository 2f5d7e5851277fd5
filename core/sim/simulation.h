// A running scenario: the robot and world built from a Scenario, its control
// inputs (commands, timed script), and per-step telemetry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/controller.h"
#include "scenario/scenario.h"
#include "sim/tilt.h"

namespace roverlab {

/// How a run stands. Anything but Ok has stopped it: advance() returns false
/// and sim.data.error holds the message.
enum class RunOutcome : unsigned char {
  Ok,           ///< running, or finished without a problem
  BlewUp,       ///< the state became non-finite or faster than 1e4 m/s, or the robot gained
                ///< energy that neither gravity nor its drives can supply
  LeftTerrain,  ///< every wheel fell below the terrain: nothing can ever hold the robot again
};

/// "ok", "blew_up" or "left_terrain" (the summary's "outcome").
const char* outcomeName(RunOutcome outcome);

/// The energy balance behind the blow-up check (docs/dynamics.md, "Runs that
/// stop"): E = kinetic + potential energy of the bodies can exceed its start
/// value only by what the drives did, at most ∫ Σ τ_max·|q̇| dt; the rest of
/// the model (springs, dampers, contacts) is passive.
struct EnergyBudget {
  double initial = 0.0;    ///< E at t = 0 (J)
  double driveWork = 0.0;  ///< ∫ Σ_actuators limit·|q̇| dt so far (J)
  double slack = 0.0;      ///< allowed excess for stored spring energy and integration error (J)
  long period = 1;         ///< steps from one comparison of E with the budget to the next
};

/// What a run changes as it goes, beside the step's results (WorldData's
/// StepResults): a checkpoint copies both whole (sim/checkpoint.h).
struct RunState {
  WorldState state;
  size_t nextScript = 0;                     ///< first script entry not applied yet
  double leftSpeed = 0.0, rightSpeed = 0.0;  ///< wheel speed commands (rad/s), before clamping
  long steps = 0;
  OwnedController controller;  ///< control.controller's running instance; empty for "none"
  double nextControl = 0.0;    ///< time of the controller's next update (s)
  bool controllerOn = true;    ///< the named controller drives (off: the commands stay as last set)
  RunOutcome outcome = RunOutcome::Ok;
  EnergyBudget energy;
};

/// A running scenario: what it was built from, and its RunState.
struct Simulation : RunState {
  WorldModel model;
  WorldData data;
  ControlSpec control;
  double duration = 0.0;                           ///< (s)
  const ControllerKind* controllerKind = nullptr;  ///< control.controller's kind; null for "none"
  double floor = 0.0;           ///< lowest point of the terrain, terrain.box.min.z (m)
  std::vector<Issue> warnings;  ///< valid settings worth a word (a step far above the default)
  std::vector<double> row;      ///< scratch: the telemetry row of the last frame (sim/frame.h)
  /// A program's control period (s), set by attachProgram; 0 without a program.
  double programPeriod = 0.0;
  Observation observation;  ///< scratch: what the last control update saw
  Command command;          ///< scratch: what it commanded
};

/// Builds the robot on the terrain and places it (on the ground when the pose
/// has no z). Issues: `robot.pose.position` when a wheel would start inside
/// the terrain or there is no ground under the robot; a stiffness or damping
/// the step cannot resolve (sim/step_stability.h) at `robot.params.NAME`, or
/// at `simulation.dt` when dt exceeds the default or the preset fixes the
/// coefficient; plus preset issues. A step more than 5× the default gives a
/// warning in sim.warnings.
Expected<Simulation> makeSimulation(const Scenario& scenario);

/// makeSimulation for a run that goes to its end with nobody to run a
/// controller program (the command line's run, runScenario, a study's row):
/// a scenario that carries one (control.program) is an issue there.
Expected<Simulation> makeUnattendedSimulation(const Scenario& scenario);

/// Wheel speed commands for each side (rad/s), clamped to the preset's limit;
/// false, and nothing changed, unless both are finite.
bool setWheelSpeeds(Simulation& sim, double left, double right);
/// Target of a named joint drive (rad or m); false, and nothing changed, if
/// there is no such drive or the target is not finite.
bool setJointTarget(Simulation& sim, const std::string& name, double target);

/// Turns the named controller on or off (operator mode). Off, the wheel and
/// joint commands stay as the controller or the operator last set them; on
/// again, it continues from its phase at the next control period. False when
/// the scenario has no controller.
bool setControllerOn(Simulation& sim, bool on);

/// One step: script entries due, the controller when its period is due, the
/// world step, then the run checks (energy balance, robot below the
/// terrain). False (with sim.outcome and sim.data.error set) when the run
/// stopped; later calls do nothing. With a program attached, call it only
/// while programDue is false.
bool advance(Simulation& sim);

/// Applies a command (control/observation.h) as a controller's update does:
/// speeds clamped to the robot's max_wheel_speed, position targets to the
/// joint's range, torques to the actuator's limit; unset and non-finite values
/// keep the previous command. Returns how many values it clamped or dropped.
int applyCommand(Simulation& sim, const Command& command);

/// A program's control loop (docs/controllers.md): the program, run by the
/// caller (the app's worker, tools/roverlab.mjs, the Python package), is
/// updated every `period` s of simulated time from t = now, before the step
/// that starts then. The caller steps with advance while programDue is false;
/// when it is true, it reads observeNow's observation, runs the program and
/// hands its command to commandProgram. False (nothing changed) when the
/// period is not in [dt, duration] or a named controller runs.
bool attachProgram(Simulation& sim, double period);
bool programDue(const Simulation& sim);
/// Brings the kinematics up to date and fills sim.observation.
const Observation& observeNow(Simulation& sim);
/// Applies the program's command and schedules its next update; returns
/// applyCommand's count.
int commandProgram(Simulation& sim, const Command& command);

/// Recomputes body poses for the current state (the step leaves them at the
/// start of the step); call before reading poses.
void updateKinematics(Simulation& sim);

/// Pitch, roll and upside-down flag of a body (sim/tilt.h), from the last kinematics.
Tilt bodyTilt(const Simulation& sim, int body);
/// Its pitch (rad in [−π, π], nose up positive) and roll (rad in [−π, π], left side up positive).
double bodyPitch(const Simulation& sim, int body);
double bodyRoll(const Simulation& sim, int body);

}  // namespace roverlab
