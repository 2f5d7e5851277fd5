// Telemetry rows of a run, sampled by the core every 10 ms of simulated time
// (the worker sends them with each frame): the plots and the CSV export read
// them. Stored row-major in one growing Float64Array; at most `maxRows` rows
// are kept (the oldest are dropped).
export class Telemetry {
  constructor(columns, { maxRows = 60000 } = {}) {
    this.columns = columns;
    this.width = columns.length;
    this.maxRows = maxRows;
    this.data = new Float64Array(this.width * 1024);
    this.rows = 0;
  }

  clear() {
    this.rows = 0;
  }

  /** Appends flat rows (a multiple of the column count); a time going back (a reset, a run
   * gone back to a scrubbed time) first drops the rows from that time on. */
  append(samples) {
    if (!samples?.length) return;
    const n = samples.length / this.width;
    if (!Number.isInteger(n)) throw new Error(`telemetry: ${samples.length} numbers are not whole rows of ${this.width}`);
    while (this.rows && samples[0] <= this.value(this.rows - 1, 0)) this.rows--;
    if ((this.rows + n) * this.width > this.data.length) {
      const grown = new Float64Array(Math.max(this.data.length * 2, (this.rows + n) * this.width));
      grown.set(this.data.subarray(0, this.rows * this.width));
      this.data = grown;
    }
    this.data.set(samples, this.rows * this.width);
    this.rows += n;
    if (this.rows > this.maxRows) {
      const drop = this.rows - this.maxRows;
      this.data.copyWithin(0, drop * this.width, this.rows * this.width);
      this.rows = this.maxRows;
    }
  }

  /** The last row at or before time t (s), or -1. */
  rowAt(t) {
    let lo = -1;
    let hi = this.rows;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.value(mid, 0) <= t + 1e-12) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  value(row, column) {
    return this.data[row * this.width + column];
  }

  /** CSV text: the column names, then one line per row. */
  toCsv() {
    const lines = [this.columns.join(',')];
    for (let r = 0; r < this.rows; r++) lines.push(Array.from(this.data.subarray(r * this.width, (r + 1) * this.width)).join(','));
    return lines.join('\n') + '\n';
  }
}
