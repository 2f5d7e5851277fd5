// Comparing runs, the pure parts (web/src/runs/pinned_data.js, Telemetry.copy):
// the CSV of several runs in one table, the charts' joined time base, a
// pinned run's label from how its scenario differs, and the copy a pin keeps
// of a long run.
import { describe, expect, test } from 'vitest';

import { differences, joinTimes, pinLabel, runsCsvParts } from '../../web/src/runs/pinned_data.js';
import { SAMPLE_SECONDS, Telemetry } from '../../web/src/runs/telemetry.js';

/** Telemetry of `rows` rows from t = 0.01 every 10 ms, each column's value a function of (time, column index). */
function telemetryOf(columns, rows, value = (t, c) => t * 10 + c) {
  const tel = new Telemetry(columns);
  const data = new Float64Array(rows * columns.length);
  for (let r = 0; r < rows; r++) {
    const t = (r + 1) * SAMPLE_SECONDS;
    columns.forEach((_, c) => (data[r * columns.length + c] = c === 0 ? t : value(t, c)));
  }
  tel.append(data);
  return tel;
}

const csvOf = (runs, comments) => runsCsvParts(runs, comments).join('');

describe('runs as one CSV', () => {
  test('a run column first, the union of the columns, an empty cell where a run lacks a column', () => {
    const a = telemetryOf(['time_s', 'base_x_m', 'wheel_fl_normal_N'], 3);
    const b = telemetryOf(['time_s', 'base_x_m', 'wheel_rear_normal_N', 'joint_rad'], 2, (t, c) => -c - t);
    const text = csvOf(
      [
        { id: 'run 1', telemetry: a },
        { id: 'current', telemetry: b },
      ],
      ['Roverlab telemetry of 2 runs', 'run 1: wheel_radius = 0.25'],
    );
    expect(text.split('\n')).toEqual([
      '# Roverlab telemetry of 2 runs',
      '# run 1: wheel_radius = 0.25',
      'run,time_s,base_x_m,wheel_fl_normal_N,wheel_rear_normal_N,joint_rad',
      'run 1,0.01,1.1,2.1,,',
      'run 1,0.02,1.2,2.2,,',
      'run 1,0.03,1.3,2.3,,',
      'current,0.01,-1.01,,-2.01,-3.01',
      'current,0.02,-1.02,,-2.02,-3.02',
      '',
    ]);
  });

  test('a long run comes in parts of whole lines, the same text as one string', () => {
    const long = telemetryOf(['time_s', 'v_m'], 10_000);
    const parts = runsCsvParts([{ id: 'run 1', telemetry: long }], ['x']);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.endsWith('\n')).toBe(true);
    const lines = parts.join('').trim().split('\n');
    expect(lines).toHaveLength(2 + 10_000);
    expect(lines.at(-1)).toBe('run 1,100,1001');
  });

  test('a run without rows leaves the header; commas and line breaks in comments and ids do not break the table', () => {
    const empty = new Telemetry(['time_s', 'a_m']);
    expect(csvOf([{ id: 'run, 1', telemetry: empty }], ['two\nlines'])).toBe('# two lines\nrun,time_s,a_m\n');
    const one = telemetryOf(['time_s', 'a_m'], 1);
    expect(csvOf([{ id: 'run, "1"', telemetry: one }]).split('\n')[1]).toBe('run   1 ,0.01,1.1');
  });
});

describe('the charts’ joined time base', () => {
  test('every time of any run once, ascending; each run’s points at their slots', () => {
    const current = [0.01, 0.02, 0.03];
    const pinned = [0.02, 0.04, 0.06, 0.08];  // a coarser, longer run
    const { x, slots } = joinTimes([current, pinned]);
    expect(x).toEqual([0.01, 0.02, 0.03, 0.04, 0.06, 0.08]);
    expect([...slots[0]]).toEqual([0, 1, 2]);
    expect([...slots[1]]).toEqual([1, 3, 4, 5]);
  });

  test('times a rounding apart are one time (the first run’s)', () => {
    const { x, slots } = joinTimes([[0.1, 0.2], [0.1 + 1e-12, 0.30000000000000004]]);
    expect(x).toEqual([0.1, 0.2, 0.30000000000000004]);
    expect([...slots[1]]).toEqual([0, 2]);
  });
});

describe('a pinned run’s label', () => {
  const flat = {
    name: 'rocker8 on flat ground',
    terrain: { materials: { asphalt: { phi_max: 0.8 } }, boxes: [{ centre: [10, 0, -0.5], size: [40, 8, 1] }] },
    robot: { preset: 'rocker8', pose: { position: [0, 0] } },
    control: { wheel_speed: 2 },
    simulation: { duration: 5 },
  };
  const withChange = (change) => {
    const s = structuredClone(flat);
    change(s);
    return s;
  };
  const defaults = { rocker8: { wheel_radius: 0.25 } };
  const defaultOf = (preset, name) => defaults[preset]?.[name];

  test('the same scenario', () => {
    expect(pinLabel(1, differences(flat, structuredClone(flat), defaultOf))).toBe('run 1: same scenario');
  });

  test('a parameter left at its default, named with the default’s value', () => {
    const now = withChange((s) => (s.robot.params = { wheel_radius: 0.3 }));
    expect(pinLabel(1, differences(flat, now, defaultOf))).toBe('run 1: wheel_radius = 0.25');
    expect(pinLabel(2, differences(now, flat, defaultOf))).toBe('run 2: wheel_radius = 0.3');
  });

  test('control, simulation, ground material and terrain; more than three counted', () => {
    const now = withChange((s) => {
      s.control.wheel_speed = 3;
      s.simulation.dt = 0.001;
      s.terrain.materials.asphalt.phi_max = 0.5;
      s.terrain.boxes.push({ centre: [3, 0, 0.1], size: [0.2, 8, 0.2] });
    });
    expect(differences(flat, now, defaultOf)).toEqual(['wheel_speed = 2', 'dt = default', 'phi_max = 0.8', 'other terrain']);
    expect(pinLabel(3, differences(flat, now, defaultOf))).toBe('run 3: wheel_speed = 2, dt = default, phi_max = 0.8 +1 more');
  });

  test('another scenario or robot is named as such', () => {
    expect(differences(flat, withChange((s) => (s.name = 'stairs')))).toEqual(['rocker8 on flat ground']);
    expect(differences(flat, withChange((s) => (s.robot = { preset: 'articulated6' })))).toEqual(['robot rocker8']);
  });
});

describe('the copy a pin keeps', () => {
  test('a short run: every row, in a store of its size', () => {
    const tel = telemetryOf(['time_s', 'a_m', 'b_N'], 250);
    const copy = tel.copy();
    expect(copy.rows).toBe(250);
    expect(copy.stride).toBe(1);
    expect(copy.data.length).toBe(250 * 3);
    expect(copy.data).toEqual(tel.data.subarray(0, 750));
    expect(copy.data.buffer).not.toBe(tel.data.buffer);
    tel.append(new Float64Array([2.51, 0, 0]));
    expect(copy.rows).toBe(250);  // the run goes on, the copy does not
  });

  test('a very long run (100 000 rows) keeps at most maxRows rows, every 2^k-th, on the times of its stride', () => {
    const tel = telemetryOf(['time_s', 'a_m'], 100_000);
    const copy = tel.copy(30_000);
    expect(copy.stride).toBe(4);
    expect(copy.interval).toBeCloseTo(0.04, 12);
    expect(copy.rows).toBe(25_000);
    for (let r = 0; r < copy.rows; r += 997) {
      expect(Math.round(copy.value(r, 0) / SAMPLE_SECONDS) % 4).toBe(0);
      expect(copy.value(r, 1)).toBeCloseTo(copy.value(r, 0) * 10 + 1, 9);
    }
    expect(copy.value(copy.rows - 1, 0)).toBeCloseTo(1000, 9);
    // Read back as stored (pinned_store.js: its columns, rows and stride).
    const back = Telemetry.of(copy.columns, copy.data, copy.stride);
    expect([back.rows, back.stride, back.rowAt(500)]).toEqual([25_000, 4, copy.rowAt(500)]);
  });
});
