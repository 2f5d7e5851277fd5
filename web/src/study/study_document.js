// The study document the Study tab edits (docs/study-format.md): made from
// the scenario on show, changed field by field by the tab's form, and read
// back into the form. The core is the judge of a document
// (core.parseStudy: every problem with its path); these functions only build
// it. Also the parameters offered for a scenario (its robot preset's
// parameters with unit and range, its boxes' sizes and centres, its
// materials' friction limit, the wheel speed, the duration) and the
// measures a row has. Pure functions (tests/browser/study.test.mjs uses them
// on the page's data).

export const STUDY_FORMAT = 'roverlab-study';
export const STUDY_VERSION = 1;

/** The measures of a row (docs/study-format.md, "Results"), with their units. */
export const MEASURES = [
  { key: 'base_x_m', label: 'base x at the end', unit: 'm' },
  { key: 'base_z_m', label: 'base z at the end', unit: 'm' },
  { key: 'max_pitch_rad', label: 'largest |pitch|', unit: 'rad' },
  { key: 'drive_energy_J', label: 'drive energy', unit: 'J' },
  { key: 'peak_wheel_torque_Nm', label: 'peak wheel torque', unit: 'N·m' },
  { key: 'mean_slip', label: 'mean slip', unit: '-' },
  { key: 'wall_s', label: 'wall time of the run', unit: 's' },
];

/** The predicate tests the form offers; flipped is built in (asked of every run). */
export const PREDICATE_TESTS = [
  { test: 'base_x_past', label: 'the base ends past x =', unit: 'm' },
  { test: 'base_z_above', label: 'the base ends above z =', unit: 'm' },
  { test: 'reached_x', label: 'the base reaches x =', unit: 'm' },
  { test: 'flipped', label: 'the robot flipped over (built in)', unit: '' },
];

const AXES = ['x', 'y', 'z'];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A study's parameters as a list (a document from elsewhere may hold anything there: the core says what is wrong). */
export const parametersOf = (study) => (Array.isArray(study?.parameters) ? study.parameters : []);
const SIZES = ['length', 'width', 'height'];

/** "terrain.boxes[1].size[2]" as ['terrain', 'boxes', 1, 'size', 2], or null when it is not a path. */
export function parsePath(path) {
  if (typeof path !== 'string' || !path) return null;
  const tokens = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return null;
    tokens.push(m[1]);
    for (const [, i] of m[2].matchAll(/\[(\d+)\]/g)) tokens.push(Number(i));
  }
  return tokens;
}

/** The value at a path of a scenario (undefined when there is none). */
export function valueAt(object, path) {
  const tokens = parsePath(path);
  if (!tokens) return undefined;
  let v = object;
  for (const t of tokens) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[t];
  }
  return v;
}

/**
 * The numeric paths offered for a scenario: { path, label, unit, min, max, value }, in
 * this order: the robot preset's parameters (unit and range from `presets`), control.wheel_speed,
 * each material's phi_max, each box's size and centre, simulation.duration.
 */
export function parameterSuggestions(scenario, presets = []) {
  const out = [];
  const preset = presets.find((p) => p.preset === scenario?.robot?.preset);
  for (const p of preset?.params ?? [])
    out.push({ path: `robot.params.${p.name}`, label: p.description ?? p.name, unit: p.unit, min: p.min, max: p.max, value: scenario.robot.params?.[p.name] ?? p.value });
  if (scenario?.control && typeof scenario.control === 'object')
    out.push({ path: 'control.wheel_speed', label: 'wheel speed command', unit: 'rad/s', min: null, max: null, value: scenario.control.wheel_speed ?? null });
  for (const [name, m] of Object.entries(scenario?.terrain?.materials ?? {}))
    out.push({ path: `terrain.materials.${name}.phi_max`, label: `friction limit of ${name}`, unit: '-', min: 0, max: null, value: m?.phi_max ?? 0.8 });
  (scenario?.terrain?.boxes ?? []).forEach((box, i) => {
    SIZES.forEach((what, k) => out.push({ path: `terrain.boxes[${i}].size[${k}]`, label: `box ${i}: ${what}`, unit: 'm', min: 0, max: null, value: box?.size?.[k] ?? null }));
    AXES.forEach((axis, k) => out.push({ path: `terrain.boxes[${i}].centre[${k}]`, label: `box ${i}: centre ${axis}`, unit: 'm', min: null, max: null, value: box?.centre?.[k] ?? null }));
  });
  out.push({ path: 'simulation.duration', label: 'duration of each run', unit: 's', min: 0, max: null, value: scenario?.simulation?.duration ?? 10 });
  return out;
}

const round = (v) => Number(Number(v).toPrecision(6));

/** From and to around a suggestion's value (half to one and a half times it, within its range). */
export function defaultRange(s) {
  const v = Number.isFinite(s?.value) ? s.value : null;
  const lo = Number.isFinite(s?.min) ? s.min : -Infinity;
  const hi = Number.isFinite(s?.max) ? s.max : Infinity;
  let from = v === null || v === 0 ? (Number.isFinite(lo) ? lo : 0) : Math.min(v * 0.5, v * 1.5);
  let to = v === null || v === 0 ? (Number.isFinite(hi) ? hi : 1) : Math.max(v * 0.5, v * 1.5);
  from = Math.min(Math.max(from, lo), hi);
  to = Math.min(Math.max(to, lo), hi);
  if (!(to > from)) [from, to] = [Number.isFinite(lo) ? lo : from - 1, Number.isFinite(hi) ? hi : from + 1];
  return { from: round(from), to: round(to) };
}

/** terrain.boxes[i].size[2]: the link that keeps box i's bottom where it is (its centre z moves by half the change). */
export function bottomLink(scenario, path) {
  const m = /^terrain\.boxes\[(\d+)\]\.size\[2\]$/.exec(path ?? '');
  if (!m) return null;
  const box = scenario?.terrain?.boxes?.[Number(m[1])];
  const bottom = (box?.centre?.[2] ?? 0) - (box?.size?.[2] ?? 0) / 2;
  const link = { path: `terrain.boxes[${m[1]}].centre[2]`, scale: 0.5 };
  if (Math.abs(bottom) > 1e-12) link.offset = round(bottom);
  return [link];
}

/** The linked paths are the bottom link of a box height (the form's "keep its bottom" box). */
export const keepsBottom = (path, also) =>
  Array.isArray(also) && also.length === 1 && bottomLink(null, path)?.[0].path === also[0].path && also[0].scale === 0.5;

/** A new study of `scenario`: its wheel speed (or its first offered parameter) in 3 steps, and "climbed": 1 m on. */
export function newStudy(scenario, presets = []) {
  const suggestions = parameterSuggestions(scenario, presets);
  const first = suggestions.find((s) => s.path === 'control.wheel_speed') ?? suggestions[0];
  const start = Number(scenario?.robot?.pose?.position?.[0]) || 0;
  return {
    format: STUDY_FORMAT,
    version: STUDY_VERSION,
    name: `${scenario?.name ?? 'scenario'}: study`,
    scenario: structuredClone(scenario),
    parameters: first ? [{ path: first.path, ...defaultRange(first), steps: 3 }] : [],
    predicates: { climbed: { base_x_past: round(start + 1) } },
  };
}

/** The same study on another base scenario. */
export const withBase = (study, scenario) => ({ ...study, scenario: structuredClone(scenario) });

/** The duration of each run (the base scenario's simulation.duration, 10 s when it has none). */
export const durationOf = (study) => study?.scenario?.simulation?.duration ?? 10;

export function withDuration(study, seconds) {
  const scenario = structuredClone(study.scenario);
  scenario.simulation = { ...(scenario.simulation ?? {}), duration: seconds };
  return { ...study, scenario };
}

/** A number typed in a field, or null when it is none (the core then says what is wrong, at its path). */
export function numberOrNull(text) {
  if (String(text).trim() === '') return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

/** A list of values as typed: "0.2, 0.3" → [0.2, 0.3]; each item JSON when it is, else text. */
export function parseValues(text) {
  try {
    const list = JSON.parse(`[${text}]`);
    if (Array.isArray(list)) return list;
  } catch {
    // not one JSON list: item by item below
  }
  return String(text)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return JSON.parse(s);
      } catch {
        return s;
      }
    });
}

export const formatValues = (values) => (Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : '');

/** A parameter as the form shows it: { path, kind ('range', 'values', 'random'), from, to, steps, values (text), keepBottom }. */
export function parameterForm(p) {
  const kind = p?.random ? 'random' : Array.isArray(p?.values) ? 'values' : 'range';
  return {
    path: p?.path ?? '',
    kind,
    from: p?.from ?? null,
    to: p?.to ?? null,
    steps: p?.steps ?? null,
    values: formatValues(p?.values),
    random: p?.random ?? null,
    keepBottom: keepsBottom(p?.path, p?.also),
    also: p?.also,
  };
}

/** A parameter from its form (the base scenario gives a box's bottom link). */
export function parameterOf(form, scenario) {
  const p = { path: form.path };
  if (form.kind === 'values') p.values = parseValues(form.values);
  else if (form.kind === 'random') p.random = form.random;
  else Object.assign(p, { from: form.from, to: form.to, steps: form.steps });
  const link = bottomLink(scenario, form.path);
  if (link && form.keepBottom) p.also = link;
  else if (!link && form.also?.length) p.also = form.also;  // links made elsewhere are kept
  return p;
}

export function withParameter(study, index, form) {
  const parameters = [...parametersOf(study)];
  parameters[index] = parameterOf(form, study.scenario);
  return { ...study, parameters };
}

/** One more parameter: the first offered path that no parameter (nor the search) sets yet. */
export function addParameter(study, suggestions) {
  const taken = new Set([...parametersOf(study).map((p) => p?.path), study.threshold?.path]);
  const s = suggestions.find((x) => !taken.has(x.path)) ?? { path: '', value: null };
  const p = { path: s.path, ...defaultRange(s), steps: 3 };
  const link = bottomLink(study.scenario, s.path);
  if (link) p.also = link;
  return { ...study, parameters: [...parametersOf(study), p] };
}

export const removeParameter = (study, index) => ({ ...study, parameters: parametersOf(study).filter((_, i) => i !== index) });

const customPredicates = (study) => (isObject(study.predicates) ? Object.entries(study.predicates) : []);

/** The predicate the form edits (the study's first own one): { name, test, value, within }; test 'flipped' when it has none. */
export function predicateForm(study) {
  const [first] = customPredicates(study);
  if (!first) return { name: 'flipped', test: 'flipped', value: null, within: null };
  const [name, p] = first;
  const test = ['base_x_past', 'base_z_above', 'reached_x'].find((t) => isObject(p) && t in p) ?? 'base_x_past';
  return { name, test, value: p?.[test] ?? null, within: p?.within_s ?? null };
}

/** The predicate the study's results are drawn by: the search's, else the form's. */
export const drawnPredicate = (study) => (isObject(study.threshold) && typeof study.threshold.predicate === 'string' ? study.threshold.predicate : predicateForm(study).name);

/** The first own predicate replaced by the form's (or dropped for 'flipped'); the others kept, in order; the search follows it. */
export function withPredicate(study, form) {
  const entries = customPredicates(study);
  const old = entries[0]?.[0];
  const rest = entries.slice(1);
  const name = form.test === 'flipped' ? 'flipped' : form.name;
  const own = form.test === 'flipped' ? [] : [[name, { [form.test]: form.value, ...(form.test === 'reached_x' && form.within !== null ? { within_s: form.within } : {}) }]];
  const out = { ...study, predicates: Object.fromEntries([...own, ...rest]) };
  if (isObject(out.threshold) && (out.threshold.predicate === old || !old)) out.threshold = { ...out.threshold, predicate: name };
  return out;
}

/** The search as the form shows it: { path, from, to, tolerance, keepBottom }, or null. */
export function thresholdForm(study) {
  const t = study.threshold;
  if (!isObject(t)) return null;
  return { path: t.path ?? '', from: t.from ?? null, to: t.to ?? null, tolerance: t.tolerance ?? null, keepBottom: keepsBottom(t.path, t.also), also: t.also };
}

/** A threshold search set from its form (null: a grid study); it searches the predicate the results are drawn by. */
export function withThreshold(study, form) {
  const out = { ...study };
  if (!form) {
    delete out.threshold;
    return out;
  }
  const t = { path: form.path, from: form.from, to: form.to, tolerance: form.tolerance, predicate: study.threshold?.predicate ?? predicateForm(study).name };
  const link = bottomLink(study.scenario, form.path);
  if (link && form.keepBottom) t.also = link;
  else if (!link && form.also?.length) t.also = form.also;
  out.threshold = t;
  return out;
}

/** A search to start from: a box's height if the scenario has a second box (an obstacle), else the first offered path not varied. */
export function newThreshold(study, suggestions) {
  const taken = new Set(parametersOf(study).map((p) => p?.path));
  const s =
    suggestions.find((x) => /^terrain\.boxes\[[1-9]\d*\]\.size\[2\]$/.test(x.path) && !taken.has(x.path)) ??
    suggestions.find((x) => !taken.has(x.path)) ?? { path: '', value: null };
  const { from, to } = defaultRange(s);
  return { path: s.path, from, to, tolerance: round((to - from) / 64), keepBottom: true };
}

/** A share link's payload: the base scenario, and the study without it. */
export function linkPayload(study) {
  const { scenario, ...rest } = study;
  return { scenario, study: rest };
}

/** The study a link carries: its scenario is the link's. */
export const studyFromLink = (scenario, study) => ({ ...study, scenario });
