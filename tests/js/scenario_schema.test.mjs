// docs/scenario.schema.json against the files and the parser: every scenario in
// terrains/ validates against the schema (ajv, JSON Schema 2020-12), and the
// schema and the parser (the WASM core's scenario reader) name the same fields
// at every place of a document: a document holding every field of the schema
// is valid for both; at each object of it, an extra key is refused by the
// parser with the list of the fields it reads, which must be the schema's
// properties there (maps such as materials, params and joints take any key
// in both); each field given a wrong value is refused at its path (so the
// parser reads it); each enum's values are the parser's.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';

import { loadWasmCore, root } from './support.mjs';

const schema = JSON.parse(readFileSync(path.join(root, 'docs/scenario.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
const validate = ajv.compile(schema);
let core;

beforeAll(async () => {
  core = await loadWasmCore();
});

/** The parser's issues for a document (a World is built from it). */
function issuesOf(doc) {
  const world = new core.World(JSON.stringify(doc));
  const issues = world.ok() ? [] : world.issues();
  world.delete();
  return issues;
}

const GREY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAAAAACRn/EaAAAAF0lEQVR4nGNgYGRiZuDi5uFlEBEV+w8AA2MBcwWjvI8AAAAASUVORK5CYII=';

/** Keys of a record that are alternatives (in its oneOf's required lists): each object has one of them. */
const alternatives = (node) => new Set((node.oneOf ?? []).flatMap((o) => o.required ?? []));

const joinKey = (p, key) => (p ? `${p}.${key}` : key);
const under = (issuePath, p) => issuePath === p || issuePath.startsWith(`${p}.`) || issuePath.startsWith(`${p}[`);

function resolve(node) {
  while (node?.$ref) node = node.$ref.replace(/^#\//, '').split('/').reduce((n, k) => n[k], schema);
  return node;
}

/** Every object of `value` with its path, key steps and schema node (the schema followed alongside). */
function objectsOf(node, value, p = '', steps = [], out = []) {
  node = resolve(node);
  if (Array.isArray(value)) {
    value.forEach((v, i) => objectsOf(node.items ?? {}, v, `${p}[${i}]`, [...steps, i], out));
  } else if (value !== null && typeof value === 'object') {
    out.push({ path: p, steps, node, value });
    for (const [k, v] of Object.entries(value)) {
      const child = node.properties?.[k] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : null);
      if (!child) throw new Error(`the schema has nothing for ${joinKey(p, k)}`);
      objectsOf(child, v, joinKey(p, k), [...steps, k], out);
    }
  }
  return out;
}

/** Every schema node with properties (the records of the format), $refs followed. */
function records(node, seen = new Set()) {
  node = resolve(node);
  if (!node || typeof node !== 'object' || seen.has(node)) return seen;
  if (node.properties) seen.add(node);
  for (const child of [...Object.values(node.properties ?? {}), node.items, node.additionalProperties])
    if (child && typeof child === 'object') records(child, seen);
  return seen;
}

function edited(doc, steps, change) {
  const copy = structuredClone(doc);
  change(steps.reduce((o, k) => o[k], copy));
  return copy;
}

const point = (x, y, z) => [x, y, z];
const segment = (x, y) => ({ a: point(x, y, 0), b: point(x, y + 1.6, 0), m: point(x + 1, y + 0.8, 0) });

/** A valid scenario holding every field the schema names. */
function fullDocument() {
  const doc = {
    format: 'roverlab-scenario',
    version: 1,
    name: 'every field',
    description: 'a document with every field of the schema',
    terrain: {
      materials: { mud: { phi_max: 0.6, s0: 0.1, s1: 0.5, rolling: 0.03 } },
      base: -1,
      quads: { left: [segment(0, 20), segment(1, 20)], right: [segment(0, 17), segment(1, 17)], material: 'mud', base: -1 },
      boxes: [{ centre: point(10, 0, -0.5), size: point(40, 6, 1), yaw: 0, material: 'mud', color: '#8a8a80' }],
      wedges: [{ start: point(40, 0, 0), length: 1, width: 1, height: 0.2, yaw: 0.1, material: 'mud', color: '#6f9a58' }],
      hulls: [{ points: [point(50, 0, 0), point(51, 0, 0), point(50, 1, 0), point(50, 0, 1)], material: 'mud', color: '#8f7a66' }],
      profiles: [{ points: [[60, 0], [61, 0.1], [62, 0.1]], width: 2, base: -1, material: 'mud', color: '#6a8fb8' }],
      // Heights inline or as an embedded PNG (a 4 × 3 grey image); a PNG "file"
      // is read by the command-line tool only (tests/scenario/heightmap_reader_test.cpp).
      heightmaps: [
        { origin: [70, 0], cell: 0.5, heights: [[0, 0.1], [0.1, 0]], height_scale: 1, height_offset: 0, base: -1, material: 'mud', color: '#7d7358' },
        { origin: [75, 0], cell: [0.5, 0.5], png: GREY_PNG, height_scale: 0.01, height_offset: 0, base: -1, material: 'mud', color: '#7d7358' },
      ],
      // OBJ text embedded (a "file" is read by the command-line tool only,
      // tests/scenario/mesh_reader_test.cpp), scale as a number or per axis.
      meshes: [
        { obj: 'v 0 0 0\nv 1 0 0\nv 1 1 0.1\nv 0 1 0.1\nf 1 2 3 4\n', scale: 2, offset: [80, 0, 0], yaw: 0.1, up: 'z', base: -1, material: 'mud', color: '#8c8372' },
        { obj: 'v 0 0 0\nv 1 0 0\nv 0 0.1 -1\nf 1 2 3\n', scale: [1, 1, 1], offset: [85, 0], yaw: 0, up: 'y', base: -2, material: 'mud', color: '#8c8372' },
      ],
    },
    track1: { lateral: 0.5 },
    robot: {
      preset: 'articulated6',
      params: { wheel_radius: 0.19 },
      pose: { position: [0, 0], yaw: 0, pitch: 0, roll: 0 },
    },
    control: {
      wheel_speed: 1,
      left_speed: 1,
      right_speed: 1,
      joints: { fold_front: 0 },
      controller: 'none',
      program: { language: 'javascript', source: 'export default { update() {} };', params: { gain: 2 } },
      script: [{ t: 1, wheel_speed: 2, left_speed: 2, right_speed: 2, joints: { fold_front: 0.1 } }],
    },
    simulation: { dt: 0.0004, duration: 1, mode: '3d', slip: 'relative', integrator: 'semi-implicit', chassis_contact: true },
  };
  // Track1 nodes as the core generates them: on their lines, so kept as given.
  doc.track1.nodes = core.inspectTerrain(JSON.stringify(doc)).track1.map((n) => n.point);
  return doc;
}

describe('docs/scenario.schema.json', () => {
  const files = readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json'));

  test.each(files)('terrains/%s validates against the schema', (file) => {
    const doc = JSON.parse(readFileSync(path.join(root, 'terrains', file), 'utf8'));
    expect(validate(doc), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  test('a document with every field of the schema is valid for the schema and the parser', () => {
    const doc = fullDocument();
    expect(doc.track1.nodes.length).toBe(3);
    expect(validate(doc), JSON.stringify(validate.errors, null, 1)).toBe(true);
    expect(issuesOf(doc)).toEqual([]);
    const objects = objectsOf(schema, doc);
    // Every record of the schema appears, with every one of its fields.
    const visited = new Set(objects.map((o) => o.node));
    for (const node of records(schema)) expect(visited.has(node), Object.keys(node.properties).join(', ')).toBe(true);
    const seen = new Map();  // per record: the keys its objects have
    for (const { path: p, node, value } of objects) {
      seen.set(node, new Set([...(seen.get(node) ?? []), ...Object.keys(value)]));
      for (const key of Object.keys(node.properties ?? {}))
        if (!alternatives(node).has(key)) expect(Object.keys(value), `${p} lacks ${key}`).toContain(key);
    }
    // Alternatives appear across the record's objects, but for "file" (the
    // command-line tool's) and the robot's sources other than its preset (the
    // test below).
    for (const [node, keys] of seen)
      for (const key of alternatives(node))
        if (!['file', 'model', 'urdf'].includes(key)) expect([...keys], `no object has ${key}`).toContain(key);
  });

  test('at every object, the parser reads exactly the fields the schema names (an extra key is refused with its list)', () => {
    const doc = fullDocument();
    let checked = 0;
    for (const { path: p, steps, node } of objectsOf(schema, doc)) {
      const bad = edited(doc, steps, (o) => { o.zz_unknown = 1; });
      const at = joinKey(p, 'zz_unknown');
      const unknown = issuesOf(bad).find((i) => i.path === at && i.message.startsWith('unknown field'));
      if (node.properties) {
        expect(node.additionalProperties, p).toBe(false);
        expect(validate(bad), at).toBe(false);
        expect(unknown, `${at} is not refused as unknown`).toBeDefined();
        const listed = unknown.message.match(/^unknown field \(expected one of: (.*)\)$/)[1].split(', ');
        expect(listed.sort(), `the fields read at '${p}'`).toEqual(Object.keys(node.properties).sort());
        checked += 1;
      } else {
        expect(unknown, `${p} is a map in the schema but the parser has fixed fields there`).toBeUndefined();
      }
    }
    expect(checked).toBeGreaterThanOrEqual(records(schema).size);
  });

  test('every field of the schema is read: a wrong value is refused at its path', () => {
    const doc = fullDocument();
    for (const { path: p, steps, node, value } of objectsOf(schema, doc))
      for (const key of Object.keys(node.properties ?? {})) {
        if (alternatives(node).has(key) && !(key in value)) continue; // another document's
        const bad = edited(doc, steps, (o) => { o[key] = { zz: 'x' }; });
        const at = joinKey(p, key);
        expect(validate(bad), at).toBe(false);
        expect(issuesOf(bad).some((i) => under(i.path, at)), `no issue at ${at}`).toBe(true);
      }
  });

  test('the values of every enum are the ones the parser takes', () => {
    const doc = fullDocument();
    let enums = 0;
    for (const { path: p, steps, node } of objectsOf(schema, doc))
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        const values = resolve(child).enum;
        if (!values) continue;
        enums += 1;
        const at = joinKey(p, key);
        const issue = issuesOf(edited(doc, steps, (o) => { o[key] = 'zz_bad'; })).find((i) => i.path === at);
        expect(issue?.message, at).toMatch(/^must be one of: .* \(got 'zz_bad'\)$/);
        const listed = issue.message.match(/^must be one of: (.*) \(got/)[1].split(', ');
        expect(listed.sort(), at).toEqual([...values].sort());
      }
    expect(enums).toBe(8);  // preset, controller, a program's language, mode, slip, integrator, and each mesh's up
  });
});

describe("the robot's sources other than a preset", () => {
  // A two-wheel robot as URDF text and as a description (robot-format.md).
  const urdf = `<robot name="pair">
  <link name="base"><inertial><mass value="10"/><inertia ixx="0.2" iyy="0.3" izz="0.4" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.4 0.3 0.1"/></geometry></collision></link>
  <link name="l"><inertial><mass value="4"/><inertia ixx="0.05" iyy="0.08" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.19" length="0.04"/></geometry></collision></link>
  <link name="r"><inertial><mass value="4"/><inertia ixx="0.05" iyy="0.08" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.19" length="0.04"/></geometry></collision></link>
  <joint name="jl" type="continuous"><parent link="base"/><child link="l"/><origin xyz="0 0.2 0"/><axis xyz="0 1 0"/></joint>
  <joint name="jr" type="continuous"><parent link="base"/><child link="r"/><origin xyz="0 -0.2 0"/><axis xyz="0 1 0"/></joint>
</robot>`;
  const model = JSON.parse(readFileSync(path.join(root, 'docs/robot-format.md'), 'utf8').match(/## Example[\s\S]*?```json\n([\s\S]*?)```/)[1]);
  const withRobot = (robot) => {
    const doc = fullDocument();
    doc.robot = { ...robot, pose: { position: [0, 0] } };
    doc.control.joints = {};
    doc.control.script = [];
    return doc;
  };

  test.each([['model', model], ['urdf', urdf]])('robot.%s validates and parses; a wrong value is refused at its path', (key, value) => {
    const doc = withRobot({ [key]: value });
    expect(validate(doc), JSON.stringify(validate.errors, null, 1)).toBe(true);
    expect(issuesOf(doc)).toEqual([]);
    const bad = withRobot({ [key]: 3 });
    expect(validate(bad)).toBe(false);
    expect(issuesOf(bad).some((i) => i.path.startsWith(`robot.${key}`))).toBe(true);
    const two = withRobot({ [key]: value, preset: 'articulated6' });
    expect(validate(two)).toBe(false);
    expect(issuesOf(two).map((i) => i.path)).toContain('robot');
  });
});
