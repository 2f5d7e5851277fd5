// Telemetry rows of a run, sampled by the core every 10 ms of simulated time
// (the worker sends them with each frame): the plots and the CSV export read
// them. Stored row-major in one growing Float64Array. Every row of a run is
// kept, from t = 0, until the store holds `maxRows` (64 MiB by default: 100
// minutes of a 6-wheel robot's rows); then the whole run is kept at half the
// rate (every other row dropped, and from then on every 20 ms), and so on: a
// long run keeps its start, coarser, never only its end. `nearFull` turns true
// at 90 % of the store, before any row is dropped, so the page can say so. The
// CSV holds 6 significant digits (integers as they are).

/** The core's telemetry interval (s): a row every 10 ms of simulated time. */
export const SAMPLE_SECONDS = 0.01;
const DEFAULT_BYTES = 64 * 2 ** 20;

/** A number for the CSV: an integer as is, any other at 6 significant digits without trailing zeros. */
export function csvNumber(v) {
  if (Number.isInteger(v)) return String(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  return String(Number(v.toPrecision(6)));
}
export class Telemetry {
  constructor(columns, { maxRows = Math.floor(DEFAULT_BYTES / (8 * columns.length)) } = {}) {
    this.columns = columns;
    this.width = columns.length;
    this.maxRows = Math.max(2, maxRows);
    this.data = new Float64Array(this.width * Math.min(1024, this.maxRows));
    this.rows = 0;
    this.stride = 1;        // rows kept: one per `stride` of the core's (every stride × 10 ms)
    this.nearFull = false;  // 90 % of the store is used: the next coarsening nears
    this.drops = 0;         // counts clears and rows dropped from the end (readers' caches key on it)
  }

  clear() {
    this.drops++;
    this.rows = 0;
    this.stride = 1;
    this.nearFull = false;
  }

  /** The time between kept rows (s). */
  get interval() {
    return this.stride * SAMPLE_SECONDS;
  }

  /** Appends flat rows (a multiple of the column count); a time going back (a reset, a run
   * gone back to a scrubbed time) first drops the rows from that time on. */
  append(samples) {
    if (!samples?.length) return;
    const n = samples.length / this.width;
    if (!Number.isInteger(n)) throw new Error(`telemetry: ${samples.length} numbers are not whole rows of ${this.width}`);
    if (this.rows && samples[0] <= this.value(this.rows - 1, 0)) this.drops++;
    while (this.rows && samples[0] <= this.value(this.rows - 1, 0)) this.rows--;
    for (let r = 0; r < n; r++) {
      const t = samples[r * this.width];
      if (Math.round(t / SAMPLE_SECONDS) % this.stride !== 0) continue;  // between kept rows
      if (this.rows === this.maxRows) {
        this.coarsen();
        if (Math.round(t / SAMPLE_SECONDS) % this.stride !== 0) continue;
      }
      this.reserve(this.rows + 1);
      this.data.set(samples.subarray(r * this.width, (r + 1) * this.width), this.rows * this.width);
      this.rows++;
    }
    this.nearFull = this.rows >= 0.9 * this.maxRows;
  }

  /**
   * More columns after these (a controller program's plot values, `plot.NAME`): `columns` is
   * every column, these first; the rows kept so far get NaN in the new ones.
   */
  widen(columns) {
    if (columns.length <= this.width || columns.slice(0, this.width).some((c, i) => c !== this.columns[i]))
      throw new Error(`telemetry: ${columns.length} columns do not extend these ${this.width}`);
    const width = columns.length;
    const data = new Float64Array(Math.min(this.maxRows, Math.max(this.rows, 1024)) * width).fill(NaN);
    for (let r = 0; r < this.rows; r++) data.set(this.data.subarray(r * this.width, (r + 1) * this.width), r * width);
    this.columns = columns;
    this.width = width;
    this.data = data;
    this.drops++;  // readers' caches (by column) start again
  }

  /** Room for `rows` rows (the buffer doubles, up to maxRows). */
  reserve(rows) {
    if (rows * this.width <= this.data.length) return;
    const grown = new Float64Array(Math.min(this.maxRows, Math.max(2 * (this.data.length / this.width), rows)) * this.width);
    grown.set(this.data.subarray(0, this.rows * this.width));
    this.data = grown;
  }

  /** Half the rate over the whole run: keeps the rows on the doubled stride's times. */
  coarsen() {
    this.stride *= 2;
    let kept = 0;
    for (let r = 0; r < this.rows; r++) {
      if (Math.round(this.value(r, 0) / SAMPLE_SECONDS) % this.stride !== 0) continue;
      this.data.copyWithin(kept * this.width, r * this.width, (r + 1) * this.width);
      kept++;
    }
    this.rows = kept;
  }

  /** Telemetry holding `rows` rows of `columns` in `data` (row-major, one kept every `stride` × 10 ms), e.g. a copy read back from storage. */
  static of(columns, data, stride = 1) {
    const rows = data.length / columns.length;
    const telemetry = new Telemetry(columns, { maxRows: rows });
    telemetry.data = data;
    telemetry.rows = rows;
    telemetry.stride = stride;
    return telemetry;
  }

  /** A copy of the rows in a store of their size; coarser, as a full store keeps them (every
   * 2nd, 4th … of the rows kept, on the doubled strides' times), while more than `maxRows`. */
  copy(maxRows = this.rows) {
    let stride = this.stride;
    const kept = () => {
      let n = 0;
      for (let r = 0; r < this.rows; r++) if (Math.round(this.value(r, 0) / SAMPLE_SECONDS) % stride === 0) n++;
      return n;
    };
    let n = kept();
    while (n > maxRows) {
      stride *= 2;
      n = kept();
    }
    const data = new Float64Array(n * this.width);
    let k = 0;
    for (let r = 0; r < this.rows; r++) {
      if (Math.round(this.value(r, 0) / SAMPLE_SECONDS) % stride !== 0) continue;
      data.set(this.data.subarray(r * this.width, (r + 1) * this.width), k * this.width);
      k++;
    }
    return Telemetry.of(this.columns, data, stride);
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

  /** CSV text: `comments` as lines starting with "# ", the column names, then one line per row. */
  toCsv(comments = []) {
    const lines = comments.map((c) => `# ${String(c).replaceAll('\n', ' ')}`);
    lines.push(this.columns.join(','));
    const cells = new Array(this.width);
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.width; c++) cells[c] = csvNumber(this.data[r * this.width + c]);
      lines.push(cells.join(','));
    }
    return lines.join('\n') + '\n';
  }
}
