// Terrain templates for the terrain editor: parametrised generators of a
// scenario's `terrain` (docs/scenario-format.md), as two rows of quads ([KJ2025]'s
// editor) and boxes, or as a heightmap with rocks. No DOM; the same
// module runs in the browser and in Node.
//
// Conventions shared by the generated templates:
//   - x forward, y left, z up; the rows start at ROW_START_X (behind x = 0) so
//     that a robot placed at the origin stands on them;
//   - the left row covers y ∈ [gap/2, gap/2 + row_width], the right row
//     y ∈ [−gap/2 − row_width, −gap/2]; every segment's near side runs from a
//     (smaller y) to b (larger y), so b − a = [0, row_width, 0] along the row;
//   - segment i + 1 starts at segment i's far side, computed exactly as the
//     core does (a' = m − (b − a)/2, b' = m + (b − a)/2), so the shared-point
//     check holds to the last bit.
//
// `rough-field` is a heightmap instead, also from ROW_START_X and centred on
// y = 0 (seeded fractal noise, fractal_noise.js), with rocks as convex hulls.
//
// `depression` and `slope` reproduce the 8-segment terrains of Kartashev &
// Jiang (2025), the rocker rover paper ([KJ2025]), exactly as in
// terrains/depression-rocker8.json and terrains/slope-rocker8.json.

import { fractalNoise, mulberry32 } from './fractal_noise.js';
import { basedOn } from '../scenario/based_on.js';
import { robotName } from '../scenario/scenarios.js';

export { mulberry32 };

/** x at which the generated quad rows begin (m). */
export const ROW_START_X = -1.5;

const DEG = Math.PI / 180;
const OBSTACLE_COLOR = '#b86b3c';

/** No negative zeros in the output (they would print as -0 and compare unequal to 0 in deep-equality checks). */
const nz = (v) => v + 0;

/**
 * One quad row. The first near side runs from [x0, y0, z0] to [x0, y1, z0];
 * `profile` lists the far midpoints' [x, z], one per segment.
 */
function quadRow(y0, y1, x0, z0, profile) {
  const row = [];
  let a = [nz(x0), nz(y0), nz(z0)];
  let b = [nz(x0), nz(y1), nz(z0)];
  const ym = nz(0.5 * (y0 + y1));
  for (const [x, z] of profile) {
    const m = [nz(x), ym, nz(z)];
    row.push({ a, b, m });
    const half = [0.5 * (b[0] - a[0]), 0.5 * (b[1] - a[1]), 0.5 * (b[2] - a[2])];
    a = [nz(m[0] - half[0]), nz(m[1] - half[1]), nz(m[2] - half[2])];
    b = [nz(m[0] + half[0]), nz(m[1] + half[1]), nz(m[2] + half[2])];
  }
  return row;
}

/** Both rows with the same profile (far midpoints [x, z]), starting at ROW_START_X, z = 0. */
function quadRows(v, profile, profileRight = profile) {
  const inner = v.gap / 2;
  const outer = inner + v.row_width;
  return {
    left: quadRow(inner, outer, ROW_START_X, 0, profile),
    right: quadRow(-outer, -inner, ROW_START_X, 0, profileRight),
  };
}

/** Far midpoints [x, z] of segments of about `length` m covering (from, to] at height z. */
function flatRun(from, to, z, length = 1) {
  const n = Math.max(1, Math.round((to - from) / length));
  const out = [];
  for (let i = 1; i <= n; i++) out.push([i === n ? to : from + ((to - from) * i) / n, z]);
  return out;
}

/** Total width of both rows with the gap: boxes across both rows use it. */
const spanWidth = (v) => 2 * v.row_width + v.gap;

/** A box across both rows from x = x0 to x1, from z = bottom up to z = top. */
function crossBox(v, x0, x1, bottom, top) {
  return {
    centre: [0.5 * (x0 + x1), 0, 0.5 * (bottom + top)],
    size: [x1 - x0, spanWidth(v), top - bottom],
    color: OBSTACLE_COLOR,
  };
}

const rowParams = [
  { key: 'row_width', label: 'Row width', unit: 'm', default: 1.6, min: 1.0, max: 3, step: 0.05 },
  { key: 'gap', label: 'Gap between rows', unit: 'm', default: 0, min: 0, max: 0.4, step: 0.01 },
];

const distanceParam = (def = 2.5) => ({
  key: 'distance', label: 'Distance to the feature', unit: 'm', default: def, min: 1.5, max: 10, step: 0.1,
});

// The two 8-segment rows of the paper's terrains: 1 m segments from x = 0,
// rows 1.6 m wide meeting at y = 0; `rightZ` lists the right row's far-midpoint heights.
function paperTerrain(rightZ) {
  const left = [];
  const right = [];
  for (let i = 0; i < 8; i++) {
    const x = i, zn = nz(i === 0 ? 0 : rightZ[i - 1]), zf = nz(rightZ[i]);
    left.push({ a: [x, 0, 0], b: [x, 1.6, 0], m: [x + 1, 0.8, 0] });
    right.push({ a: [x, -1.6, zn], b: [x, 0, zn], m: [x + 1, -0.8, zf] });
  }
  return {
    materials: { soil: { phi_max: 0.7, s0: 0.1, s1: 0.5, rolling: 0.05 } },
    base: -1.0,
    quads: { left, right, material: 'soil' },
  };
}

// ------------------------------------------------------------ rough field
// A heightmap of seeded fractal noise from x = ROW_START_X, centred on y = 0,
// with rocks: convex hulls scattered with their own seed beyond the first
// FIELD_CLEAR m (where the robot starts), each sunk a little into the ground.

/** Heights and rock points of the rough field are multiples of this (m): 0.1 mm keeps the files compact. */
export const HEIGHT_QUANTUM = 1e-4;
/** The most samples of the rough field: with 8 characters a height at most, its scenario stays within a share link (1 MiB of JSON). */
export const FIELD_MAX_SAMPLES = 100_000;
/** Length of the field (m) from its west edge kept free of rocks: the robot starts there. */
export const FIELD_CLEAR = 3;
const ROCK_GAP = 0.02;  // m between the footprints of two rocks (pieces may not overlap)
const ROCK_SINK = 0.2;  // of a rock's height, below the lowest ground under it
const ROCK_ATTEMPTS = 200;  // random spots tried for each rock
const FIELD_COLOR = '#7d7358';
const ROCK_COLOR = '#8b8378';
const SOIL = { phi_max: 0.7, s0: 0.12, s1: 0.5, rolling: 0.03 };

const QUANTUM_STEPS = Math.round(1 / HEIGHT_QUANTUM);
/** v rounded to HEIGHT_QUANTUM as the double nearest its decimal (short JSON), no negative zero. */
const onQuantum = (v) => Math.round(v * QUANTUM_STEPS) / QUANTUM_STEPS + 0;

/** Samples along x and y of a rough field: its size rounded to whole cells. */
function fieldSamples(v) {
  return { nx: Math.round(v.size_x / v.cell) + 1, ny: Math.round(v.size_y / v.cell) + 1 };
}

/** Lowest and highest sample of the cells under the plan-view box around `points` ([x, y, …]): the ground there lies between them. */
function groundUnder(field, points) {
  const { origin, cell, heights } = field;
  const ny = heights.length, nx = heights[0].length;
  const clamp = (k, n) => Math.min(n - 1, Math.max(0, k));
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const i0 = clamp(Math.floor((Math.min(...xs) - origin[0]) / cell), nx), i1 = clamp(Math.ceil((Math.max(...xs) - origin[0]) / cell), nx);
  const j0 = clamp(Math.floor((Math.min(...ys) - origin[1]) / cell), ny), j1 = clamp(Math.ceil((Math.max(...ys) - origin[1]) / cell), ny);
  let low = Infinity, high = -Infinity;
  for (let j = j0; j <= j1; j++)
    for (let i = i0; i <= i1; i++) {
      low = Math.min(low, heights[j][i]);
      high = Math.max(high, heights[j][i]);
    }
  return { low, high };
}

/**
 * The rocks of a rough field as hulls: v.rocks rocks of v.rock_min … v.rock_max
 * m across, at spots drawn with v.rock_seed where their footprints (circles of
 * half their size) keep ROCK_GAP from each other and from the field's edges,
 * beyond FIELD_CLEAR. A rock is an irregular dome (a base ring, a middle ring,
 * a top) with its base ROCK_SINK of its height below the lowest ground under
 * it (the samples of the cells under its plan-view box), and its top at least
 * half its height above the highest. Throws a TemplateError when a rock finds
 * no spot.
 */
function fieldRocks(v, field, extent) {
  const random = mulberry32(v.rock_seed);
  const placed = [];
  const hulls = [];
  // Where footprints may go: ROCK_GAP inside the field's edges, beyond FIELD_CLEAR.
  const [x0, x1, y0, y1] = [field.origin[0] + FIELD_CLEAR + ROCK_GAP, extent[0] - ROCK_GAP, field.origin[1] + ROCK_GAP, extent[1] - ROCK_GAP];
  for (let k = 0; k < v.rocks; k++) {
    const size = v.rock_min + (v.rock_max - v.rock_min) * random();
    const r = size / 2;
    let spot = null;
    for (let attempt = 0; attempt < ROCK_ATTEMPTS && !spot && x1 - x0 >= size && y1 - y0 >= size; attempt++) {
      const x = x0 + r + (x1 - x0 - size) * random();
      const y = y0 + r + (y1 - y0 - size) * random();
      if (placed.every((p) => Math.hypot(p.x - x, p.y - y) >= p.r + r + ROCK_GAP)) spot = { x, y, r };
    }
    if (!spot)
      throw new TemplateError([
        {
          key: 'rocks',
          message: `only ${k} of ${v.rocks} rocks of ${v.rock_min}–${v.rock_max} m find room on the field beyond its first ${FIELD_CLEAR} m (kept clear for the robot): choose fewer or smaller rocks, or a larger field`,
        },
      ]);
    placed.push(spot);
    // The shape, 12 points in the rock's own frame (x along its length), every one within r of its
    // axis: 6 around its base, 5 around its middle, 1 on top; heights as fractions of the rock's.
    const a = r, b = r * (0.6 + 0.4 * random());
    let height = size * (0.35 + 0.3 * random());
    const yaw = 2 * Math.PI * random();
    const local = [];
    for (let n = 0; n < 6; n++) {
      const t = (2 * Math.PI * (n + 0.3 * (random() - 0.5))) / 6;
      local.push([a * Math.cos(t), b * Math.sin(t), 0]);
    }
    for (let n = 0; n < 5; n++) {
      const t = (2 * Math.PI * (n + 0.5 + 0.3 * (random() - 0.5))) / 5;
      const s = 0.7 + 0.2 * random();
      local.push([s * a * Math.cos(t), s * b * Math.sin(t), 0.45 + 0.25 * random()]);
    }
    local.push([0.2 * a * (2 * random() - 1), 0.2 * b * (2 * random() - 1), 1]);
    const c = Math.cos(yaw), sn = Math.sin(yaw);
    const plan = local.map(([px, py, f]) => [onQuantum(spot.x + c * px - sn * py), onQuantum(spot.y + sn * px + c * py), f]);
    const ground = groundUnder(field, plan);
    const bottom = ground.low - ROCK_SINK * height;
    height = Math.max(height, ground.high + 0.5 * height - bottom);  // on a slope: it stands out uphill too
    hulls.push({ points: plan.map(([x, y, f]) => [x, y, onQuantum(bottom + f * height)]), color: ROCK_COLOR });
  }
  return hulls;
}

/** The rough field's terrain from resolved values: one heightmap and its rocks. */
function roughField(v) {
  const { nx, ny } = fieldSamples(v);
  const period = v.wavelength / v.cell;  // samples between the first layer's lattice points
  const octaves = Math.floor(Math.log2(period / 2)) + 1;  // down to bumps two cells long
  const heights = fractalNoise({ nx, ny, seed: v.seed, octaves, roughness: v.roughness, amplitude: v.amplitude, period, quantum: HEIGHT_QUANTUM });
  const field = { origin: [ROW_START_X, onQuantum((-(ny - 1) * v.cell) / 2)], cell: v.cell, heights, material: 'soil', color: FIELD_COLOR };
  const extent = [field.origin[0] + (nx - 1) * v.cell, field.origin[1] + (ny - 1) * v.cell];
  const hulls = fieldRocks(v, field, extent);
  return { terrain: { materials: { soil: { ...SOIL } }, heightmaps: [field], ...(hulls.length ? { hulls } : {}) } };
}

/** Parameter values a template refuses: `issues`, each { key, message }. */
export class TemplateError extends Error {
  constructor(issues) {
    super(issues.map((i) => `${i.key}: ${i.message}`).join('; '));
    this.name = 'TemplateError';
    this.issues = issues;
  }
}

/** A template from its definition: build(values) resolves the values, refuses
 * combinations that `check` names, then calls make. */
function define({ make, check = () => [], ...template }) {
  return {
    ...template,
    check: (values) => check(resolve(template.params, values)),
    build: (values) => {
      const v = resolve(template.params, values);
      const issues = check(v);
      if (issues.length) throw new TemplateError(issues);
      return make(v);
    },
  };
}

/**
 * Every template: { id, name, description, params: [{ key, label, unit,
 * default, min, max, step }], start: [x, y] (where the robot goes: the
 * origin, or the terrain file's pose for the paper's terrains),
 * check(values) → [{ key, message }] (values in range that do not go
 * together), build(values) → { terrain, track1? } (throws a TemplateError
 * for what check names, or when the values cannot be built, e.g. rocks
 * that find no room) }. Angles are in degrees.
 */
export const TEMPLATES = [
  define({
    id: 'flat',
    name: 'Flat',
    description: 'Two rows of flat quads at z = 0.',
    params: [
      { key: 'segments', label: 'Segments per row', unit: '', default: 10, min: 6, max: 60, step: 1 },
      { key: 'segment_length', label: 'Segment length', unit: 'm', default: 1, min: 0.5, max: 4, step: 0.1 },
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const profile = [];
      for (let i = 1; i <= v.segments; i++) profile.push([ROW_START_X + i * v.segment_length, 0]);
      return { terrain: { quads: quadRows(v, profile) } };
    },
  }),
  define({
    id: 'step',
    name: 'Step',
    description: 'Flat quad rows up to a step of height h (a box across both rows) with a flat top.',
    params: [
      { key: 'height', label: 'Step height', unit: 'm', default: 0.3, min: 0.02, max: 1, step: 0.01 },
      distanceParam(),
      { key: 'top', label: 'Top length', unit: 'm', default: 3, min: 0.5, max: 10, step: 0.1 },
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const base = -1;
      return {
        terrain: {
          base,
          quads: quadRows(v, flatRun(ROW_START_X, v.distance, 0)),
          boxes: [crossBox(v, v.distance, v.distance + v.top, base, v.height)],
        },
      };
    },
  }),
  define({
    id: 'stairs',
    name: 'Stairs',
    description: 'Flat approach quads, then n steps of height h and depth d (boxes) and a landing.',
    params: [
      { key: 'steps', label: 'Steps', unit: '', default: 4, min: 1, max: 12, step: 1 },
      { key: 'height', label: 'Step height', unit: 'm', default: 0.12, min: 0.02, max: 0.4, step: 0.01 },
      { key: 'depth', label: 'Step depth', unit: 'm', default: 0.4, min: 0.2, max: 2, step: 0.05 },
      distanceParam(),
      { key: 'top', label: 'Landing length', unit: 'm', default: 2, min: 0.5, max: 10, step: 0.1 },
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const base = -1;
      const boxes = [];
      for (let k = 1; k <= v.steps; k++) {
        const x0 = v.distance + (k - 1) * v.depth;
        const x1 = v.distance + k * v.depth + (k === v.steps ? v.top : 0);
        boxes.push(crossBox(v, x0, x1, base, k * v.height));
      }
      return { terrain: { base, quads: quadRows(v, flatRun(ROW_START_X, v.distance, 0)), boxes } };
    },
  }),
  define({
    id: 'ditch',
    name: 'Ditch',
    description: 'Quad rows that slope down into a ditch (flat bottom of the given width) and back up.',
    params: [
      { key: 'depth', label: 'Depth', unit: 'm', default: 0.3, min: 0.05, max: 1, step: 0.01 },
      { key: 'width', label: 'Bottom width', unit: 'm', default: 1, min: 0.1, max: 4, step: 0.05 },
      { key: 'slope', label: 'Side slope', unit: '°', default: 45, min: 5, max: 85, step: 1 },
      distanceParam(),
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const run = v.depth / Math.tan(v.slope * DEG);
      const x1 = v.distance + run, x2 = x1 + v.width, x3 = x2 + run;
      const profile = [
        ...flatRun(ROW_START_X, v.distance, 0),
        [x1, -v.depth],
        [x2, -v.depth],
        [x3, 0],
        ...flatRun(x3, x3 + 3, 0),
      ];
      return { terrain: { base: Math.min(-1, -v.depth - 0.5), quads: quadRows(v, profile) } };
    },
  }),
  define({
    id: 'ramp',
    name: 'Ramp',
    description: 'Flat quad rows, a ramp rising at an angle over a horizontal length, then flat.',
    params: [
      { key: 'angle', label: 'Angle', unit: '°', default: 15, min: 1, max: 45, step: 1 },
      { key: 'length', label: 'Ramp length (horizontal)', unit: 'm', default: 3, min: 0.5, max: 10, step: 0.1 },
      distanceParam(),
      { key: 'top', label: 'Top length', unit: 'm', default: 3, min: 0.5, max: 10, step: 0.1 },
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const x1 = v.distance + v.length;
      const rise = v.length * Math.tan(v.angle * DEG);
      const profile = [...flatRun(ROW_START_X, v.distance, 0), [x1, rise], ...flatRun(x1, x1 + v.top, rise)];
      return { terrain: { quads: quadRows(v, profile) } };
    },
  }),
  define({
    id: 'rough',
    name: 'Rough',
    description: 'A seeded random field: every segment\'s far midpoint at a random height within ±amplitude; left and right rows differ.',
    params: [
      { key: 'seed', label: 'Seed', unit: '', default: 1, min: 0, max: 999999, step: 1 },
      { key: 'amplitude', label: 'Amplitude', unit: 'm', default: 0.08, min: 0.01, max: 0.3, step: 0.01 },
      { key: 'segments', label: 'Segments per row', unit: '', default: 24, min: 10, max: 80, step: 1 },
      { key: 'segment_length', label: 'Segment length', unit: 'm', default: 0.5, min: 0.3, max: 2, step: 0.05 },
      ...rowParams,
    ],
    start: [0, 0],
    make(v) {
      const random = mulberry32(v.seed);
      const profile = () => {
        const out = [];
        for (let i = 1; i <= v.segments; i++)
          out.push([ROW_START_X + i * v.segment_length, v.amplitude * (2 * random() - 1)]);
        return out;
      };
      const left = profile();
      const right = profile();  // the generator continues: the right row differs from the left
      return { terrain: { quads: quadRows(v, left, right) } };
    },
  }),
  define({
    id: 'rough-field',
    name: 'Rough field (heightmap)',
    description:
      'A heightmap of seeded fractal noise, within ±amplitude, with seeded rocks (convex hulls) sunk a little into it; ' +
      `the first ${FIELD_CLEAR} m, where the robot starts, stay free of rocks.`,
    params: [
      { key: 'seed', label: 'Seed', unit: '', default: 1, min: 0, max: 999999, step: 1 },
      { key: 'size_x', label: 'Length (x)', unit: 'm', default: 6, min: 4, max: 40, step: 0.5 },
      { key: 'size_y', label: 'Width (y)', unit: 'm', default: 3, min: 2, max: 40, step: 0.5 },
      { key: 'cell', label: 'Cell size', unit: 'm', default: 0.05, min: 0.02, max: 0.25, step: 0.01 },
      { key: 'amplitude', label: 'Amplitude (highest point)', unit: 'm', default: 0.08, min: 0.01, max: 0.5, step: 0.01 },
      { key: 'wavelength', label: 'Largest bump length', unit: 'm', default: 2, min: 1, max: 20, step: 0.1 },
      { key: 'roughness', label: 'Roughness (persistence)', unit: '', default: 0.5, min: 0, max: 1, step: 0.05 },
      { key: 'rocks', label: 'Rocks', unit: '', default: 6, min: 0, max: 100, step: 1 },
      { key: 'rock_min', label: 'Smallest rock', unit: 'm', default: 0.1, min: 0.05, max: 1, step: 0.01 },
      { key: 'rock_max', label: 'Largest rock', unit: 'm', default: 0.3, min: 0.05, max: 1, step: 0.01 },
      { key: 'rock_seed', label: 'Rock seed', unit: '', default: 1, min: 0, max: 999999, step: 1 },
    ],
    start: [0, 0],
    check(v) {
      const issues = [];
      const { nx, ny } = fieldSamples(v);
      if (nx * ny > FIELD_MAX_SAMPLES)
        issues.push({
          key: 'cell',
          message: `the field would have ${nx} × ${ny} = ${nx * ny} samples, more than ${FIELD_MAX_SAMPLES}: choose larger cells or a smaller field`,
        });
      if (v.rock_max < v.rock_min)
        issues.push({ key: 'rock_max', message: `must be at least the smallest rock's ${v.rock_min} m, got ${v.rock_max} m` });
      return issues;
    },
    make: roughField,
  }),
  define({
    id: 'depression',
    name: 'Depression (Kartashev & Jiang 2025)',
    description: '[KJ2025], the rocker rover paper: 8 segments per row, the left row flat, the right row dipping into a depression.',
    params: [
      { key: 'depth', label: 'Depth', unit: 'm', default: 0.25, min: 0.05, max: 0.6, step: 0.01 },
      { key: 'shoulder', label: 'Depth at the sides', unit: 'm', default: 0.12, min: 0, max: 0.6, step: 0.01 },
    ],
    start: [1.2, 0],
    make(v) {
      const d = v.depth, s = v.shoulder;
      return { terrain: paperTerrain([0, 0, -s, -d, -d, -s, 0, 0]), track1: { lateral: 0.5 } };
    },
  }),
  define({
    id: 'slope',
    name: 'Slope (Kartashev & Jiang 2025)',
    description: '[KJ2025], the rocker rover paper: 8 segments per row, the right row climbing a slope while the left stays flat.',
    params: [{ key: 'height', label: 'Slope height', unit: 'm', default: 0.3, min: 0.05, max: 1, step: 0.01 }],
    start: [1.2, 0],
    make(v) {
      const h = v.height;
      return { terrain: paperTerrain([0, h / 2, h, h, h, h, h, h]), track1: { lateral: 0.5 } };
    },
  }),
];

/** The template with this id, or undefined. */
export function getTemplate(id) {
  return TEMPLATES.find((t) => t.id === id);
}

const toTemplate = (template) => {
  const t = typeof template === 'string' ? getTemplate(template) : template;
  if (!t) throw new Error(`unknown terrain template '${template}' (known: ${TEMPLATES.map((x) => x.id).join(', ')})`);
  return t;
};

/** { key: default } of a template (the object or its id). */
export function defaultValues(template) {
  return Object.fromEntries(toTemplate(template).params.map((p) => [p.key, p.default]));
}

/**
 * What is wrong with `values` for a template (the object or its id), as the
 * editor refuses them: [{ key, message }], empty when build() takes them as
 * they are. A value must be a finite number in [min, max], whole for
 * integer-stepped parameters (step 1); then the template's check() names
 * values that do not go together.
 */
export function templateIssues(template, values) {
  const t = toTemplate(template);
  const issues = [];
  for (const p of t.params) {
    const x = values?.[p.key];
    const unit = p.unit ? ` ${p.unit}` : '';
    if (typeof x !== 'number' || !Number.isFinite(x) || x < p.min || x > p.max)
      issues.push({ key: p.key, message: `must be a number in [${p.min}, ${p.max}]${unit}, got ${JSON.stringify(x) ?? 'nothing'}` });
    else if (p.step === 1 && !Number.isInteger(x)) issues.push({ key: p.key, message: `must be a whole number, got ${x}` });
  }
  return issues.length ? issues : t.check(values);
}

/**
 * The values a template builds with: missing or non-finite ones take their
 * default, the rest are clamped to [min, max]; integer-stepped parameters
 * (step 1) are rounded.
 */
function resolve(params, values) {
  const out = {};
  for (const p of params) {
    let x = Number(values?.[p.key]);
    if (!Number.isFinite(x)) x = p.default;
    if (p.step === 1) x = Math.round(x);
    out[p.key] = Math.min(p.max, Math.max(p.min, x));
  }
  return out;
}

/**
 * A new scenario (deep copy) whose terrain is built by template `id` from
 * `values` (missing ones at their defaults); track1 is the template's, or
 * removed. Everything else is kept.
 */
export function applyTemplate(scenario, id, values = {}) {
  const template = toTemplate(id);
  const built = template.build(values);
  const s = structuredClone(scenario);
  // Named and described by what is on screen (based_on.js).
  const base = basedOn(scenario.name);
  const preset = robotName(scenario);
  const set = Object.entries(values).map(([k, v]) => `${k} = ${v}`).join(', ');
  s.name = `${preset} on “${base}”`;
  s.description = `Based on “${base}”: its robot and settings on the terrain of the template “${template.name}”${set ? ` (${set})` : ''}: ${template.description}`;
  s.terrain = structuredClone(built.terrain);
  if (built.track1) s.track1 = structuredClone(built.track1);
  else delete s.track1;
  return s;
}
