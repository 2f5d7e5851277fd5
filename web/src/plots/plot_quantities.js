// What the plots can show, read from the names of the telemetry columns
// alone (the core may add columns; nothing here lists them): the unit from
// the name's suffix (_N, _m, _rad, _rad_s, _Nm, ...; angles shown in
// degrees), and quantities that group the columns of one kind, e.g. every
// wheel's `wheel_<name>_normal_N` as one "wheel normal force" chart. Each
// column is also a quantity of its own. Attitude angles are drawn
// continuous (continuousAngles): yaw without its ±180° wrap, and pitch and
// roll, the core's tilt angles (docs/dynamics.md), without the jump of 180°
// where the body turns upside down with that axis horizontal; the base's
// chart also shows its tilt from upright. A controller program's plot values
// (`plot.NAME` columns) are charted together, one chart per unit. Pure
// functions (tests/js/plots.test.mjs).

export const DEG = 180 / Math.PI;

// Name suffix → unit shown and the factor to it (longest suffixes first).
const UNITS = [
  ['_rad_s', 'rad/s', 1],
  ['_m_s', 'm/s', 1],
  ['_Nm', 'N·m', 1],
  ['_rad', '°', DEG],
  ['_kg', 'kg', 1],
  ['_Hz', 'Hz', 1],
  ['_N', 'N', 1],
  ['_m', 'm', 1],
  ['_s', 's', 1],
  ['_W', 'W', 1],
  ['_J', 'J', 1],
];

// Words for a wheel's or a body's quantity (the part of the name before the unit).
const WORDS = {
  normal: 'normal force',
  tangential: 'tangential force',
  slip: 'slip',
  speed: 'spin speed',
  contacts: 'contacts',
  x: 'centre x',
  y: 'centre y',
  z: 'centre z',
  torque: 'torque',
};

// Titles of the columns of joints and sections, by unit.
const JOINT_TITLES = {
  _rad: 'Joint angles',
  _m: 'Joint positions',
  _Nm: 'Joint torques',
  _N: 'Joint forces',
  _rad_s: 'Joint speeds',
  _m_s: 'Joint speeds',
};

const ATTITUDE = ['pitch', 'roll', 'yaw'];

/** The columns of a controller program's plot values: `plot.NAME` (web/src/sim/sim_host.js). */
export const PLOT_PREFIX = 'plot.';

/** The charts shown until the user picks others ([GKS2025]'s figures first). */
export const DEFAULT_KEYS = ['pitch_rad', 'side_view', 'wheel_normal_N', 'wheel_tangential_N', 'wheel_slip', 'box_normal_N', 'base_tilt_rad'];

/** z_b·ẑ, the up component of a body's up axis (-1…1), from its tilt angles (rad) and
 * upside-down flag: |x_b·ẑ| = |sin pitch|, |y_b·ẑ| = |sin roll| and the three axes are orthonormal. */
export function upComponent(pitch, roll, upsideDown) {
  return (upsideDown ? -1 : 1) * Math.sqrt(Math.max(0, 1 - Math.sin(pitch) ** 2 - Math.sin(roll) ** 2));
}

/**
 * Angles in degrees made continuous in place, for drawing: a change of more
 * than 90° from one sample to the next is no motion (samples are 10 ms or a
 * few tens of ms apart) but a change of reading. A heading wraps at ±180°: it
 * is drawn unwrapped (±360°). A tilt angle (pitch or roll, `tilt`) also reads
 * ±180° − e instead of its axis's elevation e while the body is upside down,
 * which jumps by about 180° where the body turns over with that axis near the
 * horizontal (roll as the pitch passes vertical): there the other reading is
 * drawn, 180° − a, the elevation, for as long as it stays the continuous one.
 */
export function continuousAngles(values, tilt) {
  const near = (a, to) => a + 360 * Math.round((to - a) / 360);  // a ± 360°k nearest to `to`
  let previous = null;
  for (let i = 0; i < values.length; i++) {
    const a = values[i];
    if (!Number.isFinite(a)) continue;
    if (previous !== null) {
      let v = near(a, previous);
      if (tilt && Math.abs(v - previous) > 90) {
        const other = near(180 - a, previous);
        if (Math.abs(other - previous) < Math.abs(v - previous)) v = other;
      }
      values[i] = v;
    }
    previous = values[i];
  }
  return values;
}

/** 'tilt' for a pitch or roll column (tilt angles), 'heading' for a yaw, else null. */
function angleOf(name) {
  const m = /_(pitch|roll|yaw)_rad$/.exec(name);
  return m ? (m[1] === 'yaw' ? 'heading' : 'tilt') : null;
}

/** A column's unit: { suffix, unit, scale, stem } (stem: the name without the suffix). */
export function unitOf(name) {
  for (const [suffix, unit, scale] of UNITS)
    if (name.endsWith(suffix) && name.length > suffix.length) return { suffix, unit, scale, stem: name.slice(0, -suffix.length) };
  return { suffix: '', unit: '', scale: 1, stem: name };
}

const words = (s) => s.replaceAll('_', ' ');
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The quantities of a model's columns (columns[0] is the time), in the order
 * they first appear: groups, then every column alone. Each is
 * { key, title, unit, scale, series: [{ index, name, label, angle }] } (angle:
 * 'tilt', 'heading' or null; a series computed from several columns has
 * value(telemetry, row) instead of a column index); the side
 * view of the wheel centres, when the columns have them, is
 * { key: 'side_view', title, wheels: [{ label, x, y, z }] }.
 */
export function quantities(columns, wheelNames = []) {
  const groups = new Map();
  const add = (key, title, u, index, label) => {
    if (!groups.has(key)) groups.set(key, { key, title, unit: u.unit, scale: u.scale, series: [] });
    groups.get(key).series.push({ index, name: columns[index], label, angle: angleOf(columns[index]) });
  };
  const wheels = [...wheelNames].sort((a, b) => b.length - a.length);  // longest first: wheel_1 before wheel
  const wheelLabel = (w) => words(w.replace(/^wheel_/, ''));
  columns.forEach((name, index) => {
    if (index === 0) return;
    const u = unitOf(name);
    const { stem, suffix } = u;
    const wheel = wheels.find((w) => stem.startsWith(`${w}_`));
    const tokens = stem.split('_');
    const last = tokens[tokens.length - 1];
    if (name.startsWith(PLOT_PREFIX)) {
      // A controller program's plot values: one chart per unit (docs/controllers.md).
      add(`plot${suffix}`, 'Controller program', u, index, name.slice(PLOT_PREFIX.length));
    } else if (wheel) {
      const q = stem.slice(wheel.length + 1);
      add(`wheel_${q}${suffix}`, q === 'normal' ? 'Wheel load, normal force' : `Wheel ${WORDS[q] ?? words(q)}`, u, index, wheelLabel(wheel));
    } else if (stem.startsWith('box_') && tokens.length > 2) {
      add(`box_${last}${suffix}`, `Body contact ${WORDS[last] ?? words(last)}`, u, index, words(stem.slice(4, -last.length - 1)));
    } else if (suffix === '_rad' && ATTITUDE.includes(last) && tokens.length > 1) {
      const member = stem.slice(0, -last.length - 1);
      add(`${last}_rad`, capital(last), u, index, words(member));
      if (member === 'base' && last !== 'yaw') add('base_tilt_rad', 'Base roll, pitch, tilt', u, index, last);
    } else if (suffix === '_m' && tokens[0] === 'base' && ['x', 'y', 'z'].includes(last) && tokens.length === 2) {
      add('base_position_m', 'Base position', u, index, last);
    } else if (suffix && !stem.startsWith('base_')) {
      add(`joint${suffix}`, JOINT_TITLES[suffix] ?? `Other quantities in ${u.unit}`, u, index, words(stem));
    }
  });
  const tilt = groups.get('base_tilt_rad');
  const [pitch, roll, upsideDown] = ['base_pitch_rad', 'base_roll_rad', 'base_upside_down'].map((c) => columns.indexOf(c));
  if (tilt && pitch > 0 && roll > 0 && upsideDown > 0) {
    // The base's tilt from upright, acos(z_b·ẑ): 0° upright, 90° on its side, 180° on its back.
    const value = (telemetry, i) => Math.acos(upComponent(telemetry.value(i, pitch), telemetry.value(i, roll), telemetry.value(i, upsideDown) === 1));
    tilt.series.push({ index: -1, name: 'base_tilt_from_upright', label: 'from upright', angle: null, value });
  }
  const list = [...groups.values()];
  const side = sideView(columns, wheelNames);
  if (side) list.splice(Math.min(1, list.length), 0, side);
  for (const [index, name] of columns.entries()) {
    if (index === 0) continue;
    const u = unitOf(name);
    list.push({ key: `col:${name}`, title: name, unit: u.unit, scale: u.scale, series: [{ index, name, label: name, angle: angleOf(name) }], single: true });
  }
  return list;
}

/** The wheel centres' columns for the side view (x–z), or null without them. */
function sideView(columns, wheelNames) {
  const wheels = wheelNames
    .map((w) => ({ label: words(w.replace(/^wheel_/, '')), x: columns.indexOf(`${w}_x_m`), y: columns.indexOf(`${w}_y_m`), z: columns.indexOf(`${w}_z_m`) }))
    .filter((w) => w.x > 0 && w.z > 0);
  return wheels.length ? { key: 'side_view', title: 'Wheel centres, side view (x–z, m)', unit: '', scale: 1, wheels } : null;
}

/** A quantity's title with its unit: "Wheel slip", "Pitch (°)". */
export function titleWithUnit(q) {
  return q.unit ? `${q.title} (${q.unit})` : q.title;
}
