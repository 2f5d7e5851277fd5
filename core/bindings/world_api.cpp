#include "bindings/world_api.h"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "bindings/js_files.h"
#include "sim/describe.h"
#include "sim/run.h"
#include "sim/telemetry.h"

namespace roverlab {

val presetsJs() { return jsonToJs(describePresets()); }

val runScenarioJs(val json, double seconds) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  // 0 (or less) runs the scenario's duration; otherwise a finite time within
  // the format's range of simulation.duration.
  if (!(seconds <= 1e5))
    return issuesResult(
        {{"seconds", "must be a number of seconds ≤ 1e5 (0 for the scenario's duration)"}});
  Expected<Scenario> scenario = parseScenario(text.value());
  if (!scenario) return issuesResult(scenario.issues());
  Expected<Simulation> made = makeUnattendedSimulation(scenario.value());
  if (!made) return issuesResult(made.issues());
  Simulation& sim = made.value();
  RunStats stats;
  // One call runs in one go, so it is bounded: ~1e8 steps take minutes.
  constexpr long long kMaxSteps = 100'000'000;
  const long long steps = stepsIn(seconds > 0 ? seconds : sim.duration, sim.model.dt);
  if (steps > kMaxSteps)
    return issuesResult(
        {{seconds > 0 ? "seconds" : "simulation.duration",
          "would take " + std::to_string(steps) + " steps of " + format(sim.model.dt) +
              " s; runScenario takes at most 100000000 in one call (step a World "
              "in chunks for longer runs)"}});
  const double start = emscripten_get_now();
  runSteps(sim, steps, stepsIn(kSampleInterval, sim.model.dt), [&](Simulation& s) {
    stats.sample(s);
    return true;
  });
  const double wall = (emscripten_get_now() - start) / 1000.0;
  updateKinematics(sim);
  stats.sample(sim);
  val result = val::object();
  result.set("ok", true);
  result.set("summary", jsonToJs(describeRun(sim, stats, wall)));
  return result;
}

val applyOverridesJs(val json, val sets) {
  const Expected<std::string> text = jsonText(json);
  if (!text) return issuesResult(text.issues());
  if (!sets.isArray())
    return issuesResult({{"sets", "must be an array of \"PATH=VALUE\" strings"}});
  std::vector<std::string> list;
  const unsigned n = sets["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    if (!sets[i].isString())
      return issuesResult({{"sets[" + std::to_string(i) + "]", "must be a \"PATH=VALUE\" string"}});
    list.push_back(sets[i].as<std::string>());
  }
  const Expected<std::string> out = applyOverrides(text.value(), list);
  if (!out) return issuesResult(out.issues());
  val result = val::object();
  result.set("ok", true);
  result.set("scenario", out.value());
  return result;
}

World::World(val json) : World(json, val::undefined()) {}

World::World(val json, val readFile) {
  const Expected<std::string> text = jsonText(json);
  if (!text) {
    issues_ = text.issues();
    return;
  }
  Expected<Scenario> scenario = parseScenario(text.value(), filesFromJs(readFile));
  if (!scenario) {
    issues_ = scenario.issues();
    return;
  }
  scenario_ = std::move(scenario).value();
  reset();
}

bool World::reset() {
  Expected<Simulation> made = makeSimulation(scenario_);
  if (!made) {
    issues_ = made.issues();
    sim_.reset();
    return false;
  }
  sim_ = std::move(made).value();
  samples_.clear();
  startRow(*sim_, row_);  // t = 0: the start state and its forces
  samples_.insert(samples_.end(), row_.begin(), row_.end());
  checkpoints_ = Checkpoints();
  checkpoints_.offer(*sim_);
  stats_ = RunStats();
  layout_ = frameLayout(*sim_);
  writeFrame(*sim_, layout_, frame_);
  return true;
}

int World::step(int n) {
  if (!sim_) return 0;
  const int taken = static_cast<int>(
      runSteps(*sim_, std::max(0, n), stepsIn(kSampleInterval, sim_->model.dt), [&](Simulation& s) {
        telemetryRow(s, row_);
        samples_.insert(samples_.end(), row_.begin(), row_.end());
        checkpoints_.offer(s);
        stats_.sample(s);
        return true;
      }));
  writeFrame(*sim_, layout_, frame_);
  return taken;
}

bool World::seek(double t) {
  if (!sim_ || sim_->programPeriod > 0 || !checkpoints_.seek(*sim_, t)) return false;
  samples_.clear();
  if (sim_->steps ==
      0) {  // back at the start: its row again (the page drops the rows from there on)
    startRow(*sim_, row_);
    samples_.insert(samples_.end(), row_.begin(), row_.end());
  }
  writeFrame(*sim_, layout_, frame_);
  return true;
}

val World::samples() {
  val out = toTypedArray(samples_);
  samples_.clear();
  return out;
}

bool World::setWheelSpeeds(double left, double right) {
  return sim_ && roverlab::setWheelSpeeds(*sim_, left, right);
}

bool World::setJointTarget(const std::string& name, double target) {
  return sim_ && roverlab::setJointTarget(*sim_, name, target);
}

bool World::attachProgram(double period) { return sim_ && roverlab::attachProgram(*sim_, period); }

val World::summary(double wallSeconds) {
  if (!sim_) return val::null();
  RunStats stats = stats_;
  updateKinematics(*sim_);
  stats.sample(*sim_);
  return jsonToJs(describeRun(*sim_, stats, wallSeconds));
}

val World::telemetry() {
  if (!sim_) return val::null();
  updateKinematics(*sim_);
  telemetryRow(*sim_, row_);
  return toTypedArray(row_);
}

val World::observationColumns() const {
  return sim_ ? ProgramPort::observationColumns(*sim_) : val::array();
}

val World::observation() { return sim_ ? port_.observe(*sim_) : val::null(); }

val World::commandColumns() const {
  return sim_ ? ProgramPort::commandColumns(*sim_) : val::array();
}

int World::command(val row) { return sim_ ? port_.command(*sim_, row) : 0; }

bool World::setController(bool on) { return sim_ && roverlab::setControllerOn(*sim_, on); }

val World::model() const {
  if (!sim_) return val::object();
  val m = jsonToJs(describeModel(*sim_, scenario_));
  m.set("terrain", terrainToJs(*sim_->model.terrain));
  return m;
}

}  // namespace roverlab
