// Telemetry and frame history stores of the web app.
import { describe, expect, test } from 'vitest';

import { History } from '../../web/src/runs/history.js';
import { Telemetry } from '../../web/src/runs/telemetry.js';

describe('Telemetry', () => {
  test('appends rows, grows, exports CSV', () => {
    const t = new Telemetry(['time_s', 'x_m']);
    for (let i = 0; i < 3000; i++) t.append(new Float64Array([i * 0.01, 2 * i]));
    expect(t.rows).toBe(3000);
    expect(t.value(2999, 1)).toBe(5998);
    const lines = t.toCsv().trim().split('\n');
    expect(lines[0]).toBe('time_s,x_m');
    expect(lines[2]).toBe('0.01,2');
    expect(lines[3]).toBe('0.02,4');  // 6 significant digits: not 0.020000000000000004
    expect(lines).toHaveLength(3001);
  });

  test('a full store keeps the whole run at half the rate, from t = 0; it says so first', () => {
    const t = new Telemetry(['time_s', 'k'], { maxRows: 100 });
    // 700 s of rows every 10 ms, in frames of 25 rows, as the worker sends them.
    for (let f = 0; f < 2800; f++) {
      const rows = new Float64Array(50);
      for (let r = 0; r < 25; r++) [rows[2 * r], rows[2 * r + 1]] = [(f * 25 + r) * 0.01, f * 25 + r];
      t.append(rows);
      if (f === 3) expect(t.nearFull).toBe(true);  // 100 rows in, before any is dropped
    }
    // 70 000 rows into 100: the stride doubled to 1024 (10.24 s), no row lost but by it.
    expect(t.stride).toBe(1024);
    expect(t.interval).toBeCloseTo(10.24, 12);
    expect(t.value(0, 0)).toBe(0);  // the start is kept
    for (let r = 1; r < t.rows; r++) expect(t.value(r, 1) - t.value(r - 1, 1)).toBe(1024);
    expect(t.value(t.rows - 1, 1)).toBeGreaterThan(70000 - 1024);  // up to the end
    t.append(new Float64Array([0.5, 0]));  // a time going back drops the rows after it
    expect(t.rows).toBe(1);
    t.clear();
    expect([t.rows, t.stride, t.nearFull]).toEqual([0, 1, false]);
  });

  test('a run gone back to an earlier time replaces the rows from that time on', () => {
    const t = new Telemetry(['time_s', 'x']);
    t.append(new Float64Array([0, 0, 0.01, 1, 0.02, 2, 0.03, 3]));
    expect(t.rowAt(0.025)).toBe(2);
    expect(t.rowAt(-1)).toBe(-1);
    t.append(new Float64Array([0.02, 20, 0.03, 30]));  // the new branch from 0.015 s
    expect(t.rows).toBe(4);
    expect([t.value(1, 1), t.value(2, 1), t.value(3, 1)]).toEqual([1, 20, 30]);
  });

  test('refuses partial rows', () => {
    expect(() => new Telemetry(['a', 'b']).append(new Float64Array(3))).toThrow(/not whole rows of 2/);
  });
});

describe('History', () => {
  const frame = (t) => new Float64Array([t, 0, 0]);

  test('keeps frames at least `interval` apart and finds the pair around a time', () => {
    const h = new History({ interval: 0.1 });
    for (const t of [0, 0.05, 0.1, 0.2, 0.3]) h.push(frame(t));
    expect(h.frames.map((f) => f[0])).toEqual([0, 0.1, 0.2, 0.3]);
    const { a, b, s } = h.at(0.25);
    expect([a[0], b[0]]).toEqual([0.2, 0.3]);
    expect(s).toBeCloseTo(0.5, 12);
    expect(h.at(-1).a[0]).toBe(0);
    expect(h.at(9).a[0]).toBe(0.3);
  });

  test('a time going back starts a new recording; at capacity the whole run is kept at half the rate', () => {
    const h = new History({ interval: 0, capacity: 3 });
    for (const t of [0, 1, 2, 3]) h.push(frame(t));
    expect(h.frames.map((f) => f[0])).toEqual([0, 2]);  // the start kept
    expect(h.interval).toBe(1);  // the kept frames' spacing
    h.push(frame(2.5));  // closer than the interval to the last
    h.push(frame(3));
    expect(h.frames.map((f) => f[0])).toEqual([0, 2, 3]);
    h.push(frame(0.5));
    expect(h.frames.map((f) => f[0])).toEqual([0, 0.5]);
  });

  test('a time going back keeps the frames before it (a run gone back to a scrubbed time)', () => {
    const h = new History({ interval: 0 });
    for (const t of [0, 1, 2, 3]) h.push(frame(t));
    h.push(frame(1.5));
    expect(h.frames.map((f) => f[0])).toEqual([0, 1, 1.5]);
    h.push(frame(0));  // a reset
    expect(h.frames.map((f) => f[0])).toEqual([0]);
  });
});
