// What the comparison of runs computes, as pure functions
// (tests/js/pinned_runs.test.mjs): a pinned run's label from how its
// scenario differs from the one running now ("run 1: wheel_radius = 0.25"),
// one time base for the charts that joins the runs' own (each on the core's
// 10 ms grid), and the CSV of several runs in one table (a `run` column
// first, the union of their columns, an empty cell where a run lacks a
// column). The panel and the store are pinned_runs.js and pinned_store.js.
import { SAMPLE_SECONDS, csvNumber } from './telemetry.js';
import { robotName } from '../scenario/scenarios.js';

/** The most runs pinned at once. */
export const MAX_PINS = 8;
/** A pinned run's telemetry keeps at most this many bytes of rows (coarser beyond, as a full store). */
export const PIN_BYTES = 16 * 2 ** 20;
/** The pinned runs' colours (charts and trails): apart from the charts' palette and the view's purple trails. */
export const PIN_COLOURS = ['#2d333b', '#1f4e9c', '#a3472e', '#2e7d4f', '#8c2f8c', '#9a7a12', '#3a8fa0', '#6b4a2b'];
const LABEL_DIFFERENCES = 3;  // differences named in a label; the rest counted

/** The leaves of a plain object as path → value ('params.wheel_radius'; arrays are values). */
function leaves(object, prefix = '', out = new Map()) {
  for (const [key, value] of Object.entries(object ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) leaves(value, path, out);
    else out.set(path, value);
  }
  return out;
}

const shown = (v) => (v === undefined ? 'default' : typeof v === 'string' ? v : JSON.stringify(v));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * How the `pinned` scenario differs from the `current` one, each difference
 * as the pinned run's value: its name when it is another scenario, its robot
 * when another preset, else each robot parameter, pose, control, simulation
 * and ground-material field as "name = value" (a parameter left out has its
 * preset's default, `defaultOf(preset, name)`), and "other terrain" when the
 * terrain's pieces differ.
 */
export function differences(pinned, current, defaultOf = () => undefined) {
  if (!current) return [];
  const out = [];
  if (pinned.name !== current.name) out.push(pinned.name ?? 'unnamed scenario');
  if (robotName(pinned) !== robotName(current) || Boolean(pinned.robot?.preset) !== Boolean(current.robot?.preset)) out.push(`robot ${robotName(pinned)}`);
  if (out.length) return out;
  const blocks = [
    ['robot', pinned.robot, current.robot],
    ['control', pinned.control, current.control],
    ['simulation', pinned.simulation, current.simulation],
    ['materials', pinned.terrain?.materials, current.terrain?.materials],
  ];
  for (const [block, a, b] of blocks) {
    const [la, lb] = [leaves(a), leaves(b)];
    for (const path of new Set([...la.keys(), ...lb.keys()])) {
      const param = block === 'robot' && path.startsWith('params.') ? path.slice('params.'.length) : null;
      const value = (l) => (l.has(path) ? l.get(path) : param ? defaultOf(pinned.robot.preset, param) : undefined);
      const [va, vb] = [value(la), value(lb)];
      if (!same(va, vb)) out.push(`${path.split('.').pop()} = ${shown(va)}`);
    }
  }
  const pieces = (s) => ({ ...s.terrain, materials: undefined });
  if (!same(pieces(pinned), pieces(current))) out.push('other terrain');
  return out;
}

/** "run 2: wheel_radius = 0.25, other terrain", "run 1: same scenario". */
export function pinLabel(n, diffs) {
  if (!diffs.length) return `run ${n}: same scenario`;
  const more = diffs.length - LABEL_DIFFERENCES;
  return `run ${n}: ${diffs.slice(0, LABEL_DIFFERENCES).join(', ')}${more > 0 ? ` +${more} more` : ''}`;
}

/**
 * One time base for runs sampled on the core's 10 ms grid: `lists` are each
 * run's times (s, ascending). Returns { x, slots }: x, every time of any run
 * once, ascending (a time as the first list that has it gives it); slots[i][j],
 * the index in x of lists[i][j].
 */
export function joinTimes(lists) {
  const tick = (t) => Math.round(t / SAMPLE_SECONDS);
  const times = new Map();  // tick → time
  for (const list of lists) for (const t of list) if (!times.has(tick(t))) times.set(tick(t), t);
  const ticks = [...times.keys()].sort((a, b) => a - b);
  const index = new Map(ticks.map((k, i) => [k, i]));
  return { x: ticks.map((k) => times.get(k)), slots: lists.map((list) => Int32Array.from(list, (t) => index.get(tick(t)))) };
}

const LINES_PER_PART = 4096;

/**
 * Several runs as one CSV, in parts (strings to join or to put in a Blob: a
 * long run is tens of MB): `comments` as "# " lines, then a header line of
 * `run` and the union of the runs' columns (in the order they first appear),
 * then each run's rows, its `id` in the first cell and an empty cell for a
 * column it does not have. runs: [{ id, telemetry }] (telemetry.js).
 */
export function runsCsvParts(runs, comments = []) {
  const columns = [...new Set(runs.flatMap((r) => r.telemetry.columns))];
  const head = comments.map((c) => `# ${String(c).replaceAll('\n', ' ')}`);
  head.push(['run', ...columns].join(','));
  const parts = [head.join('\n') + '\n'];
  for (const { id, telemetry } of runs) {
    const at = columns.map((c) => telemetry.columns.indexOf(c));
    const cells = [String(id).replaceAll(/[,\n"]/g, ' '), ...at.map(() => '')];
    let lines = [];
    for (let r = 0; r < telemetry.rows; r++) {
      for (let j = 0; j < at.length; j++) cells[j + 1] = at[j] < 0 ? '' : csvNumber(telemetry.value(r, at[j]));
      lines.push(cells.join(','));
      if (lines.length === LINES_PER_PART) {
        parts.push(lines.join('\n') + '\n');
        lines = [];
      }
    }
    if (lines.length) parts.push(lines.join('\n') + '\n');
  }
  return parts;
}
