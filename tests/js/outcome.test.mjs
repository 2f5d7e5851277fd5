// The run's outcome in words (web/src/runs/outcome.js) over telemetry rows made
// here: a flip streak is dated from its own start, a scrubbed time says what
// had happened by then, and rows dropped and written again are read again.
import { describe, expect, test } from 'vitest';

import { describeOutcome } from '../../web/src/runs/outcome.js';
import { Telemetry } from '../../web/src/runs/telemetry.js';

const columns = ['t_s', 'base_x_m', 'base_y_m', 'base_pitch_rad', 'base_roll_rad', 'base_upside_down', 'phase'];
const phases = ['approach', 'lift', 'done'];
const climb = { controller: 'step-climb', phaseColumn: 'phase', phases };
const drive = { controller: 'none', phases: [] };

// Rows every 10 ms: `flipped(t)` and `phase(t)` give each row's state.
function rows(from, to, { flipped = () => false, phase = () => 0 } = {}) {
  const out = [];
  for (let k = Math.round(from / 0.01); k <= Math.round(to / 0.01); k++) {
    const t = k * 0.01;
    out.push(t, t * 0.5, 0, 0, 0, flipped(t) ? 1 : 0, phase(t));
  }
  return new Float64Array(out);
}

describe('describeOutcome', () => {
  test('a second flip is dated from its own start; a time between the flips is not on its back', () => {
    const telemetry = new Telemetry(columns);
    const flipped = (t) => (t >= 1 && t < 2) || t >= 3;
    telemetry.append(rows(0, 4, { flipped }));
    const at = (t) => describeOutcome({ model: drive, telemetry }, telemetry.rowAt(t));
    expect(at(4)).toEqual({ text: 'on its back since t = 3.0 s', kind: 'fail' });
    expect(at(2.5).kind).toBe('ok');
    expect(at(1.5).text).toBe('on its back since t = 1.0 s');
    expect(at(0.5).text).toBe('ok: drove 0.25 m');
  });

  test('the climb is met from the first row in phase done on, read as the rows arrive', () => {
    const telemetry = new Telemetry(columns);
    const phase = (t) => (t >= 2.5 ? 2 : t >= 1 ? 1 : 0);
    telemetry.append(rows(0, 2, { phase }));
    const now = () => describeOutcome({ model: climb, telemetry }, telemetry.rows - 1);
    expect(now()).toEqual({ text: 'not on top of the step yet (phase: lift)', kind: 'ok' });
    telemetry.append(rows(2.01, 3, { phase }));
    expect(now()).toEqual({ text: 'climbed: on top of the step at t = 2.5 s', kind: 'goal' });
    expect(describeOutcome({ model: climb, telemetry }, telemetry.rowAt(2)).kind).toBe('ok');
  });

  test('rows dropped and written again (a run gone back to an earlier time) are read again', () => {
    const telemetry = new Telemetry(columns);
    telemetry.append(rows(0, 3, { flipped: (t) => t >= 2 }));
    expect(describeOutcome({ model: drive, telemetry }, telemetry.rows - 1).kind).toBe('fail');
    telemetry.append(rows(1, 3));  // the same times again, now upright
    expect(describeOutcome({ model: drive, telemetry }, telemetry.rows - 1).kind).toBe('ok');
  });

  test('a coarsened store keeps what was found', () => {
    const telemetry = new Telemetry(columns, { maxRows: 300 });
    const phase = (t) => (t >= 1.5 ? 2 : 0);
    telemetry.append(rows(0, 2, { phase }));
    expect(describeOutcome({ model: climb, telemetry }, telemetry.rows - 1).text).toContain('t = 1.5 s');
    telemetry.append(rows(2.01, 5, { phase }));
    expect(telemetry.stride).toBeGreaterThan(1);
    expect(describeOutcome({ model: climb, telemetry }, telemetry.rows - 1).text).toContain('t = 1.5 s');
  });
});
