// Names and header lines of the files the app exports (telemetry CSV, plot
// PNG): roverlab-<scenario>-<YYYYmmdd-HHMMSS>.<ext> in local wall time, and
// the CSV's "#" lines describing the run. Pure functions (tests/js/plots.test.mjs).

/** A scenario name as a file-name part: lower case, runs of other characters as one "-". */
export function slug(name) {
  return (
    String(name ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'scenario'
  );
}

/** YYYYmmdd-HHMMSS of a date in local time. */
export function stamp(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** roverlab-<scenario>-t<time>s.ext: a picture of the view at simulated time t (s), or from t to `to`. */
export function viewName(scenarioName, t, ext, to = null) {
  return `roverlab-${slug(scenarioName)}-t${t.toFixed(3)}s${to === null ? '' : `-to-${to.toFixed(3)}s`}.${ext}`;
}

/** roverlab-<what->scenario-YYYYmmdd-HHMMSS.ext */
export function exportName(scenarioName, date, ext, what = '') {
  return `roverlab-${what ? `${what}-` : ''}${slug(scenarioName)}-${stamp(date)}.${ext}`;
}

/** A time for the header: to the millisecond, without the float's tail (700, not 700.0000000187). */
const seconds = (t) => String(Number(t.toFixed(3)));

/**
 * The CSV's comment lines: the app and its version, the scenario's name, its
 * robot (its name; its preset, parameters and pose, or its description), control and simulation (dt, duration)
 * blocks as JSON, the rows' count, interval and time range, and when they were exported.
 */
export function csvComments({ scenario, model, telemetry, version, date }) {
  const json = (v) => JSON.stringify(v ?? {});
  const rows = telemetry.rows;
  const first = rows ? telemetry.value(0, 0) : 0;
  const last = rows ? telemetry.value(rows - 1, 0) : 0;
  return [
    `Roverlab ${version} telemetry`,
    `scenario: ${scenario?.name ?? model.name ?? ''}`,
    `robot name: ${model.robot} (${model.preset ? 'a preset' : `its description, robot.${model.source}`})`,
    `robot: ${json(scenario?.robot)}`,
    `control: ${json(scenario?.control)}`,
    `simulation: ${json(scenario?.simulation)}`,
    `dt_s: ${model.dt}`,
    `duration_s: ${model.duration ?? 'none'}`,
    `rows: ${rows}, one every ${Math.round((telemetry.interval ?? 0.01) * 1000)} ms, time_s ${seconds(first)} to ${seconds(last)}`,
    `exported: ${date.toISOString()}`,
    'numbers: 6 significant digits, integers as they are',
  ];
}
