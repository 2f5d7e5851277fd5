// What a run came to, in words, at a time on show: whether the scenario's goal
// was met (the step-climb controller: on top of the step, at the time it got
// there), whether the robot lies on its back, left the terrain or blew up, and
// otherwise how far it drove. Read from the telemetry rows up to that time, so
// a scrubbed time says what had happened by then. The CLI's summary says the
// same things as fields (outcome, flipped_at_s, phase).

/** Flipped over: the base's up axis more than 30° below the horizontal (core/sim/tilt.h). */
export function flippedAt(telemetry, row) {
  const { columns } = telemetry;
  const pitch = columns.indexOf('base_pitch_rad');
  const roll = columns.indexOf('base_roll_rad');
  const down = columns.indexOf('base_upside_down');
  if (pitch < 0 || roll < 0 || down < 0) return false;
  const up2 = 1 - Math.sin(telemetry.value(row, pitch)) ** 2 - Math.sin(telemetry.value(row, roll)) ** 2;
  return telemetry.value(row, down) === 1 && up2 > 0.25;
}

const seconds = (t) => `${t.toFixed(t < 100 ? 1 : 0)} s`;

// What the rows say so far, per telemetry (scanned once, then only the rows
// added since): the flipped-over streaks as [start, end] times and the time
// the climb controller first reached 'done'. Rows dropped from the end (a
// reset, a run gone back) start the scan again; coarsening keeps each kept
// row's time, so what was found stays true.
const scans = new WeakMap();

function scanned(telemetry, phase, done, row) {
  let scan = scans.get(telemetry);
  if (!scan || scan.drops !== telemetry.drops || scan.phase !== phase) {
    scan = { drops: telemetry.drops, phase, through: -Infinity, flips: [], doneAt: null };
    scans.set(telemetry, scan);
  }
  const time = (r) => telemetry.value(r, 0);
  if (row < 0 || time(row) <= scan.through) return scan;
  for (let r = telemetry.rowAt(scan.through) + 1; r <= row; r++) {
    const t = time(r);
    const last = scan.flips.at(-1);
    if (flippedAt(telemetry, r)) {
      if (last && last.end === scan.through) last.end = t;
      else scan.flips.push({ start: t, end: t });
    }
    if (scan.doneAt === null && phase >= 0 && telemetry.value(r, phase) === done) scan.doneAt = t;
    scan.through = t;
  }
  return scan;
}

/**
 * The outcome at telemetry row `row` (the time on show): { text, kind }, kind
 * 'goal' (the goal met), 'fail' (on its back, left the terrain, blew up) or
 * 'ok'. `stopped` is the run's end if it stopped by then: { outcome, message }
 * ('left_terrain' or 'blew_up', the core's message; 'program_error', the controller program's).
 */
export function describeOutcome({ model, telemetry }, row, stopped = null) {
  if (!telemetry?.rows || row < 0) return { text: '', kind: 'ok' };
  const { columns } = telemetry;
  const at = telemetry.value(row, 0);
  if (stopped?.outcome === 'left_terrain') return { text: `left the terrain (${stopped.message})`, kind: 'fail' };
  if (stopped?.outcome === 'blew_up') return { text: `the simulation blew up (${stopped.message})`, kind: 'fail' };
  if (stopped?.outcome === 'program_error') return { text: `the controller program stopped the run (${stopped.message})`, kind: 'fail' };
  const climbing = model.controller === 'step-climb' && model.phaseColumn ? columns.indexOf(model.phaseColumn) : -1;
  const done = model.phases?.indexOf('done') ?? -1;
  const scan = scanned(telemetry, climbing, done, row);
  const streak = scan.flips.find((f) => f.start <= at && at <= f.end);
  if (streak) return { text: `on its back since t = ${seconds(streak.start)}`, kind: 'fail' };
  if (climbing >= 0) {
    if (scan.doneAt !== null && scan.doneAt <= at) return { text: `climbed: on top of the step at t = ${seconds(scan.doneAt)}`, kind: 'goal' };
    return { text: `not on top of the step yet (phase: ${model.phases[telemetry.value(row, climbing)] ?? '?'})`, kind: 'ok' };
  }
  const x = columns.indexOf('base_x_m');
  const y = columns.indexOf('base_y_m');
  if (x < 0 || y < 0) return { text: 'ok', kind: 'ok' };
  const moved = Math.hypot(telemetry.value(row, x) - telemetry.value(0, x), telemetry.value(row, y) - telemetry.value(0, y));
  return { text: `ok: drove ${moved.toFixed(2)} m`, kind: 'ok' };
}
