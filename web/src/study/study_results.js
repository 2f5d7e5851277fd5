// The results of one study as the pool brings them: a row per grid index (a
// grid study), or a threshold record per combination and every run of the
// searches (a threshold study). A task the pool could not finish (its worker
// failed or ran past the time limit) is a row with outcome "failed" (or a
// record not found) whose message says why; a cancelled task is no result
// and runs again with the next Run. Tied to the study's text: the rows of
// another text are other results.

/** "path: message; …" of a list of issues. */
const issueText = (issues) => issues.map((i) => `${i.path}: ${i.message}`).join('; ');

export class StudyResults {
  /** @param text the study's JSON text; parsed: core.parseStudy(text) (ok) */
  constructor(text, parsed) {
    this.text = text;
    this.parsed = parsed;
    this.threshold = parsed.isThreshold;
    this.grid = parsed.grid;
    this.results = new Array(parsed.grid.length).fill(null);  // rows, or threshold records
    this.runs = [];  // a threshold study's runs: { combination, row }
    this.done = 0;
    this.failed = 0;  // tasks the pool could not finish
  }

  get kind() {
    return this.threshold ? 'thresholds' : 'rows';
  }

  get total() {
    return this.grid.length;
  }

  get complete() {
    return this.done === this.total;
  }

  /** The grid indices without a result yet. */
  missing() {
    return this.results.flatMap((r, i) => (r === null ? [i] : []));
  }

  /** The parameters' values of grid index i, by path (and its repeat when the study repeats). */
  valuesOf(i) {
    const out = {};
    this.parsed.parameters.forEach((p, k) => (out[p.path] = this.grid[i].values[k]));
    if (this.parsed.repeats > 1) out.repeat = this.grid[i].repeat;
    return out;
  }

  /** A task's result from the pool: the core's row or record, or a failure. */
  record(i, result) {
    if (this.results[i] !== null) return;  // a task's first result is its result
    this.done += 1;
    const failed = Boolean(result?.failed || result?.issues);
    if (failed) this.failed += 1;
    this.results[i] = failed ? this.failure(i, result.failed ? result.message : issueText(result.issues)) : result;
  }

  /** A run of a threshold search, as it finishes. */
  addRun(i, row) {
    this.runs.push({ combination: i, row });
  }

  failure(i, message) {
    const values = this.valuesOf(i);
    if (!this.threshold) {
      const row = Object.fromEntries(this.parsed.columns.map((c) => [c, null]));
      return { ...row, ...values, ok: false, outcome: 'failed', message };
    }
    const heard = this.runs.filter((r) => r.combination === i).length;
    return { ...values, found: false, threshold: null, lower: null, upper: null, at_from: null, runs: heard, message: `failed: ${message}` };
  }

  /** The rows finished, in the grid's order (a grid study), or every run in the order they finished (a threshold study). */
  rows() {
    return this.threshold ? this.runs.map((r) => r.row) : this.results.filter(Boolean);
  }

  /** A threshold study's records finished, in the grid's order. */
  answers() {
    return this.threshold ? this.results.filter(Boolean) : [];
  }

  /** The run of a row, for the core (studyScenario): its grid index, or its values with the searched one last. */
  runOf(row, combination = null) {
    if (!this.threshold) {
      const i = this.results.indexOf(row);
      return i >= 0 ? i : null;
    }
    const c = combination ?? this.runs.find((r) => r.row === row)?.combination;
    if (c === undefined || c === null) return null;
    return { values: [...this.grid[c].values, row[this.parsed.threshold.path]], repeat: this.grid[c].repeat };
  }
}
