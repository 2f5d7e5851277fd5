// Studies: one question answered by many runs of one scenario
// (docs/study-format.md). A study names a base scenario, parameters as
// scenario paths with their values, predicates on each run, and optionally a
// threshold search (bisection of one parameter until a predicate changes).
// The command-line tool, the Python package and the browser's worker pool
// all run a study's rows with the functions here, so their rows agree.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "scenario/scenario_files.h"

namespace roverlab {

constexpr const char* kStudyFormat = "roverlab-study";
constexpr int kStudyVersion = 1;
/// Most runs one study may ask for (grid rows, or combinations × bisection steps).
constexpr std::size_t kMaxStudyRuns = 1'000'000;

/// A path set with a parameter, to scale · value + offset (a block's centre
/// height with its height, so that it stays on the ground).
struct LinkedPath {
  std::string path;
  double scale = 1.0, offset = 0.0;
};

/// One parameter: a scenario path (as `--set` takes it) and its values.
struct StudyParameter {
  std::string path;
  std::vector<nlohmann::json> values;
  std::vector<LinkedPath> also;  ///< numeric values only
};

/// A yes/no question asked of each run.
struct StudyPredicate {
  enum class Kind : unsigned char {
    BaseXPast,    ///< the base's x at the end > value (m)
    BaseZAbove,   ///< the base's z at the end > value (m)
    ReachedX,     ///< the base's x reached value (m) within `within` s (also gives NAME_time_s)
    Flipped,      ///< the base turned over at some sample
    LeftTerrain,  ///< the run stopped with outcome "left_terrain"
  };
  std::string name;
  Kind kind = Kind::Flipped;
  double value = 0.0;
  double within = std::numeric_limits<double>::infinity();  ///< ReachedX (s)
};

/// Bisection of one parameter between `from` and `to` until the predicate's
/// answer changes within `tolerance` (same unit as the parameter).
struct ThresholdSearch {
  std::string path;
  std::vector<LinkedPath> also;
  double from = 0.0, to = 0.0, tolerance = 0.0;
  std::string predicate;
  int maxRuns = 0;  ///< 2 ends + the bisection steps the tolerance needs
};

struct Study {
  std::string name, description;
  std::string scenario;  ///< the base scenario document, JSON text
  ScenarioFiles files;   ///< the files it names (from its own folder)
  std::vector<StudyParameter> parameters;
  int repeats = 1;
  std::vector<StudyPredicate> predicates;
  std::optional<ThresholdSearch> threshold;
};

/// Reads a study document. `files` reads beside the study: a scenario given
/// as "file.json" is read with it, and that scenario's own files from its
/// folder (which stays inside the study's). Refusals name their path.
Expected<Study> parseStudy(const std::string& json, const ScenarioFiles& files);

/// One run of a study: a value per parameter (in the study's order), then,
/// in a threshold search, the searched parameter's value; and the repeat.
struct StudyRun {
  std::vector<nlohmann::json> values;
  int repeat = 0;
};

/// The grid: every combination of the parameters' values (the last varies
/// fastest), each `repeats` times. In a threshold search these are the
/// combinations searched, without the searched parameter's value.
std::vector<StudyRun> studyGrid(const Study& study);

/// The result columns of a run's row, in order: each parameter's path (and
/// the searched one's), "repeat" when repeats > 1, then "ok", "outcome",
/// "message", "state_hash", each predicate, each ReachedX predicate's
/// NAME_time_s, the measures "max_pitch_rad", "drive_energy_J",
/// "peak_wheel_torque_Nm", "mean_slip", the end "base_x_m", "base_z_m", and
/// "steps", "wall_s".
std::vector<std::string> studyColumns(const Study& study);

/// Runs one row: the base scenario with `run`'s values set, to its
/// duration. A value the validator refuses gives a row with ok false,
/// outcome "refused" and the refusal as message, never an exception. When
/// `cancelled` returns true (asked every sample) the run stops and the row's
/// outcome is "cancelled": not a result, to be run again.
nlohmann::json runStudyRow(const Study& study, const StudyRun& run,
                           const std::function<bool()>& cancelled = {});

struct Scenario;
struct Simulation;

/// One row of a study run a stretch at a time, for a runner that hosts the
/// scenario's controller program (docs/controllers.md): the program's host
/// steps it, and whenever the program is due (programDue) reads the
/// simulation's observation and hands back its command (commandProgram)
/// before stepping on. Without a host (`hostsProgram` false) a scenario with
/// control.program gives a refused row, as runStudyRow does.
class StudyRowRun {
 public:
  StudyRowRun(const Study& study, const StudyRun& run, bool hostsProgram);
  ~StudyRowRun();
  StudyRowRun(StudyRowRun&&) noexcept;
  StudyRowRun& operator=(StudyRowRun&&) noexcept;

  /// The run's simulation; null when the row was refused.
  Simulation* simulation();
  const Simulation* simulation() const;
  /// The run's scenario (its values set); null when the row was refused.
  /// Its control.program is the program to host.
  const Scenario* scenario() const;
  /// True while the run goes on: not refused, stopped, cancelled or at its duration.
  bool running() const;
  /// Advances up to `steps` steps, sampling the row's measures; fewer when
  /// the program's update is due or the run ends. `cancelled` is asked every sample.
  long long step(long long steps, const std::function<bool()>& cancelled = {});
  /// Stops the run because its program failed: the row is not ok, its
  /// outcome "program_error" and its message this one.
  void failProgram(const std::string& message);
  /// The row (the keys of studyColumns), as runStudyRow returns it.
  nlohmann::json finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// For a runner that hosts no program: the issue at scenario.control.program
/// when the study's base scenario carries one (every row would be refused),
/// naming who runs it; nullopt otherwise.
std::optional<Issue> unhostedProgram(const Study& study);

/// The `--set` assignments of a run ("PATH=VALUE"): what `roverlab run`
/// needs to repeat the row alone.
std::vector<std::string> studyAssignments(const Study& study, const StudyRun& run);

/// The key of a run among the study's (its values and repeat), for resuming.
std::string studyRunKey(const StudyRun& run);

/// The columns of a threshold search's result rows: each grid parameter's
/// path, then "found", "threshold" (the bracket's middle), "lower", "upper"
/// (the bracket, in the searched parameter's unit), "at_from" (the
/// predicate's answer at `from`), "runs", "message".
std::vector<std::string> thresholdColumns(const Study& study);

/// Searches one combination: runs `from` and `to`, then bisects while the
/// bracket is wider than the tolerance. Each run goes through `runRow` (which
/// may answer from rows already run). Not found when both ends agree, or a
/// run was refused or blew up (a run that left the terrain answers).
nlohmann::json searchThreshold(const Study& study, const StudyRun& combination,
                               const std::function<nlohmann::json(const StudyRun&)>& runRow);

/// A row's value as CSV text (numbers in shortest round-trip form, strings
/// quoted when they need it, null empty).
std::string csvField(const nlohmann::json& value);

/// Deterministic uniform samples in [from, to) (splitmix64), the same on every platform.
std::vector<double> studySamples(double from, double to, int count, std::uint64_t seed);

}  // namespace roverlab
