// Telemetry and frame history stores of the web app.
import { describe, expect, test } from 'vitest';

import { History } from '../../web/src/history.js';
import { Telemetry } from '../../web/src/telemetry.js';

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

  test('keeps at most maxRows, dropping the oldest; a time going back clears', () => {
    const t = new Telemetry(['time_s'], { maxRows: 5 });
    t.append(new Float64Array([1, 2, 3, 4, 5, 6, 7]));
    expect(t.rows).toBe(5);
    expect(t.value(0, 0)).toBe(3);
    t.append(new Float64Array([0.5]));
    expect(t.rows).toBe(1);
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

  test('a time going back starts a new recording; capacity drops the oldest', () => {
    const h = new History({ interval: 0, capacity: 3 });
    for (const t of [0, 1, 2, 3]) h.push(frame(t));
    expect(h.start).toBe(1);
    h.push(frame(0.5));
    expect(h.length).toBe(1);
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
