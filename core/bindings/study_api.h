// Studies in the browser (docs/study-format.md): the app's worker pool runs a
// study's rows with the core's own functions (study/study.h), so a row is the
// command-line tool's row, state_hash for state_hash. The browser's scenarios
// are inline: a study whose scenario names a file is refused at `scenario`.
//
// A study's text is parsed once and kept (the last few, by text), so a worker
// that runs many rows of one study parses it once. A run is given as its index
// in the study's grid, or as { values: [...], repeat } (the parameters' values
// in the study's order, then, in a threshold search, the searched value).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

#include "bindings/js_values.h"
#include "bindings/program_port.h"
#include "study/study.h"

namespace roverlab {

/// Most runs a study may ask for in the browser (grid rows × repeats, times a
/// threshold search's runs): each row is kept in the page (the command-line
/// tool takes up to kMaxStudyRuns).
constexpr std::size_t kMaxBrowserStudyRuns = 20'000;

/// { ok: true, name, description, columns, thresholdColumns, grid: [{ values,
/// repeat }], isThreshold, runs (the most runs it may take), parameters: [{
/// path, values, also }], predicates: [{ name, test, value, within_s }],
/// threshold: { path, from, to, tolerance, predicate, maxRuns } | null,
/// repeats, scenario (the base scenario, JSON text), issues: [] } or { ok:
/// false, issues }.
val parseStudyJs(val text);

/// The row of one run (the keys of studyColumns: runStudyRow's row), or { ok:
/// false, issues } when the study or the run is not one.
val runStudyRowJs(val text, val run);

struct ParsedStudy;

/// One row of a study whose scenario carries a controller program, run a
/// stretch at a time by the program's host (web/src/study/program_rows.js,
/// study/study.h StudyRowRun). It has the World's program loop (attachProgram,
/// programDue, observation, command, step, time, model) and finish(), the
/// row. new StudyRow(text, run): issues() lists why the study or the run is
/// not one (finish() then gives { ok: false, issues }).
class StudyRow {
 public:
  StudyRow(val text, val run);
  ~StudyRow();
  val issues() const { return issuesToJs(issues_); }
  /// True while the run goes on (not refused, stopped or at its duration).
  bool running() const { return row_ && row_->running(); }
  /// The scenario's control.program { language, source } or null.
  val program() const;
  double time() const;
  /// describeModel of the run (docs/wasm-api.md), no terrain; null when refused.
  val model() const;
  bool attachProgram(double period);
  bool programDue() const;
  val observationColumns() const;
  val observation();
  val commandColumns() const;
  int command(val row);
  /// Advances up to n steps; fewer when the program is due or the run ended.
  int step(int n);
  /// The program failed: the row's outcome is "program_error" with this message.
  void failProgram(const std::string& message);
  /// The row (the keys of studyColumns), once.
  val finish();

 private:
  std::shared_ptr<const ParsedStudy> parsed_;  // the Study the row refers to
  std::optional<StudyRowRun> row_;
  std::vector<Issue> issues_;
  ProgramPort port_;
};

/// The threshold record of one combination (a grid index or { values, repeat
/// }), or { ok: false, issues }; onRow(row), when given, hears of each run's
/// row as it finishes.
val searchThresholdJs(val text, val combination);
val searchThresholdRowsJs(val text, val combination, val onRow);
/// The same, each run's row made by runRow({ values, repeat }) (a host's
/// StudyRow, for a study with a controller program) instead of runStudyRow.
val searchThresholdHostedJs(val text, val combination, val onRow, val runRow);

/// The base scenario with a run's values set (studyAssignments, as `--set`
/// sets them): { ok: true, scenario (JSON text), assignments: ["PATH=VALUE"] }
/// or { ok: false, issues }.
val studyScenarioJs(val text, val run);

/// Rows as CSV text, a header line first, as `roverlab study` writes them:
/// which = "rows" (studyColumns) or "thresholds" (thresholdColumns). Numbers
/// take the type the core gives them (a parameter's value as the study wrote
/// it, steps and runs whole), so the text is the command line's.
val studyCsvJs(val text, val rows, val which);

}  // namespace roverlab
