// The status over the view: the controller's phase, and the robot's tilt as
// a person reads it, from the telemetry rows up to the time on show (the
// newest, or the scrubbed one). Pitch and roll are the core's tilt angles
// (docs/dynamics.md): past 90° they keep growing to 180° instead of wrapping.
//
// A steep section is not by itself a robot about to go over: the step-climb
// controller rears articulated6's middle section past vertical on purpose,
// its wheels on the step and the ground holding it. So the status says
//   - "flipped over" once the base's up axis points more than 30° below the
//     horizontal (z_b·ẑ < −1/2, core/sim/tilt.h);
//   - "near tipping over" when the robot balances on an edge of its wheels'
//     footprint: the wheels carry its weight (most of it, not the body boxes:
//     no bounce or fall), the centre of their normal loads in the ground
//     plane lies at an edge of the convex hull of the wheel centres (the
//     wheels on the other side unloaded), the base tilts from upright, and
//     this has lasted HOLD_S (a wheel hop lasts less). On level ground that
//     centre is under the centre of mass; when it reaches the edge, the robot
//     turns about it;
//   - otherwise "steep but supported" with the angles, when a section pitches
//     more than 70° or the base rolls more than 25°.
import { upComponent } from '../plots/plot_quantities.js';

const STEEP_PITCH = (70 * Math.PI) / 180;  // rad: a section this steep is named in the status
const STEEP_ROLL = (25 * Math.PI) / 180;   // rad
const EDGE = 0.15;        // the load's centre this close to a footprint edge, as a share of the footprint's centre's distance to its nearest edge
const CARRIED = 0.6;      // the wheels carry at least this share of the robot's weight
const ON_BODY = 0.25;     // at most this share of the ground's load on the body boxes (the telemetry has no points for it)
const MIN_TILT = (15 * Math.PI) / 180;  // rad: the base tilted at least this far from upright
const HOLD_S = 0.15;      // s: the robot on an edge for this long
const G = 9.81;           // m/s²

/** Convex hull (counter-clockwise) of points [x, y] (Andrew's monotone chain). */
function hull(points) {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const h = [];
    for (const q of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], q) <= 0) h.pop();
      h.push(q);
    }
    h.pop();
    return h;
  };
  return [...half(p), ...half(p.reverse())];
}

/** Signed distance (m) of a point inside a counter-clockwise hull to its nearest edge (negative outside). */
function inside(h, [x, y]) {
  let d = Infinity;
  h.forEach((a, i) => {
    const b = h[(i + 1) % h.length];
    const ex = b[0] - a[0];
    const ey = b[1] - a[1];
    d = Math.min(d, (ex * (y - a[1]) - ey * (x - a[0])) / Math.hypot(ex, ey));
  });
  return d;
}

/** The columns the support test reads: each wheel's centre and load, the body boxes' loads; null without a footprint. */
function supportColumns(model, columns) {
  const wheels = model.wheels.map((w) => ['x_m', 'y_m', 'normal_N'].map((c) => columns.indexOf(`${w.name}_${c}`)));
  if (wheels.length < 3 || wheels.some((w) => w.includes(-1))) return null;
  const boxes = columns.flatMap((c, i) => (/^box_.*_normal_N$/.test(c) ? [i] : []));
  return { wheels, boxes, weight: model.mass * G };
}

/** The robot balances on an edge of its wheels' footprint at row i (see the top of the file). */
function onEdge(telemetry, i, support, tiltOf) {
  const at = (col) => telemetry.value(i, col);
  const points = support.wheels.map(([x, y]) => [at(x), at(y)]);
  const loads = support.wheels.map(([, , n]) => Math.max(0, at(n)));
  const carried = loads.reduce((a, b) => a + b, 0);
  const onBody = support.boxes.reduce((a, c) => a + Math.max(0, at(c)), 0);
  if (carried < CARRIED * support.weight || onBody > ON_BODY * (carried + onBody) || tiltOf(i) < MIN_TILT) return false;
  const h = hull(points);
  if (h.length < 3) return false;
  const load = [0, 1].map((k) => points.reduce((a, p, j) => a + loads[j] * p[k], 0) / carried);
  const middle = [0, 1].map((k) => points.reduce((a, p) => a + p[k], 0) / points.length);
  return inside(h, load) < EDGE * inside(h, middle);
}

/** Shows the status of a telemetry row (the time on show); records phase, tipping and flipped in the state. */
/** No status: a new run has none yet. */
export function clearStatus(state, $) {
  $('phase').textContent = '';
  $('phase').classList.remove('warn');
  state.phase = state.tipping = state.flipped = undefined;
}

export function showStatus(state, $, last) {
  const { telemetry, model } = state;
  const { columns } = telemetry;
  const at = (name) => telemetry.value(last, columns.indexOf(name));
  const lines = [];
  const phase = model.phaseColumn ? columns.indexOf(model.phaseColumn) : -1;
  if (phase >= 0) {
    const name = model.phases[telemetry.value(last, phase)] ?? '?';
    lines.push(`${model.controller}: ${state.controllerOn ? name : `off (operator mode; was ${name})`}`);
    state.phase = name;
  }
  const deg = (r) => `${Math.round((Math.abs(r) * 180) / Math.PI)}°`;
  const [pitchCol, rollCol, downCol] = ['base_pitch_rad', 'base_roll_rad', 'base_upside_down'].map((c) => columns.indexOf(c));
  const tiltOf = (i) => Math.acos(upComponent(telemetry.value(i, pitchCol), telemetry.value(i, rollCol), telemetry.value(i, downCol) === 1));
  const tilt = tiltOf(last);
  const flipped = Math.cos(tilt) < -0.5;
  // On an edge over the last HOLD_S: every row back to HOLD_S before the time on show.
  const support = supportColumns(model, columns);
  let tipping = !flipped && support !== null && last >= 0;
  for (let i = last; tipping && i >= 0 && telemetry.value(last, 0) - telemetry.value(i, 0) <= HOLD_S + 1e-9; i--)
    tipping = onEdge(telemetry, i, support, tiltOf);
  tipping &&= telemetry.value(last, 0) - telemetry.value(0, 0) >= HOLD_S - 1e-9;
  const pitch = at('base_pitch_rad');
  const roll = at('base_roll_rad');
  if (flipped) lines.push(`⚠ flipped over: upside down (pitch ${deg(pitch)}, roll ${deg(roll)})`);
  else if (tipping) lines.push(`⚠ near tipping over: its weight on the wheels of one edge, tilted ${deg(tilt)} from upright`);
  else {
    // Sections past STEEP_PITCH and a roll past STEEP_ROLL, named.
    const steep = columns
      .filter((c) => c.endsWith('_pitch_rad') && Math.abs(at(c)) > STEEP_PITCH)
      .map((c) => `${c.slice(0, -'_pitch_rad'.length).replace(/^section_(.*)/, '$1 section').replaceAll('_', ' ')} pitch ${deg(at(c))}`);
    // The roll as the left side's elevation, asin(y_b·ẑ): 0° for a base reared past vertical, where the core reads ±180°.
    const sideUp = Math.asin(Math.sin(roll));
    if (Math.abs(sideUp) > STEEP_ROLL) steep.push(`base roll ${deg(sideUp)}`);
    if (steep.length) lines.push(`steep but supported: ${steep.join(', ')}`);
  }
  state.tipping = tipping;
  state.flipped = flipped;
  $('phase').textContent = lines.join('\n');
  $('phase').classList.toggle('warn', tipping || flipped);
}
