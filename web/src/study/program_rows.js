// A study's rows when its scenario carries a controller program
// (docs/controllers.md#a-study-of-a-controller): the program's host
// (ProgramRun) drives each row's run in the core (core.StudyRow), the program
// evaluated afresh for each row, so no state crosses from one row to the next.
// The study's parameters may set the program's own (control.program.params.NAME,
// handed to init as model.params). A program that fails stops its row only:
// the row's outcome is "program_error" and its message the program's. The
// Study tab's workers and `node tools/roverlab.mjs study` run rows with it.
import { compileProgram, ProgramError, ProgramRun } from '../controller/program.js';

/** Steps asked of a row at a time (the host stops earlier at each update). */
const STRETCH = 1 << 20;

let compiledFor = { source: null, compiled: null };

function compiled(source) {
  if (compiledFor.source !== source) compiledFor = { source, compiled: compileProgram(source) };
  return compiledFor.compiled;
}

/** True when the study's base scenario (its parsed description's `scenario` text) carries a program. */
export function studyHasProgram(description) {
  try {
    return Boolean(JSON.parse(description.scenario)?.control?.program);
  } catch {
    return false;
  }
}

/**
 * The row of one run (a grid index or { values, repeat }), as core.runStudyRow
 * gives it, with the scenario's program in the loop. `options.now` is the
 * budget's clock (ms).
 */
export function runProgramRow(core, text, run, options = {}) {
  const row = new core.StudyRow(text, run);
  try {
    const program = row.running() ? row.program() : null;
    if (program) hostProgram(row, program, options);
    while (row.running()) row.step(STRETCH);
    return row.finish();
  } finally {
    row.delete();
  }
}

function hostProgram(row, program, { now }) {
  if (program.language !== 'javascript') {
    row.failProgram(`a ${program.language} program runs in the Python package (roverlab.study with controller=); this host runs JavaScript ones`);
    return;
  }
  const c = compiled(program.source);
  if (!c.ok) {
    row.failProgram(`control.program:${c.error.line}:${c.error.column}: ${c.error.message}`);
    return;
  }
  try {
    const host = new ProgramRun(row, c, { now, model: row.model() });
    while (row.running()) host.step(STRETCH);
  } catch (e) {
    if (!(e instanceof ProgramError)) throw e;
    row.failProgram(e.message);
  }
}

/** A threshold search of one combination with the program in each run's loop (core.searchThreshold's record). */
export function searchProgramThreshold(core, text, combination, onRow, options = {}) {
  return core.searchThreshold(text, combination, onRow ?? null, (run) => runProgramRow(core, text, run, options));
}
