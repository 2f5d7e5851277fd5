// Recorded frames of a run: the timeline scrubs through them. Frames are kept at most every
// `interval` seconds of simulated time, from t = 0. At `capacity` frames the
// whole run is kept at half the rate (every other frame dropped, the interval
// doubled): a long run keeps its start, coarser, never only its end.
export class History {
  constructor({ interval = 1 / 60, capacity = 20000 } = {}) {
    this.baseInterval = this.interval = interval;
    this.capacity = Math.max(2, capacity);
    this.frames = [];
  }

  clear() {
    this.frames.length = 0;
    this.interval = this.baseInterval;
  }

  /** Adds a frame (Float64Array, [0] = time) unless it is too close to the last. A time going
   * back (a reset, a run gone back to a scrubbed time) first drops the frames from that time on. */
  push(frame) {
    const last = this.frames.at(-1);
    if (last && frame[0] < last[0] - 1e-12) this.truncate(frame[0]);
    else if (last && frame[0] - last[0] < this.interval - 1e-12) return false;
    this.frames.push(frame);
    if (this.frames.length > this.capacity) {
      this.frames = this.frames.filter((_, i) => i % 2 === 0);
      this.interval = Math.max(2 * this.interval, (this.end - this.start) / this.frames.length);
    }
    return true;
  }

  /** Drops the frames at or after time t (s). */
  truncate(t) {
    let n = this.frames.length;
    while (n > 0 && this.frames[n - 1][0] >= t - 1e-12) n--;
    this.frames.length = n;
  }

  get length() {
    return this.frames.length;
  }

  get start() {
    return this.frames.length ? this.frames[0][0] : 0;
  }

  get end() {
    return this.frames.length ? this.frames.at(-1)[0] : 0;
  }

  /** The last frame at or before time t, and the one after it with the blend fraction. */
  at(t) {
    const f = this.frames;
    if (!f.length) return null;
    if (t <= f[0][0]) return { a: f[0], b: f[0], s: 0 };
    if (t >= f.at(-1)[0]) return { a: f.at(-1), b: f.at(-1), s: 0 };
    let lo = 0;
    let hi = f.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (f[mid][0] <= t) lo = mid;
      else hi = mid;
    }
    const span = f[hi][0] - f[lo][0];
    return { a: f[lo], b: f[hi], s: span > 0 ? (t - f[lo][0]) / span : 0 };
  }
}
