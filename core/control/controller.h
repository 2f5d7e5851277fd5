// Automatic controllers: the control stage of a run, called at each kind's
// period before the step (as MuJoCo's control callback). A controller reads an
// Observation and writes a Command (control/observation.h), the vocabulary
// users' programs share (docs/controllers.md); it never touches the world.
//
// A new controller is one file in control/ that defines its ControllerKind,
// plus one line in the registry (control/controller.cpp). Nothing else names
// it: scenarios, telemetry, the CLI and the bindings read the registry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/observation.h"
#include "robots/robot.h"
#include "world/world.h"

namespace roverlab {

/// One running controller: the instance of a kind, with its own state.
class Controller {
 public:
  virtual ~Controller() = default;
  /// Control period (s of simulated time).
  virtual double period() const = 0;
  /// One control update: reads the observation, writes the command (`out`
  /// arrives cleared: what it leaves unset keeps its previous value).
  virtual void update(const Observation& obs, Command& out) = 0;
  /// Its phase, an index into its kind's `phases`.
  virtual int phase() const = 0;
  /// A copy with the same internal state (a run's checkpoint, sim/checkpoint.h).
  virtual std::unique_ptr<Controller> clone() const = 0;
};

/// Owns a running controller; a copy is a clone with the same internal state,
/// so a run's state (sim/simulation.h, RunState) copies whole.
class OwnedController {
 public:
  OwnedController() = default;
  OwnedController(std::unique_ptr<Controller> c)
      : c_(std::move(c)) {}  // NOLINT: implicit by design
  OwnedController(const OwnedController& o) : c_(o.c_ ? o.c_->clone() : nullptr) {}
  OwnedController(OwnedController&&) noexcept = default;
  OwnedController& operator=(const OwnedController& o) {
    if (this != &o) c_ = o.c_ ? o.c_->clone() : nullptr;
    return *this;
  }
  OwnedController& operator=(OwnedController&&) noexcept = default;
  ~OwnedController() = default;

  explicit operator bool() const { return c_ != nullptr; }
  Controller* operator->() const { return c_.get(); }

 private:
  std::unique_ptr<Controller> c_;
};

/// A registered kind of controller.
struct ControllerKind {
  std::string name;                 ///< as written in a scenario's control.controller
  std::string description;          ///< one line
  std::string phaseColumn;          ///< telemetry column of the phase value, e.g. "climb_phase"
  std::vector<std::string> phases;  ///< phase names by value (the summary's "phase")
  /// Builds the controller for a robot; issues at `control.controller` when
  /// the robot is not one it can drive.
  Expected<std::unique_ptr<Controller>> (*make)(const Robot& robot) = nullptr;
};

/// Every registered kind, in a fixed order.
const std::vector<ControllerKind>& controllerKinds();

/// The kind named `name`; null for "none" or an unknown name.
const ControllerKind* findControllerKind(const std::string& name);

/// "none" followed by every kind's name: what control.controller accepts.
std::vector<std::string> controllerNames();

/// Beside the kinds, users' own programs (control.program, docs/controllers.md):
/// a language they may be written in, and what runs them. The core never runs
/// a program itself; it gives its host the loop (sim/simulation.h, attachProgram).
struct ProgramLanguage {
  std::string name;  ///< as written in control.program.language
  std::string host;  ///< what runs a program in it
};

/// Every language, in a fixed order.
const std::vector<ProgramLanguage>& programLanguages();

}  // namespace roverlab
