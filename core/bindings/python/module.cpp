// The Python extension roverlab._core (pybind11), wrapped by the package in
// python/roverlab (docs/python.md). Conventions:
//  - Documents and results cross as JSON text: the package turns dicts into
//    text and back (json.dumps, json.loads), so the keys are those the
//    command-line tool prints (sim/describe.h, study/study.h).
//  - A refusal (a scenario or study the core rejects) raises
//    roverlab.ScenarioError with the {path, message} issues; a misuse of the
//    API (a study run of the wrong shape) raises ValueError.
//  - Files named in a document are read from its folder only (filesInFolder).
//  - Running (run, World.step, Study.run_row, Study.search) releases the GIL,
//    so Python threads run scenarios side by side; Ctrl-C is noticed within
//    about kSignalCheck of wall time and raises KeyboardInterrupt.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scenario/folder_files.h"
#include "scenario/json_input.h"
#include "scenario/scenario.h"
#include "sim/describe.h"
#include "sim/program_io.h"
#include "sim/run.h"
#include "sim/simulation.h"
#include "sim/telemetry.h"
#include "study/study.h"
#include "world/state_hash.h"

namespace py = pybind11;

namespace roverlab {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

/// Wall time between two looks for a pending Ctrl-C while the GIL is released.
constexpr auto kSignalCheck = std::chrono::milliseconds(200);

/// Issues the core returned; raised in Python as roverlab.ScenarioError.
struct Refused : std::runtime_error {
  explicit Refused(std::vector<Issue> list)
      : std::runtime_error(Expected<int>(list).message()), issues(std::move(list)) {}
  std::vector<Issue> issues;
};

template <class T>
T take(Expected<T> result) {
  if (!result) throw Refused(result.issues());
  return std::move(result).value();
}

/// Looks for a pending signal (Ctrl-C) now and then, taking the GIL only for
/// that; call it with the GIL released. Once one is pending, the Python
/// error is set and `raise()` throws it when the GIL is held again.
class SignalWatch {
 public:
  bool pending() {
    if (pending_) return true;
    const Clock::time_point now = Clock::now();
    if (now - last_ < kSignalCheck) return false;
    last_ = now;
    py::gil_scoped_acquire gil;
    pending_ = PyErr_CheckSignals() != 0;
    return pending_;
  }
  void raise() const {
    if (pending_) throw py::error_already_set();
  }

 private:
  Clock::time_point last_ = Clock::now();
  bool pending_ = false;
};

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A scenario read as `roverlab run` reads it: the assignments applied to the
/// text, then the files it names from `folder` ("" or ending in '/').
Scenario readScenario(const std::string& text, const std::string& folder,
                      const std::vector<std::string>& sets) {
  const std::string doc = take(applyOverrides(text, sets));
  return take(parseScenario(doc, filesInFolder(folder)));
}

/// The summary `roverlab run` prints for the scenario run to its duration:
/// statistics sampled every kSampleInterval and once more at the end.
std::string run(const std::string& text, const std::string& folder,
                const std::vector<std::string>& sets) {
  const Scenario scenario = readScenario(text, folder, sets);
  Simulation sim = take(makeUnattendedSimulation(scenario));
  RunStats stats;
  SignalWatch signals;
  std::string summary;
  {
    py::gil_scoped_release release;
    const Clock::time_point start = Clock::now();
    runSteps(sim, stepsIn(sim.duration, sim.model.dt),
             std::max(1LL, stepsIn(kSampleInterval, sim.model.dt)), [&](Simulation& s) {
               stats.sample(s);
               return !signals.pending();
             });
    const double wall = secondsSince(start);
    updateKinematics(sim);
    stats.sample(sim);
    summary = dumpJson(describeRun(sim, stats, wall));
  }
  signals.raise();
  return summary;
}

using ObservationOut = py::array_t<double, py::array::c_style>;
using CommandIn = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A controller's observation now, copied into `out` (one value per observation column;
/// `row` is the caller's buffer), for the World and a study's row alike.
void observeInto(Simulation& sim, std::vector<double>& row, ObservationOut& out) {
  observeNow(sim);
  observationRow(sim, row);
  if (out.ndim() != 1 || static_cast<std::size_t>(out.shape(0)) != row.size())
    throw py::value_error("observation: the array must have one value per observation column");
  std::copy(row.begin(), row.end(), out.mutable_data());
}

/// A controller's command row (NaN: unset) applied; how many values were clamped or dropped.
int commandFrom(Simulation& sim, const CommandIn& row) {
  if (row.ndim() != 1) throw py::value_error("command: a 1-D array, one value per command column");
  commandFromRow(sim, row.data(), static_cast<std::size_t>(row.shape(0)), sim.command);
  return commandProgram(sim, sim.command);
}

/// A scenario stepped from Python. Every kSampleInterval of simulated time
/// it samples the run statistics (for summary()) and keeps a telemetry row;
/// the row at t = 0 is the first. One World is used by one thread at a time.
class World {
 public:
  World(const std::string& text, const std::string& folder, const std::vector<std::string>& sets)
      : scenario_(readScenario(text, folder, sets)),
        sim_(take(makeSimulation(scenario_))),
        every_(std::max(1LL, stepsIn(kSampleInterval, sim_.model.dt))),
        columns_(telemetryColumns(sim_)) {
    startRow(sim_, row_);
    rows_ = row_;
  }

  /// Up to n steps; false when the run has stopped (outcome, error say why).
  bool step(long long n) {
    if (n < 0) throw py::value_error("step: n must be ≥ 0");
    SignalWatch signals;
    {
      py::gil_scoped_release release;
      const Clock::time_point start = Clock::now();
      runSteps(sim_, n, every_, [&](Simulation& s) {
        stats_.sample(s);
        telemetryRow(s, row_);
        rows_.insert(rows_.end(), row_.begin(), row_.end());
        return !signals.pending();
      });
      wall_ += secondsSince(start);
    }
    signals.raise();
    return sim_.outcome == RunOutcome::Ok;
  }

  /// The summary of the run so far, as `roverlab run` would print it had the
  /// scenario's duration ended now.
  std::string summary() {
    RunStats stats = stats_;
    updateKinematics(sim_);  // poses only: the next step recomputes them from the state
    stats.sample(sim_);
    return dumpJson(describeRun(sim_, stats, wall_));
  }

  py::tuple state() const {
    const auto array = [](const double* data, std::size_t n) {
      return py::array_t<double>(static_cast<py::ssize_t>(n), data);
    };
    const MultibodyState& b = sim_.state.bodies;
    return py::make_tuple(array(b.q.data(), static_cast<std::size_t>(b.q.size())),
                          array(b.v.data(), static_cast<std::size_t>(b.v.size())),
                          array(sim_.state.targets.data(), sim_.state.targets.size()));
  }

  /// The rows kept so far, rows × columns.
  py::array_t<double> telemetry() const {
    const py::ssize_t cols = static_cast<py::ssize_t>(columns_.size());
    const py::ssize_t rows = cols ? static_cast<py::ssize_t>(rows_.size()) / cols : 0;
    return py::array_t<double>({rows, cols}, rows_.data());
  }

  const std::vector<std::string>& columns() const { return columns_; }
  std::string model() const { return dumpJson(describeModel(sim_, scenario_)); }
  std::string stateHash() const { return stateHashHex(sim_.state); }
  double time() const { return sim_.state.bodies.time; }
  double dt() const { return sim_.model.dt; }
  double duration() const { return sim_.duration; }
  long steps() const { return sim_.steps; }
  std::string outcome() const { return outcomeName(sim_.outcome); }
  std::string error() const { return sim_.data.error; }
  bool setWheelSpeeds(double left, double right) {
    return roverlab::setWheelSpeeds(sim_, left, right);
  }
  bool setJointTarget(const std::string& name, double target) {
    return roverlab::setJointTarget(sim_, name, target);
  }
  bool setController(bool on) { return setControllerOn(sim_, on); }

  /// A controller's loop (sim/simulation.h): with a program attached, step()
  /// stops whenever its update is due; observation() fills `out` (the
  /// observation's row, sim/program_io.h) and command() hands the command's
  /// row (NaN: unset), returning how many values were clamped or dropped.
  bool attachProgram(double period) { return roverlab::attachProgram(sim_, period); }
  bool programDue() const { return roverlab::programDue(sim_); }
  std::vector<std::string> observationColumns() const { return roverlab::observationColumns(sim_); }
  std::vector<std::string> commandColumns() const { return roverlab::commandColumns(sim_); }
  void observation(ObservationOut out) { observeInto(sim_, obsRow_, out); }
  int command(CommandIn row) { return commandFrom(sim_, row); }

 private:
  Scenario scenario_;
  Simulation sim_;
  long long every_;
  std::vector<std::string> columns_;
  RunStats stats_;
  double wall_ = 0.0;
  std::vector<double> row_, rows_, obsRow_;
};

/// The key `roverlab study` finds a kept row by when it resumes
/// (cli/study_command.cpp): each value's CSV field, joined by commas, then
/// '|' and the repeat.
std::string resumeKey(const StudyRun& run) {
  std::string key;
  for (std::size_t k = 0; k < run.values.size(); ++k)
    key += (k ? "," : "") + csvField(run.values[k]);
  return key + "|" + std::to_string(run.repeat);
}

/// One row of a study whose runs a Python controller drives (study/study.h
/// StudyRowRun): the World's program loop (attach_program, program_due,
/// observation, command, step, time, steps, outcome, model) and finish(),
/// the row as JSON text. It keeps its Study alive (py::keep_alive).
class PyStudyRow {
 public:
  PyStudyRow(const Study& study, const StudyRun& run) : row_(study, run, true) {}

  bool running() const { return row_.running(); }
  /// Up to n steps; false once the run stopped (not ok).
  bool step(long long n) {
    if (n < 0) throw py::value_error("step: n must be ≥ 0");
    SignalWatch signals;
    {
      py::gil_scoped_release release;
      row_.step(n, [&] { return signals.pending(); });
    }
    signals.raise();
    return !sim() || sim()->outcome == RunOutcome::Ok;
  }
  std::string model() const {
    return sim() ? dumpJson(describeModel(*sim(), *row_.scenario())) : std::string("null");
  }
  bool attachProgram(double period) { return sim() && roverlab::attachProgram(*sim(), period); }
  bool programDue() const { return running() && roverlab::programDue(*sim()); }
  std::vector<std::string> observationColumns() const {
    return sim() ? roverlab::observationColumns(*sim()) : std::vector<std::string>{};
  }
  std::vector<std::string> commandColumns() const {
    return sim() ? roverlab::commandColumns(*sim()) : std::vector<std::string>{};
  }
  void observation(ObservationOut out) {
    if (!sim()) throw py::value_error("observation: the row was refused");
    observeInto(*sim(), obsRow_, out);
  }
  int command(CommandIn row) { return sim() ? commandFrom(*sim(), row) : 0; }
  double time() const { return sim() ? sim()->state.bodies.time : 0.0; }
  long steps() const { return sim() ? sim()->steps : 0; }
  std::string outcome() const { return outcomeName(sim() ? sim()->outcome : RunOutcome::Ok); }
  /// The scenario's control.program language ("" without one).
  std::string programLanguage() const {
    return row_.scenario() ? row_.scenario()->control.program.language : std::string();
  }
  void failProgram(const std::string& message) { row_.failProgram(message); }
  std::string finish() { return dumpJson(row_.finish()); }

 private:
  Simulation* sim() { return row_.simulation(); }
  const Simulation* sim() const { return row_.simulation(); }
  StudyRowRun row_;
  std::vector<double> obsRow_;
};

/// A study (study/study.h) read from its document and folder. Runs cross as
/// JSON text {"values": [...], "repeat": r}, as grid() gives them.
class PyStudy {
 public:
  PyStudy(const std::string& text, const std::string& folder)
      : study_(take(parseStudy(text, filesInFolder(folder)))) {}

  std::vector<std::string> columns() const { return studyColumns(study_); }
  std::vector<std::string> thresholdColumns() const {
    return study_.threshold ? roverlab::thresholdColumns(study_) : std::vector<std::string>{};
  }
  bool isThreshold() const { return study_.threshold.has_value(); }

  std::string grid() const {
    json runs = json::array();
    for (const StudyRun& r : studyGrid(study_))
      runs.push_back({{"values", r.values}, {"repeat", r.repeat}});
    return dumpJson(runs);
  }

  /// One row: a grid run, or in a threshold study a run with the searched
  /// parameter's value last.
  std::string runRow(const std::string& runText) const {
    const StudyRun r = readRun(runText, study_.threshold ? 1 : 0);
    SignalWatch signals;
    std::string row;
    {
      py::gil_scoped_release release;
      row = dumpJson(runStudyRow(study_, r, [&] { return signals.pending(); }));
    }
    signals.raise();
    return row;
  }

  /// A threshold search of one combination: {"result": ..., "rows": [every
  /// row it ran, in order]}. `keptText` is a JSON object of rows already run
  /// (an earlier run's), keyed by resumeKey: the search answers from them, as
  /// `roverlab study` does when it resumes, and "rows" does not list them.
  std::string search(const std::string& runText, const std::string& keptText) const {
    if (!study_.threshold) throw py::value_error("search: the study has no threshold");
    const StudyRun r = readRun(runText, 0);
    const json kept = take(readJson(keptText));
    if (!kept.is_object()) throw py::value_error("search: kept is an object of rows by key");
    SignalWatch signals;
    std::string out;
    {
      py::gil_scoped_release release;
      json rows = json::array();
      json result = searchThreshold(study_, r, [&](const StudyRun& at) -> json {
        const auto it = kept.find(resumeKey(at));
        if (it != kept.end()) return *it;
        rows.push_back(runStudyRow(study_, at, [&] { return signals.pending(); }));
        return rows.back();
      });
      out = dumpJson(json{{"result", std::move(result)}, {"rows", std::move(rows)}});
    }
    signals.raise();
    return out;
  }

  /// A row to run with a controller (a grid run, or a threshold search's run).
  PyStudyRow row(const std::string& runText) const {
    return PyStudyRow(study_, readRun(runText, study_.threshold ? 1 : 0));
  }

  /// A threshold search whose runs `runRow(run JSON text) -> row JSON text`
  /// makes (a Python controller's rows): {"result", "rows"} as search() gives.
  std::string searchWith(const std::string& runText, const py::function& runRow) const {
    if (!study_.threshold) throw py::value_error("search: the study has no threshold");
    const StudyRun r = readRun(runText, 0);
    json rows = json::array();
    json result = searchThreshold(study_, r, [&](const StudyRun& at) -> json {
      const std::string text =
          runRow(dumpJson(json{{"values", at.values}, {"repeat", at.repeat}})).cast<std::string>();
      rows.push_back(take(readJson(text)));
      return rows.back();
    });
    return dumpJson(json{{"result", std::move(result)}, {"rows", std::move(rows)}});
  }

  /// The base scenario (JSON text).
  const std::string& baseScenario() const { return study_.scenario; }

  std::vector<std::string> assignments(const std::string& runText) const {
    return studyAssignments(study_, readRun(runText, study_.threshold ? 1 : 0));
  }
  std::string key(const std::string& runText) const {
    return studyRunKey(readRun(runText, study_.threshold ? 1 : 0));
  }

 private:
  /// A run of this study: one value per parameter (plus up to `extra`), a
  /// repeat in [0, repeats).
  StudyRun readRun(const std::string& text, std::size_t extra) const {
    const json doc = take(readJson(text));
    const std::size_t n = study_.parameters.size();
    const json values = doc.is_object() ? doc.value("values", json()) : json();
    const json repeat = doc.is_object() ? doc.value("repeat", json(0)) : json();
    if (!values.is_array() || values.size() < n || values.size() > n + extra)
      throw py::value_error("a study run is {\"values\": [...], \"repeat\": r} with " +
                            std::to_string(n) + (extra ? " or " + std::to_string(n + extra) : "") +
                            " values, as Study.grid() gives them");
    if (!repeat.is_number_integer() || repeat.get<long long>() < 0 ||
        repeat.get<long long>() >= study_.repeats)
      throw py::value_error("a study run's repeat is a whole number in [0, " +
                            std::to_string(study_.repeats) + ")");
    StudyRun run;
    run.values = values.get<std::vector<json>>();
    run.repeat = repeat.get<int>();
    return run;
  }

  Study study_;
};

std::string readDocumentText(const std::string& path) { return take(readDocument(path)); }

std::string csvFieldOf(const std::string& valueText) { return csvField(take(readJson(valueText))); }

}  // namespace
}  // namespace roverlab

PYBIND11_MODULE(_core, m) {
  using namespace roverlab;
  m.doc() = "Roverlab's C++ core (JSON text in and out); use it through the roverlab package.";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Refused& refused) {
      py::list issues;
      for (const Issue& i : refused.issues) {
        py::dict issue;
        issue["path"] = i.path;
        issue["message"] = i.message;
        issues.append(std::move(issue));
      }
      try {
        const py::object error =
            py::module_::import("roverlab._errors").attr("ScenarioError")(issues);
        PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
      } catch (py::error_already_set& e) {
        e.restore();
      }
    }
  });

  m.attr("SAMPLE_INTERVAL") = kSampleInterval;
  m.def("run", &run, py::arg("text"), py::arg("folder"), py::arg("sets"));
  m.def("read_document", &readDocumentText, py::arg("path"));
  m.def("csv_field", &csvFieldOf, py::arg("value_json"));

  py::class_<World>(m, "World")
      .def(py::init<const std::string&, const std::string&, const std::vector<std::string>&>(),
           py::arg("text"), py::arg("folder"), py::arg("sets"))
      .def("step", &World::step, py::arg("n"))
      .def("summary", &World::summary)
      .def("state", &World::state)
      .def("telemetry", &World::telemetry)
      .def("model", &World::model)
      .def("set_wheel_speeds", &World::setWheelSpeeds, py::arg("left"), py::arg("right"))
      .def("set_joint_target", &World::setJointTarget, py::arg("name"), py::arg("target"))
      .def("set_controller", &World::setController, py::arg("on"))
      .def("attach_program", &World::attachProgram, py::arg("period"))
      .def("program_due", &World::programDue)
      .def("observation", &World::observation, py::arg("out"))
      .def("command", &World::command, py::arg("row"))
      .def_property_readonly("observation_columns", &World::observationColumns)
      .def_property_readonly("command_columns", &World::commandColumns)
      .def_property_readonly("columns", &World::columns)
      .def_property_readonly("state_hash", &World::stateHash)
      .def_property_readonly("time", &World::time)
      .def_property_readonly("dt", &World::dt)
      .def_property_readonly("duration", &World::duration)
      .def_property_readonly("steps", &World::steps)
      .def_property_readonly("outcome", &World::outcome)
      .def_property_readonly("error", &World::error);

  py::class_<PyStudyRow>(m, "StudyRow")
      .def("step", &PyStudyRow::step, py::arg("n"))
      .def("model", &PyStudyRow::model)
      .def("attach_program", &PyStudyRow::attachProgram, py::arg("period"))
      .def("program_due", &PyStudyRow::programDue)
      .def("observation", &PyStudyRow::observation, py::arg("out"))
      .def("command", &PyStudyRow::command, py::arg("row"))
      .def("fail_program", &PyStudyRow::failProgram, py::arg("message"))
      .def("finish", &PyStudyRow::finish)
      .def_property_readonly("running", &PyStudyRow::running)
      .def_property_readonly("observation_columns", &PyStudyRow::observationColumns)
      .def_property_readonly("command_columns", &PyStudyRow::commandColumns)
      .def_property_readonly("time", &PyStudyRow::time)
      .def_property_readonly("steps", &PyStudyRow::steps)
      .def_property_readonly("outcome", &PyStudyRow::outcome)
      .def_property_readonly("program_language", &PyStudyRow::programLanguage);

  py::class_<PyStudy>(m, "Study")
      .def(py::init<const std::string&, const std::string&>(), py::arg("text"), py::arg("folder"))
      .def("grid", &PyStudy::grid)
      .def("run_row", &PyStudy::runRow, py::arg("run"))
      .def("search", &PyStudy::search, py::arg("run"), py::arg("kept") = "{}")
      .def("row", &PyStudy::row, py::arg("run"), py::keep_alive<0, 1>())
      .def("search_with", &PyStudy::searchWith, py::arg("run"), py::arg("run_row"))
      .def_property_readonly("base_scenario", &PyStudy::baseScenario)
      .def("assignments", &PyStudy::assignments, py::arg("run"))
      .def("key", &PyStudy::key, py::arg("run"))
      .def_property_readonly("columns", &PyStudy::columns)
      .def_property_readonly("threshold_columns", &PyStudy::thresholdColumns)
      .def_property_readonly("is_threshold", &PyStudy::isThreshold);
}
