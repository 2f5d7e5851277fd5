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

#include "bindings/js_values.h"

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

/// The threshold record of one combination (a grid index or { values, repeat
/// }), or { ok: false, issues }; onRow(row), when given, hears of each run's
/// row as it finishes.
val searchThresholdJs(val text, val combination);
val searchThresholdRowsJs(val text, val combination, val onRow);

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
