// The plots' and exports' pure functions: tick steps and labels, legend
// values, the quantities read from telemetry column names, angles drawn
// continuous, CSV numbers and comment lines, export file names.
import { describe, expect, test } from 'vitest';

import { csvComments, exportName, slug, stamp } from '../../web/src/common/export_names.js';
import { formatTicks, formatValue, niceStep, ticks } from '../../web/src/plots/plot_format.js';
import { DEFAULT_KEYS, DEG, continuousAngles, quantities, unitOf, upComponent } from '../../web/src/plots/plot_quantities.js';
import { Telemetry, csvNumber } from '../../web/src/runs/telemetry.js';

describe('plot numbers', () => {
  test('nice steps and ticks', () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(0.7, 5)).toBeCloseTo(0.2, 12);
    expect(niceStep(2400, 4)).toBe(1000);
    expect(ticks(-0.05, 1.32, 4).map((v) => +v.toFixed(9))).toEqual([0, 0.5, 1]);
  });

  test('tick labels: one SI prefix per axis, the decimals the step needs', () => {
    expect(formatTicks([0, 500, 1000, 1500])).toEqual(['0', '0.5k', '1k', '1.5k']);
    expect(formatTicks([0, 2.5, 5, 7.5])).toEqual(['0', '2.5', '5', '7.5']);
    expect(formatTicks([-0.2, 0, 0.2, 0.4])).toEqual(['-0.2', '0', '0.2', '0.4']);
    expect(formatTicks([0, 20000, 40000])).toEqual(['0', '20k', '40k']);
    expect(formatTicks([0, 0.002, 0.004])).toEqual(['0', '2m', '4m']);
    expect(formatTicks([100, 120, 140])).toEqual(['100', '120', '140']);
    expect(formatTicks([null, 1, 2])).toEqual(['', '1', '2']);
  });

  test('legend values: about 4 significant digits', () => {
    expect(formatValue(0.0071103)).toBe('0.00711');
    expect(formatValue(312.456)).toBe('312.5');
    expect(formatValue(-1.7071)).toBe('-1.707');
    expect(formatValue(25431)).toBe('25.43k');
    expect(formatValue(3)).toBe('3');
    expect(formatValue(0.000099661)).toBe('9.97e-5');
    expect(formatValue(NaN)).toBe('–');
  });
});

describe('quantities from column names', () => {
  const columns = [
    'time_s', 'base_x_m', 'base_y_m', 'base_z_m', 'base_yaw_rad', 'base_pitch_rad', 'base_roll_rad', 'base_upside_down',
    'fold_front_rad', 'section_front_m', 'section_front_pitch_rad',
    'wheel_1_x_m', 'wheel_1_y_m', 'wheel_1_z_m', 'wheel_1_normal_N', 'wheel_1_tangential_N', 'wheel_1_slip',
    'wheel_10_x_m', 'wheel_10_y_m', 'wheel_10_z_m', 'wheel_10_normal_N', 'wheel_10_slip',
    'box_fold_front_normal_N', 'box_base_normal_N', 'fold_front_torque_Nm', 'wheel_1_torque_Nm', 'climb_phase',
  ];
  const list = quantities(columns, ['wheel_1', 'wheel_10']);
  const q = (key) => list.find((x) => x.key === key);
  const names = (key) => q(key).series.map((s) => s.name);

  test('units from the suffix; angles in degrees', () => {
    expect(unitOf('wheel_1_speed_rad_s')).toMatchObject({ unit: 'rad/s', scale: 1, stem: 'wheel_1_speed' });
    expect(unitOf('base_pitch_rad').scale).toBeCloseTo(180 / Math.PI, 12);
    expect(unitOf('fold_front_torque_Nm').unit).toBe('N·m');
    expect(unitOf('wheel_contacts').unit).toBe('');
  });

  test('groups: per-wheel and per-body quantities, pitch, joints by unit, torques as they come', () => {
    expect(names('wheel_normal_N')).toEqual(['wheel_1_normal_N', 'wheel_10_normal_N']);
    expect(q('wheel_normal_N').series.map((s) => s.label)).toEqual(['1', '10']);
    expect(names('wheel_slip')).toEqual(['wheel_1_slip', 'wheel_10_slip']);
    expect(names('box_normal_N')).toEqual(['box_fold_front_normal_N', 'box_base_normal_N']);
    expect(q('box_normal_N').series.map((s) => s.label)).toEqual(['fold front', 'base']);
    expect(names('pitch_rad')).toEqual(['base_pitch_rad', 'section_front_pitch_rad']);
    expect(names('base_tilt_rad')).toEqual(['base_pitch_rad', 'base_roll_rad', 'base_tilt_from_upright']);
    expect(names('joint_rad')).toEqual(['fold_front_rad']);
    expect(names('joint_m')).toEqual(['section_front_m']);
    expect(names('joint_Nm')).toEqual(['fold_front_torque_Nm']);
    expect(q('joint_Nm').title).toBe('Joint torques');
    expect(names('wheel_torque_Nm')).toEqual(['wheel_1_torque_Nm']);
    expect(names('base_position_m')).toEqual(['base_x_m', 'base_y_m', 'base_z_m']);
  });

  test('attitude series are marked for continuous drawing; the base\'s tilt from upright is computed', () => {
    expect(q('pitch_rad').series.map((s) => s.angle)).toEqual(['tilt', 'tilt']);
    expect(q('col:base_yaw_rad').series[0].angle).toBe('heading');
    expect(q('joint_rad').series[0].angle).toBeNull();
    const fromUpright = q('base_tilt_rad').series[2];
    // pitch 30°, roll 0, upright: 30° from upright; the same pitch upside down: 150°.
    const row = (upsideDown) => Object.assign(new Array(columns.length).fill(0), { 5: Math.PI / 6, 7: upsideDown });
    const telemetry = (r) => ({ value: (i, c) => r[c] });
    expect(fromUpright.value(telemetry(row(0)), 0) * DEG).toBeCloseTo(30, 9);
    expect(fromUpright.value(telemetry(row(1)), 0) * DEG).toBeCloseTo(150, 9);
  });

  test('the side view, every column alone, and the defaults', () => {
    expect(q('side_view').wheels.map((w) => [w.x, w.z])).toEqual([[11, 13], [17, 19]]);
    for (const name of columns.slice(1)) expect(q(`col:${name}`).series[0].name).toBe(name);
    expect(q('col:time_s')).toBeUndefined();
    expect(q('col:climb_phase').unit).toBe('');
    for (const key of DEFAULT_KEYS) expect(q(key), key).toBeDefined();
  });
});

describe('continuous angles', () => {
  test('a heading is unwrapped across ±180°', () => {
    expect(continuousAngles([170, 179, -178, -170], false)).toEqual([170, 179, 182, 190]);
  });

  test('a roll that reads ±180° while the base rears past vertical is drawn as its elevation', () => {
    // The core's roll: 0 upright, −180 + e while the forward axis is past vertical (upside down), then 0 again.
    expect(continuousAngles([1, 0.5, -179.5, -179, 180, 0.2], true)).toEqual([1, 0.5, -0.5, -1, 0, 0.2]);
  });

  test('a pitch passing vertical runs on past 90°; a real rollover stays continuous', () => {
    expect(continuousAngles([85, 89, 91, 93, 89], true)).toEqual([85, 89, 91, 93, 89]);
    expect(continuousAngles([100, 133, 159, 180, -179], true)).toEqual([100, 133, 159, 180, 181]);
    expect(upComponent(0, 0, false)).toBe(1);
    expect(upComponent(Math.PI, Math.PI, true)).toBeCloseTo(-1, 12);
  });
});

describe('CSV and export names', () => {
  test('numbers at 6 significant digits, integers as they are', () => {
    expect(csvNumber(0.1 + 0.2)).toBe('0.3');
    expect(csvNumber(1234.56789)).toBe('1234.57');
    expect(csvNumber(-0.000123456789)).toBe('-0.000123457');
    expect(csvNumber(42)).toBe('42');
    expect(csvNumber(1e-9)).toBe('1e-9');
    expect(csvNumber(NaN)).toBe('NaN');
  });

  test('comment lines first, then the header and the rows', () => {
    const t = new Telemetry(['time_s', 'x_m']);
    t.append(new Float64Array([0, 1 / 3, 0.01, 2]));
    const comments = csvComments({
      scenario: { name: 'flat', robot: { preset: 'wheel-rig', params: { wheel_radius: 0.2 } }, simulation: { dt: 0.001 } },
      model: { preset: 'wheel-rig', robot: 'wheel-rig', dt: 0.001, duration: null },
      telemetry: t,
      version: '1.2.3',
      date: new Date('2026-01-02T03:04:05Z'),
    });
    const lines = t.toCsv(comments).trim().split('\n');
    expect(lines).toEqual([
      '# Roverlab 1.2.3 telemetry',
      '# scenario: flat',
      '# robot name: wheel-rig (a preset)',
      '# robot: {"preset":"wheel-rig","params":{"wheel_radius":0.2}}',
      '# control: {}',
      '# simulation: {"dt":0.001}',
      '# dt_s: 0.001',
      '# duration_s: none',
      '# rows: 2, one every 10 ms, time_s 0 to 0.01',
      '# exported: 2026-01-02T03:04:05.000Z',
      '# numbers: 6 significant digits, integers as they are',
      'time_s,x_m',
      '0,0.333333',
      '0.01,2',
    ]);
  });

  test('file names from the scenario name and the wall time', () => {
    expect(slug('articulated6 climbs the 0.65 m step')).toBe('articulated6-climbs-the-0.65-m-step');
    expect(slug('  ')).toBe('scenario');
    const date = new Date(2026, 10, 24, 9, 5, 7);
    expect(stamp(date)).toBe('20261124-090507');
    expect(exportName('Flat rig', date, 'csv')).toBe('roverlab-flat-rig-20261124-090507.csv');
    expect(exportName('Flat rig', date, 'png', 'plots')).toBe('roverlab-plots-flat-rig-20261124-090507.png');
  });
});
