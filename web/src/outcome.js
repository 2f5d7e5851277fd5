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

/**
 * The outcome at telemetry row `row` (the time on show): { text, kind }, kind
 * 'goal' (the goal met), 'fail' (on its back, left the terrain, blew up) or
 * 'ok'. `stopped` is the run's end if it stopped by then: { outcome, message }
 * ('left_terrain' or 'blew_up', the core's message).
 */
export function describeOutcome({ model, telemetry }, row, stopped = null) {
  if (!telemetry?.rows || row < 0) return { text: '', kind: 'ok' };
  const { columns } = telemetry;
  const time = (r) => telemetry.value(r, 0);
  if (stopped?.outcome === 'left_terrain') return { text: `left the terrain (${stopped.message})`, kind: 'fail' };
  if (stopped?.outcome === 'blew_up') return { text: `the simulation blew up (${stopped.message})`, kind: 'fail' };
  let flipped = -1;
  for (let r = 0; r <= row && flipped < 0; r++) if (flippedAt(telemetry, r)) flipped = r;
  if (flipped >= 0 && flippedAt(telemetry, row)) return { text: `on its back since t = ${seconds(time(flipped))}`, kind: 'fail' };
  const phase = model.phaseColumn ? columns.indexOf(model.phaseColumn) : -1;
  if (model.controller === 'step-climb' && phase >= 0) {
    const done = model.phases.indexOf('done');
    for (let r = 0; r <= row; r++)
      if (telemetry.value(r, phase) === done) return { text: `climbed: on top of the step at t = ${seconds(time(r))}`, kind: 'goal' };
    return { text: `not on top of the step yet (phase: ${model.phases[telemetry.value(row, phase)] ?? '?'})`, kind: 'ok' };
  }
  const x = columns.indexOf('base_x_m');
  const y = columns.indexOf('base_y_m');
  if (x < 0 || y < 0) return { text: 'ok', kind: 'ok' };
  const moved = Math.hypot(telemetry.value(row, x) - telemetry.value(0, x), telemetry.value(row, y) - telemetry.value(0, y));
  return { text: `ok: drove ${moved.toFixed(2)} m`, kind: 'ok' };
}
