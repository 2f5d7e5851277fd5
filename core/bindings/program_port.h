// A controller program's rows as JavaScript sees them (sim/program_io.h): the
// observation as a Float64Array view, the command from any array of numbers.
// The World and a study's row (StudyRow) hand them to the program's host.
#pragma once

#include <vector>

#include "bindings/js_values.h"
#include "sim/program_io.h"
#include "sim/simulation.h"

namespace roverlab {

class ProgramPort {
 public:
  static val observationColumns(const Simulation& sim) {
    return jsonToJs(nlohmann::json(roverlab::observationColumns(sim)));
  }
  static val commandColumns(const Simulation& sim) {
    return jsonToJs(nlohmann::json(roverlab::commandColumns(sim)));
  }
  /// The observation now, a view valid until the next call.
  val observe(Simulation& sim) {
    observeNow(sim);
    observationRow(sim, observation_);
    return val(emscripten::typed_memory_view(observation_.size(), observation_.data()));
  }
  /// The program's command (NaN: unset); how many values were clamped or dropped.
  int command(Simulation& sim, const val& row) {
    command_ = emscripten::convertJSArrayToNumberVector<double>(row);
    commandFromRow(sim, command_.data(), command_.size(), sim.command);
    return commandProgram(sim, sim.command);
  }

 private:
  std::vector<double> observation_, command_;
};

}  // namespace roverlab
