// The status over the view: the controller's phase and a warning when the
// robot nears tipping over or has flipped over (base tilted more than 120°),
// from the telemetry row of the time on show (the newest, or the scrubbed one). Pitch and roll are the core's tilt angles
// (docs/dynamics.md): past 90° they keep growing to 180° instead of wrapping.

const TIP_PITCH = (70 * Math.PI) / 180;  // rad: a section steeper than this is close to going over
const TIP_ROLL = (25 * Math.PI) / 180;   // rad

/** Shows the status of a telemetry row (the time on show); records phase, tipping and flipped in the state. */
export function showStatus(state, $, last) {
  const { telemetry } = state;
  const { columns } = telemetry;
  const at = (name) => telemetry.value(last, columns.indexOf(name));
  const lines = [];
  const phase = state.model.phaseColumn ? columns.indexOf(state.model.phaseColumn) : -1;
  if (phase >= 0) {
    const name = state.model.phases[telemetry.value(last, phase)] ?? '?';
    lines.push(`${state.model.controller}: ${$('controller').checked ? name : `off (operator mode; was ${name})`}`);
    state.phase = name;
  }
  const pitches = columns.filter((c) => c.endsWith('_pitch_rad')).map((c) => at(c));
  const pitch = Math.max(...pitches.map(Math.abs));
  const roll = Math.abs(at('base_roll_rad'));
  const deg = (r) => `${Math.round((r * 180) / Math.PI)}°`;
  // Flipped over: the base's up axis more than 30° below the horizontal
  // (z_b·ẑ < −1/2, core/sim/tilt.h); upside down, z_b·ẑ = −√(1 − sin²pitch − sin²roll).
  const basePitch = at('base_pitch_rad');
  const up2 = 1 - Math.sin(basePitch) ** 2 - Math.sin(at('base_roll_rad')) ** 2;
  const flipped = at('base_upside_down') === 1 && up2 > 0.25;
  const tipping = !flipped && (pitch > TIP_PITCH || roll > TIP_ROLL);
  if (flipped) lines.push(`⚠ flipped over: upside down (pitch ${deg(pitch)}, roll ${deg(roll)})`);
  else if (tipping) lines.push(`⚠ near tipping over: pitch ${deg(pitch)}, roll ${deg(roll)}`);
  state.tipping = tipping;
  state.flipped = flipped;
  $('phase').textContent = lines.join('\n');
  $('phase').classList.toggle('warn', tipping || flipped);
}
