// Terrain templates of the editor (web/src/editor/templates.js): every template
// at its default, minimum and maximum values builds a terrain the real WASM
// core accepts with every robot preset at the template's start, and a
// scenario that validates against docs/scenario.schema.json; the geometry
// is checked numerically; the paper's terrains equal those in terrains/; the
// rough field (a fractal-noise heightmap with rocks) is the same for the
// same seed, refuses values out of range, and the command-line tool accepts
// and runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  FIELD_CLEAR,
  FIELD_MAX_SAMPLES,
  HEIGHT_QUANTUM,
  TEMPLATES,
  TemplateError,
  applyTemplate,
  defaultValues,
  getTemplate,
  ROW_START_X,
  templateIssues,
} from '../../web/src/editor/templates.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const cli = path.join(root, 'build/native/roverlab');
const readScenario = (name) => JSON.parse(readFileSync(path.join(root, 'terrains', name), 'utf8'));
const validateSchema = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(path.join(root, 'docs/scenario.schema.json'), 'utf8')));
let core;
let tmp;

beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  core = await createRoverlabCore();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-templates-'));
});
afterAll(() => tmp && rmSync(tmp, { recursive: true, force: true }));

const PRESETS = ['articulated6', 'rocker8', 'planar-vehicle', 'wheel-walker', 'wheel-rig'];
// Planar presets run on the centre line y = 0 whatever the pose's y (the core
// puts them on an x–z base), so between two rows with a gap wider than their
// wheels they have no ground: they are checked with the gap closed, and
// rejected with a gap as the core should (see 'planar presets over a gap').
const PLANAR = new Set(['planar-vehicle', 'wheel-walker', 'wheel-rig']);
const valueSets = (t) => {
  const sets = [['default', defaultValues(t)]];
  if (t.params.length) {
    sets.push(['min', Object.fromEntries(t.params.map((p) => [p.key, p.min]))]);
    sets.push(['max', Object.fromEntries(t.params.map((p) => [p.key, p.max]))]);
  }
  return sets;
};
const cases = TEMPLATES.flatMap((t) => valueSets(t).map(([label, values]) => [t.id, label, values]));

function scenarioWith(id, values, preset) {
  const t = getTemplate(id);
  const base = {
    format: 'roverlab-scenario',
    version: 1,
    name: `${id} template`,
    terrain: { boxes: [{ centre: [0, 0, -0.5], size: [1, 1, 1] }] },
    robot: { preset, pose: { position: [...t.start] } },
    control: { wheel_speed: 1 },
    simulation: { duration: 5 },
  };
  return applyTemplate(base, id, PLANAR.has(preset) && 'gap' in values ? { ...values, gap: 0 } : values);
}

/** Every quad corner of a built terrain (near vertices a, b and far vertices a', b'). */
function corners(terrain) {
  const out = [];
  for (const side of ['left', 'right'])
    for (const { a, b, m } of terrain.quads?.[side] ?? []) {
      const half = a.map((_, k) => 0.5 * (b[k] - a[k]));
      out.push(a, b, m.map((x, k) => x - half[k]), m.map((x, k) => x + half[k]));
    }
  return out;
}
const heights = (terrain) => corners(terrain).map((c) => c[2]);
const boxTop = (box) => box.centre[2] + box.size[2] / 2;
const hasRows = (id) => Boolean(getTemplate(id).build().terrain.quads);

describe.each(cases)('template %s (%s values)', (id, label, values) => {
  test.each(PRESETS)('the core accepts it with %s at the start', (preset) => {
    const world = new core.World(JSON.stringify(scenarioWith(id, values, preset)));
    try {
      expect(world.ok(), JSON.stringify(world.issues())).toBe(true);
    } finally {
      world.delete();
    }
  });

  test('the scenario validates against docs/scenario.schema.json', () => {
    const ok = validateSchema(scenarioWith(id, values, 'rocker8'));
    expect(validateSchema.errors ?? [], 'schema errors').toEqual([]);
    expect(ok).toBe(true);
  });

  if (hasRows(id)) test('rows: shared points, left at y > 0, right at y < 0, start behind x = 0', () => {
    const { terrain } = getTemplate(id).build(values);
    const { left, right } = terrain.quads;
    expect(left.length).toBeGreaterThan(0);
    expect(right.length).toBeGreaterThan(0);
    for (const [row, sign] of [[left, 1], [right, -1]]) {
      for (const { a, b, m } of row) for (const p of [a, b, m]) expect(sign * p[1]).toBeGreaterThanOrEqual(0);
      expect(row[0].a[0]).toBeLessThanOrEqual(0);
      for (let i = 1; i < row.length; i++) {
        const { a, b, m } = row[i - 1];
        for (let k = 0; k < 3; k++) {
          expect(row[i].a[k]).toBe(m[k] - 0.5 * (b[k] - a[k]));
          expect(row[i].b[k]).toBe(m[k] + 0.5 * (b[k] - a[k]));
        }
      }
    }
  });
  else test('heightmap: one field from x = ROW_START_X across y = 0, within the sample limit', () => {
    const { terrain } = getTemplate(id).build(values);
    expect(terrain.heightmaps).toHaveLength(1);
    const [field] = terrain.heightmaps;
    const nx = Math.round(values.size_x / values.cell) + 1, ny = Math.round(values.size_y / values.cell) + 1;
    expect(field.heights).toHaveLength(ny);
    for (const row of field.heights) expect(row).toHaveLength(nx);
    expect(nx * ny).toBeLessThanOrEqual(FIELD_MAX_SAMPLES);
    expect(field.origin[0]).toBe(ROW_START_X);
    expect(field.origin[1]).toBeCloseTo((-(ny - 1) * values.cell) / 2, 4);  // the origin is rounded to 0.1 mm
    expect(field.cell).toBe(values.cell);
    // The robot's start lies on the field, in the part kept free of rocks.
    const [x, y] = getTemplate(id).start;
    expect(x).toBeGreaterThan(field.origin[0]);
    expect(x).toBeLessThan(field.origin[0] + FIELD_CLEAR);
    expect(Math.abs(y)).toBeLessThan(((ny - 1) * values.cell) / 2);
    for (const { points } of terrain.hulls ?? []) for (const p of points) expect(p[0]).toBeGreaterThan(field.origin[0] + FIELD_CLEAR);
  });
});

describe('geometry', () => {
  const both = (id) => valueSets(getTemplate(id)).map(([, v]) => [v, getTemplate(id).build(v)]);

  test('flat: every quad corner at z = 0, N segments per row', () => {
    for (const [v, { terrain }] of both('flat')) {
      for (const z of heights(terrain)) expect(z).toBe(0);
      expect(terrain.quads.left).toHaveLength(v.segments);
      expect(terrain.quads.right).toHaveLength(v.segments);
      expect(terrain.quads.left[0].a[0]).toBe(ROW_START_X);
      expect(terrain.quads.left[0].b[1] - terrain.quads.left[0].a[1]).toBeCloseTo(v.row_width, 12);
      expect(terrain.quads.left[0].a[1] - terrain.quads.right[0].b[1]).toBeCloseTo(v.gap, 12);
    }
  });

  test('step: flat rows up to the box, whose top is at h and which spans both rows', () => {
    for (const [v, { terrain }] of both('step')) {
      for (const z of heights(terrain)) expect(z).toBe(0);
      expect(terrain.boxes).toHaveLength(1);
      const box = terrain.boxes[0];
      expect(boxTop(box)).toBeCloseTo(v.height, 12);
      expect(box.centre[0] - box.size[0] / 2).toBeCloseTo(v.distance, 12);
      expect(box.size[1]).toBeCloseTo(2 * v.row_width + v.gap, 12);
      expect(terrain.quads.left.at(-1).m[0]).toBe(v.distance);  // the rows end at the step's face
    }
  });

  test('stairs: n boxes with tops at h, 2h, …, each d deep', () => {
    for (const [v, { terrain }] of both('stairs')) {
      expect(terrain.boxes).toHaveLength(v.steps);
      terrain.boxes.forEach((box, i) => {
        expect(boxTop(box)).toBeCloseTo((i + 1) * v.height, 12);
        expect(box.centre[0] - box.size[0] / 2).toBeCloseTo(v.distance + i * v.depth, 12);
        if (i < v.steps - 1) expect(box.size[0]).toBeCloseTo(v.depth, 12);
      });
    }
  });

  test('ditch: lowest corner at −depth, sides at the slope angle, back up to 0', () => {
    for (const [v, { terrain }] of both('ditch')) {
      const zs = heights(terrain);
      expect(Math.min(...zs)).toBeCloseTo(-v.depth, 12);
      expect(Math.max(...zs)).toBe(0);
      expect(terrain.base).toBeLessThan(-v.depth);
      const row = terrain.quads.left;
      expect(row.at(-1).m[2]).toBe(0);
      const down = row.find((s) => s.m[2] < 0 && s.a[2] === 0);
      const rise = -down.m[2], run = down.m[0] - down.a[0];
      expect(Math.atan2(rise, run) / (Math.PI / 180)).toBeCloseTo(v.slope, 9);
      const bottom = row.filter((s) => s.a[2] === -v.depth && s.m[2] === -v.depth);
      expect(bottom.reduce((w, s) => w + s.m[0] - s.a[0], 0)).toBeCloseTo(v.width, 12);
    }
  });

  test('ramp: the far end at length·tan(angle)', () => {
    for (const [v, { terrain }] of both('ramp')) {
      const rise = v.length * Math.tan((v.angle * Math.PI) / 180);
      for (const side of ['left', 'right']) {
        const row = terrain.quads[side];
        expect(Math.abs(row.at(-1).m[2] - rise)).toBeLessThanOrEqual(1e-9);
        const ramp = row.find((s) => s.m[2] > s.a[2]);
        expect(Math.abs(ramp.m[2] - rise)).toBeLessThanOrEqual(1e-9);
        expect(ramp.m[0] - ramp.a[0]).toBeCloseTo(v.length, 12);
      }
      expect(Math.max(...heights(terrain))).toBeCloseTo(rise, 12);
    }
  });

  test('rough: the same seed gives the same terrain, another seed another; heights within ±amplitude; rows differ', () => {
    const t = getTemplate('rough');
    const v = defaultValues(t);
    expect(t.build({ ...v })).toEqual(t.build({ ...v }));
    expect(t.build({ ...v, seed: 2 })).not.toEqual(t.build({ ...v, seed: 3 }));
    for (const [values, { terrain }] of both('rough')) {
      for (const z of heights(terrain)) expect(Math.abs(z)).toBeLessThanOrEqual(values.amplitude);
      const lz = terrain.quads.left.map((s) => s.m[2]), rz = terrain.quads.right.map((s) => s.m[2]);
      expect(lz).not.toEqual(rz);
      expect(lz).toHaveLength(values.segments);
    }
    // mulberry32: seed 1 gives 0.62707394…, 0.00273572…, 0.52744703… everywhere.
    const first = t.build({ ...v, seed: 1, amplitude: 0.1 }).terrain.quads.left.slice(0, 3).map((s) => s.m[2]);
    expect(first.map((z) => z.toFixed(12))).toEqual(['0.025414788118', '-0.099452855764', '0.005489407992']);
  });

  test.each([
    ['depression', 'depression-rocker8.json'],
    ['slope', 'slope-rocker8.json'],
  ])('%s at its defaults equals terrains/%s (Kartashev & Jiang 2025)', (id, file) => {
    const scenario = readScenario(file);
    const built = getTemplate(id).build(defaultValues(id));
    expect(built.terrain).toEqual(scenario.terrain);
    expect(built.track1).toEqual(scenario.track1);
    expect(getTemplate(id).start).toEqual(scenario.robot.pose.position);
  });
});

test('planar presets over a gap: rejected with the core\'s message, accepted on a gap narrower than their wheels', () => {
  const message = (id, values, preset) => {
    const t = getTemplate(id);
    const base = { format: 'roverlab-scenario', version: 1, terrain: {}, robot: { preset, pose: { position: [...t.start] } } };
    const world = new core.World(JSON.stringify(applyTemplate(base, id, values)));
    const issues = world.issues();
    world.delete();
    return issues.map((i) => i.message).join('; ');
  };
  for (const preset of PLANAR) {
    expect(message('flat', { gap: 0.4 }, preset)).toMatch(/no terrain under the robot's wheels/);
    expect(message('flat', { gap: 0.08 }, preset)).toBe('');  // the wheels (≥ 0.1 m wide) still reach both rows
  }
});

describe('applyTemplate', () => {
  test('replaces the terrain and track1, keeps the rest but the name and description, leaves the input unchanged', () => {
    const original = readScenario('depression-rocker8.json');
    const before = structuredClone(original);
    const s = applyTemplate(original, 'ramp', { angle: 10 });
    expect(original).toEqual(before);
    expect(s.track1).toBeUndefined();
    expect(s.terrain).toEqual(getTemplate('ramp').build({ ...defaultValues('ramp'), angle: 10 }).terrain);
    for (const key of ['format', 'version', 'robot', 'control', 'simulation'])
      expect(s[key]).toEqual(original[key]);
    // Named and described by what is on screen, and what it is based on.
    expect(s.name).toBe(`rocker8 on “${original.name}”`);
    expect(s.description).toBe(
      `Based on “${original.name}”: its robot and settings on the terrain of the template “${getTemplate('ramp').name}” (angle = 10): ${getTemplate('ramp').description}`,
    );
    expect(applyTemplate(s, 'ramp', {}).name).toBe(s.name);  // still based on the first
    s.robot.pose.position[0] = 99;
    expect(original.robot.pose.position[0]).toBe(1.2);  // a deep copy

    const back = applyTemplate(s, 'slope', {});
    expect(back.track1).toEqual({ lateral: 0.5 });
    expect(back.terrain).toEqual(readScenario('slope-rocker8.json').terrain);
  });

  test('an unknown template is an error; values are clamped to [min, max]', () => {
    expect(() => applyTemplate(readScenario('flat-rocker8.json'), 'nope', {})).toThrow(/unknown terrain template 'nope'/);
    const t = getTemplate('step');
    expect(t.build({ height: 5 })).toEqual(t.build({ height: 1 }));
    expect(t.build({ height: Number.NaN })).toEqual(t.build({}));
  });

  test('every template has unique id, well-formed params, and builds with no values given', () => {
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    for (const t of TEMPLATES) {
      for (const p of t.params) {
        expect(p.min).toBeLessThanOrEqual(p.default);
        expect(p.default).toBeLessThanOrEqual(p.max);
        expect(p.step).toBeGreaterThan(0);
        expect(typeof p.label).toBe('string');
        expect(typeof p.unit).toBe('string');
      }
      expect(t.build()).toEqual(t.build(defaultValues(t)));
    }
  });
});

describe('a short run', () => {
  test.each(TEMPLATES.map((t) => t.id))('%s at its defaults: 1 s with every preset without an error', (id) => {
    for (const preset of PRESETS) {
      const scenario = scenarioWith(id, defaultValues(id), preset);
      scenario.control.wheel_speed = 2;
      const world = new core.World(JSON.stringify(scenario));
      try {
        expect(world.ok(), JSON.stringify(world.issues())).toBe(true);
        const steps = Math.round(1 / world.dt());
        expect(world.step(steps), `${preset}: ${world.error()}`).toBe(steps);
        expect(world.error()).toBe('');
      } finally {
        world.delete();
      }
    }
  });

  test('step of 0.1 m with articulated6: 3 s moves the robot forward without an error', () => {
    const base = readScenario('flat-articulated6.json');
    const scenario = applyTemplate(base, 'step', { ...defaultValues('step'), height: 0.1 });
    const world = new core.World(JSON.stringify(scenario));
    try {
      expect(world.ok(), JSON.stringify(world.issues())).toBe(true);
      const model = world.model();
      const o = model.layout.poses + model.layout.pose * model.base;
      const x0 = world.frame()[o];
      const steps = Math.round(3 / world.dt());
      expect(world.step(steps)).toBe(steps);
      expect(world.error()).toBe('');
      const frame = world.frame();
      expect(frame[0]).toBeCloseTo(3, 9);
      expect(frame[o] - x0).toBeGreaterThan(0.5);
      expect(Number.isFinite(frame[o + 2])).toBe(true);
    } finally {
      world.delete();
    }
  });
});

describe('rough field (a heightmap with rocks)', () => {
  const t = getTemplate('rough-field');
  const v = defaultValues('rough-field');
  const fieldOf = (values) => t.build(values).terrain.heightmaps[0];
  const extentOf = (field) => [field.origin[0] + (field.heights[0].length - 1) * field.cell, field.origin[1] + (field.heights.length - 1) * field.cell];

  /** Mean absolute height difference between neighbouring samples, along x and along y (m). */
  function neighbourDifference(heights) {
    let sum = 0;
    let n = 0;
    heights.forEach((row, j) =>
      row.forEach((z, i) => {
        if (i > 0) (sum += Math.abs(z - row[i - 1])), n++;
        if (j > 0) (sum += Math.abs(z - heights[j - 1][i])), n++;
      }),
    );
    return sum / n;
  }

  /** Lowest and highest sample of the cells under the plan-view bounding box of `points`: the ground there lies between them. */
  function groundUnder(field, points) {
    const { origin, cell, heights } = field;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const i0 = Math.max(0, Math.floor((Math.min(...xs) - origin[0]) / cell));
    const i1 = Math.min(heights[0].length - 1, Math.ceil((Math.max(...xs) - origin[0]) / cell));
    const j0 = Math.max(0, Math.floor((Math.min(...ys) - origin[1]) / cell));
    const j1 = Math.min(heights.length - 1, Math.ceil((Math.max(...ys) - origin[1]) / cell));
    const under = heights.slice(j0, j1 + 1).flatMap((row) => row.slice(i0, i1 + 1));
    return { low: Math.min(...under), high: Math.max(...under) };
  }

  test('the same values give the same terrain; the seed changes the heights, the rock seed only the rocks', () => {
    const base = t.build({ ...v }).terrain;
    expect(t.build({ ...v })).toEqual(t.build({ ...v }));
    expect(fieldOf({ ...v, seed: 2 }).heights).not.toEqual(base.heightmaps[0].heights);
    const rocks = t.build({ ...v, rock_seed: 2 }).terrain;
    expect(rocks.heightmaps).toEqual(base.heightmaps);
    expect(rocks.hulls).not.toEqual(base.hulls);
    // mulberry32 and the noise are plain double arithmetic, so seed 1 gives these heights on every platform.
    expect(base.heightmaps[0].heights[0].slice(0, 6)).toEqual([0.0149, 0.0137, 0.0123, 0.014, 0.0187, 0.021]);
  });

  test('heights lie within ±amplitude, reach it, and are multiples of 0.1 mm printed with at most 4 decimals', () => {
    for (const amplitude of [0.01, 0.08, 0.23, 0.5]) {
      const heights = fieldOf({ ...v, amplitude }).heights.flat();
      const peak = heights.reduce((m, z) => Math.max(m, Math.abs(z)), 0);
      // The largest height is scaled to the amplitude, then rounded to the quantum: within half a quantum of it.
      expect(Math.abs(peak - amplitude)).toBeLessThanOrEqual(HEIGHT_QUANTUM / 2);
      for (const z of heights) {
        expect(Math.abs(z)).toBeLessThanOrEqual(amplitude);
        expect(String(z)).toMatch(/^-?\d+(\.\d{1,4})?$/);
      }
    }
  });

  test('roughness weighs the finer layers of the noise: the mean difference between neighbours rises with it', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const differences = [0.25, 0.5, 0.75, 1].map((roughness) => neighbourDifference(fieldOf({ ...v, seed, roughness, rocks: 0 }).heights));
      for (let k = 1; k < differences.length; k++) expect(differences[k]).toBeGreaterThan(differences[k - 1]);
    }
  });

  test.each([
    ['default', {}],
    ['40 rocks of 0.05–0.6 m on ±0.3 m', { rocks: 40, rock_min: 0.05, rock_max: 0.6, amplitude: 0.3, roughness: 0.8, size_x: 12, size_y: 6, rock_seed: 7 }],
  ])('rocks (%s): as many as asked, on the field beyond the start, sunk into the ground and standing out of it', (label, change) => {
    const values = { ...v, ...change };
    const { terrain } = t.build(values);
    const [field] = terrain.heightmaps;
    const [xEnd, yEnd] = extentOf(field);
    expect(terrain.hulls).toHaveLength(values.rocks);
    for (const { points } of terrain.hulls) {
      expect(points).toHaveLength(12);
      const xs = points.map((p) => p[0]);
      const ys = points.map((p) => p[1]);
      const zs = points.map((p) => p[2]);
      const width = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
      expect(width).toBeLessThanOrEqual(values.rock_max);
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(field.origin[0] + FIELD_CLEAR);
      expect(Math.max(...xs)).toBeLessThanOrEqual(xEnd);
      expect(Math.min(...ys)).toBeGreaterThanOrEqual(field.origin[1]);
      expect(Math.max(...ys)).toBeLessThanOrEqual(yEnd);
      const bottom = Math.min(...zs);
      const top = Math.max(...zs);
      const ground = groundUnder(field, points);
      expect(bottom).toBeLessThan(ground.low);  // no part of its base floats over the ground
      // Sunk a fifth of its height (1e-4 m: the points are rounded to 0.1 mm).
      expect(bottom).toBeGreaterThanOrEqual(ground.low - 0.2 * (top - bottom) - 1e-4);
      // Rocks are 0.35–0.65 of their size high and stand at least half of that above the highest ground under them.
      expect(top - ground.high).toBeGreaterThan(0.15 * width);
    }
    // The core accepts the rocks on the field: no two rocks overlap.
    const world = new core.World(JSON.stringify(scenarioWith('rough-field', values, 'rocker8')));
    try {
      expect(world.ok(), JSON.stringify(world.issues())).toBe(true);
    } finally {
      world.delete();
    }
  });

  test('values out of their range, fractional seeds and counts, too many samples and rocks without room are refused', () => {
    expect(templateIssues(t, v)).toEqual([]);
    for (const p of t.params)
      for (const bad of [p.min - p.step, p.max + p.step, Number.NaN])
        expect(templateIssues(t, { ...v, [p.key]: bad })).toEqual([
          { key: p.key, message: expect.stringMatching(new RegExp(`^must be a number in \\[${p.min}, ${p.max}\\]`)) },
        ]);
    expect(templateIssues(t, { ...v, seed: 1.5 })).toEqual([{ key: 'seed', message: 'must be a whole number, got 1.5' }]);
    expect(templateIssues(t, { ...v, rocks: 2.5 })).toEqual([{ key: 'rocks', message: 'must be a whole number, got 2.5' }]);

    // Each value in range, together too many samples: 801 × 401.
    const large = { ...v, size_x: 40, size_y: 20, cell: 0.05 };
    expect(templateIssues(t, large)).toEqual([{ key: 'cell', message: expect.stringMatching(/801 × 401 = 321201 samples, more than 100000/) }]);
    expect(() => t.build(large)).toThrow(TemplateError);
    const inverted = { ...v, rock_min: 0.5, rock_max: 0.2 };
    expect(templateIssues(t, inverted)).toEqual([{ key: 'rock_max', message: expect.stringMatching(/at least the smallest rock's 0.5 m/) }]);

    // 100 rocks of 1 m do not find room on 3 × 3 m beyond the start: the error names how many did.
    const crowded = { ...v, rocks: 100, rock_min: 1, rock_max: 1 };
    const scenario = readScenario('flat-rocker8.json');
    const before = structuredClone(scenario);
    let error;
    try {
      applyTemplate(scenario, 'rough-field', crowded);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect(error.issues).toEqual([{ key: 'rocks', message: expect.stringMatching(/^only \d+ of 100 rocks of 1–1 m find room/) }]);
    expect(scenario).toEqual(before);
  });

  test('the command-line tool validates it and rocker8 drives across it', () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
    const file = path.join(tmp, 'rough-field-rocker8.json');
    writeFileSync(file, JSON.stringify(applyTemplate(readScenario('flat-rocker8.json'), 'rough-field', v)));
    const roverlab = (...args) => spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
    const checked = roverlab('validate', file);
    expect(checked.status, checked.stdout).toBe(0);
    expect(JSON.parse(checked.stdout)).toEqual({ ok: true, warnings: [] });
    const run = roverlab('run', file, '--duration', '4');
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.outcome).toBe('ok');
    // 2 rad/s on 0.25 m wheels: about 2 m in 4 s, into the rocks beyond x = 1.5.
    expect(summary.base.position_m[0]).toBeGreaterThan(1);
    expect(summary.wheels.some((w) => w.in_contact)).toBe(true);
  });
});
