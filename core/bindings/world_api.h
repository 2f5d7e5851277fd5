// Scenarios run from JavaScript: runScenario (in one go, the command-line
// tool's summary), World (stepped by the app, frame by frame) and presets().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bindings/js_values.h"
#include "bindings/program_port.h"
#include "scenario/scenario.h"
#include "sim/checkpoint.h"
#include "sim/frame.h"
#include "sim/simulation.h"
#include "sim/telemetry.h"

namespace roverlab {

/// Every preset with its parameters, as `roverlab presets` prints them
/// (sim/describe.h, describePresets).
val presetsJs();

/// Runs a scenario (JSON text) for `seconds` of simulated time (the scenario's
/// duration when ≤ 0): { ok: true, summary } with the same summary the
/// command-line tool prints (sim/describe.h, describeRun), or { ok: false,
/// issues }. A run that stopped (blew up, left the terrain) has summary.ok
/// false, summary.outcome ("blew_up", "left_terrain") and summary.error;
/// warnings are in summary.warnings.
val runScenarioJs(val json, double seconds);

/// The command line's --set: `sets` an array of "PATH=VALUE" strings applied to
/// the scenario's JSON text: { ok: true, scenario } (the text) or { ok:
/// false, issues }.
val applyOverridesJs(val json, val sets);

/// A running scenario for the browser: `new World(json)`, then `ok()` or
/// `issues()`; `step(n)`, inputs, and `frame()`, a Float64Array view into WASM
/// memory laid out as in sim/frame.h (valid until the next call that may grow
/// memory: take it again after each step, or copy it).
class World {
 public:
  explicit World(val json);
  /// With the files it names read by readFile(name) (bindings/js_files.h).
  World(val json, val readFile);

  bool ok() const { return sim_.has_value(); }
  val issues() const { return issuesToJs(issues_); }

  /// Back to the initial state (false if the scenario was rejected).
  bool reset();

  /// Advances up to n steps; returns how many were taken (fewer when the run
  /// stopped: outcome() and error() say why).
  /// Every 10 ms of simulated time the telemetry row is kept for samples().
  int step(int n);

  /// Back to an earlier time t (s) of this run, to go on from there (a new
  /// branch: what was simulated after t is forgotten). From the checkpoint at
  /// or before t (sim/checkpoint.h: every 0.1 s, coarser on long runs) it steps
  /// up to t with the commands of that checkpoint. False, and nothing
  /// changed, when t is after the current time. A run that stopped goes again
  /// if t is before it stopped.
  bool seek(double t);

  /// Telemetry rows kept since the last call (flat, `columns` numbers each) as
  /// a Float64Array of its own; the store is emptied.
  val samples();

  std::string error() const { return sim_ ? sim_->data.error : std::string(); }
  /// "ok" while running or done, "blew_up" or "left_terrain" once stopped.
  std::string outcome() const { return outcomeName(sim_ ? sim_->outcome : RunOutcome::Ok); }
  /// Settings that run but deserve a word: [{ path, message }].
  val warnings() const { return issuesToJs(sim_ ? sim_->warnings : std::vector<Issue>{}); }
  double time() const { return sim_ ? sim_->state.bodies.time : 0.0; }
  double dt() const { return sim_ ? sim_->model.dt : 0.0; }
  /// Wheel speed commands (rad/s); false, and nothing changed, unless both
  /// are finite (they are clamped to the preset's limit).
  bool setWheelSpeeds(double left, double right);
  /// False, and nothing changed, for an unknown joint or a non-finite target.
  bool setJointTarget(const std::string& name, double target);
  /// The named controller on or off; false when the scenario has none.
  bool setController(bool on);
  val frame() const { return val(emscripten::typed_memory_view(frame_.size(), frame_.data())); }

  /// A controller program's loop (sim/simulation.h, docs/controllers.md):
  /// attachProgram(period) makes step() stop whenever the program's update is
  /// due (programDue()); the caller then reads observation(), a Float64Array
  /// view laid out as observationColumns() (sim/program_io.h), runs the
  /// program and hands its command, laid out as commandColumns() (NaN:
  /// unset), to command(), which returns how many values it clamped or
  /// dropped. With a program attached, seek() is refused: the program's own
  /// state is the caller's, so it goes back by reset() and running again.
  bool attachProgram(double period);
  /// The command-line tool's summary of the run so far (sim/describe.h,
  /// describeRun), its statistics sampled as step() keeps telemetry rows
  /// since reset() (a seek does not take back those after the time it goes to);
  /// `wallSeconds` is the caller's own timing.
  val summary(double wallSeconds);
  /// The telemetry row of the current state (the model's `columns`), a
  /// Float64Array of its own.
  val telemetry();
  bool programDue() const { return sim_ && roverlab::programDue(*sim_); }
  val observationColumns() const;
  val observation();
  val commandColumns() const;
  int command(val row);

  /// What the view needs to build the scene once (sim/describe.h,
  /// describeModel) and the terrain meshes (`terrain`, see terrainToJs);
  /// an empty object when the scenario was rejected.
  val model() const;

 private:
  Scenario scenario_;
  std::optional<Simulation> sim_;
  std::vector<Issue> issues_;
  FrameLayout layout_;
  std::vector<double> frame_;
  std::vector<double> row_, samples_;
  ProgramPort port_;
  Checkpoints checkpoints_;
  RunStats stats_;
};

}  // namespace roverlab
