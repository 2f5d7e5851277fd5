// What the plots can show, read from the names of the telemetry columns
// alone (the core may add columns; nothing here lists them): the unit from
// the name's suffix (_N, _m, _rad, _rad_s, _Nm, ...; angles shown in
// degrees), and quantities that group the columns of one kind, e.g. every
// wheel's `wheel_<name>_normal_N` as one "wheel normal force" chart. Each
// column is also a quantity of its own. Pure functions (tests/js/plots.test.mjs).

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

/** The charts shown until the user picks others (seed 000's figures first). */
export const DEFAULT_KEYS = ['pitch_rad', 'side_view', 'wheel_normal_N', 'wheel_tangential_N', 'wheel_slip', 'box_normal_N', 'base_tilt_rad'];

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
 * { key, title, unit, scale, series: [{ index, name, label }] }; the side
 * view of the wheel centres, when the columns have them, is
 * { key: 'side_view', title, wheels: [{ label, x, y, z }] }.
 */
export function quantities(columns, wheelNames = []) {
  const groups = new Map();
  const add = (key, title, u, index, label) => {
    if (!groups.has(key)) groups.set(key, { key, title, unit: u.unit, scale: u.scale, series: [] });
    groups.get(key).series.push({ index, name: columns[index], label });
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
    if (wheel) {
      const q = stem.slice(wheel.length + 1);
      add(`wheel_${q}${suffix}`, q === 'normal' ? 'Wheel load, normal force' : `Wheel ${WORDS[q] ?? words(q)}`, u, index, wheelLabel(wheel));
    } else if (stem.startsWith('box_') && tokens.length > 2) {
      add(`box_${last}${suffix}`, `Body contact ${WORDS[last] ?? words(last)}`, u, index, words(stem.slice(4, -last.length - 1)));
    } else if (suffix === '_rad' && ATTITUDE.includes(last) && tokens.length > 1) {
      const member = stem.slice(0, -last.length - 1);
      add(`${last}_rad`, capital(last), u, index, words(member));
      if (member === 'base' && last !== 'yaw') add('base_tilt_rad', 'Base roll, pitch', u, index, last);
    } else if (suffix === '_m' && tokens[0] === 'base' && ['x', 'y', 'z'].includes(last) && tokens.length === 2) {
      add('base_position_m', 'Base position', u, index, last);
    } else if (suffix && !stem.startsWith('base_')) {
      add(`joint${suffix}`, JOINT_TITLES[suffix] ?? `Other quantities in ${u.unit}`, u, index, words(stem));
    }
  });
  const list = [...groups.values()];
  const side = sideView(columns, wheelNames);
  if (side) list.splice(Math.min(1, list.length), 0, side);
  for (const [index, name] of columns.entries()) {
    if (index === 0) continue;
    const u = unitOf(name);
    list.push({ key: `col:${name}`, title: name, unit: u.unit, scale: u.scale, series: [{ index, name, label: name }], single: true });
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
