// docs/robot.schema.json against its sample and its page: a description
// holding every field of the schema validates (ajv, JSON Schema 2020-12), and
// so does the example of docs/robot-format.md; hostile descriptions are
// refused; the page's field tables name exactly the fields of the schema's
// records, and where a table gives a default or says "required" the schema
// says the same. That the C++ reader reads the schema's fields, enums and
// defaults is tests/scenario/robot_reader_test.cpp's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';

import { root } from './support.mjs';

const schema = JSON.parse(readFileSync(path.join(root, 'docs/robot.schema.json'), 'utf8'));
const page = readFileSync(path.join(root, 'docs/robot-format.md'), 'utf8');
const ajv = new Ajv2020({ allErrors: true });
const validate = ajv.compile(schema);

const origin = (xyz, rpy) => ({ xyz, rpy });

/** A description that uses every field of the format. */
const SAMPLE = {
  name: 'rocker8',
  base: { link: 'base', kind: 'free' },
  links: [
    {
      name: 'base',
      mass: 600,
      com: [0, 0, 0.1],
      inertia: { ixx: 58, iyy: 136, izz: 178, ixy: 0, ixz: 0, iyz: 0 },
      collisions: [
        { type: 'box', size: [1.6, 1, 0.4], origin: origin([0, 0, 0.1], [0, 0, 0]) },
        { type: 'cylinder', radius: 0.1, length: 0.05, origin: origin([0, 0, 0], [1.5707963267948966, 0, 0]) },
        { type: 'sphere', radius: 0.1, origin: origin([0.5, 0, 0], [0, 0, 0]) },
        { type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], origin: origin([0, 0, 0], [0, 0, 0]) },
      ],
      colour: '#808080',
    },
    { name: 'rocker_1', mass: 20, com: [0, 0, 0], inertia: { ixx: 1, iyy: 1, izz: 1, ixy: 0, ixz: 0, iyz: 0 }, collisions: [] },
    { name: 'rocker_2', mass: 20, com: [0, 0, 0], inertia: { ixx: 1, iyy: 1, izz: 1, ixy: 0, ixz: 0, iyz: 0 }, collisions: [] },
    { name: 'wheel_1', mass: 10, com: [0, 0, 0], inertia: { ixx: 0.2, iyy: 0.3, izz: 0.2, ixy: 0, ixz: 0, iyz: 0 }, collisions: [] },
  ],
  joints: [
    {
      name: 'rocker_1',
      type: 'revolute',
      parent: 'base',
      child: 'rocker_1',
      origin: origin([0.55, 0.45, 0], [0, 0, 0]),
      axis: [0, 1, 0],
      limit: { lower: -0.7, upper: 0.7, stiffness: 1e5, damping: 1e3 },
      effort: 0,
      velocity: 0,
      damping: 50,
      friction: 0,
      spring: { stiffness: 0, rest: 0, cubic: 0 },
      mimic: { joint: 'rocker_2', multiplier: -1, offset: 0 },
    },
    { name: 'rocker_2', type: 'continuous', parent: 'base', child: 'rocker_2', axis: [0, 1, 0] },
    { name: 'wheel_1', type: 'continuous', parent: 'rocker_1', child: 'wheel_1', origin: origin([0.35, 0.25, -0.2], [0, 0, 0]), axis: [0, 1, 0] },
  ],
  wheels: [
    {
      joint: 'wheel_1',
      radius: 0.25,
      width: 0.2,
      spin_inertia: 0.3,
      tire: { stiffness: 2e5, damping: 2e3, rolling_radius_ratio: 0.97, slip_speed_floor: 0.001 },
      tread: { stiffness: 2e5, damping: 2e3, stiction_speed: 0.001, rolling_breakaway: 0.002, rolling_damping_time: 0.02 },
    },
  ],
  actuators: [
    { name: 'wheel_1', joint: 'wheel_1', mode: 'speed', gain: 300, integral_gain: 3000, damping: 0, limit: 150, gear_ratio: 1 },
    { name: 'fold', joint: 'rocker_2', mode: 'position', gain: 5000, damping: 300, limit: 800 },
    { name: 'push', joint: 'rocker_1', mode: 'torque', limit: 100 },
  ],
  controls: { left: ['wheel_1'], right: [], joints: ['fold'], max_wheel_speed: 4 },
  sections: ['rocker_1'],
};

function resolve(node) {
  while (node?.$ref) node = node.$ref.replace(/^#\//, '').split('/').reduce((n, k) => n[k], schema);
  return node;
}

/** The schema's records (nodes with properties) by name: the root as "" and every $defs entry. */
function recordsByName() {
  const out = new Map([['', schema]]);
  for (const [name, node] of Object.entries(schema.$defs)) if (node.properties) out.set(name, node);
  return out;
}

/** Every object of `value` with its path and schema record (oneOf alternatives chosen by their `type` constant). */
function objectsOf(node, value, p = '', out = []) {
  node = resolve(node);
  if (Array.isArray(value)) {
    value.forEach((v, i) => objectsOf(node.items ?? {}, v, `${p}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    if (node.oneOf) node = node.oneOf.map(resolve).find((o) => o.properties?.type?.const === value.type);
    out.push({ path: p, node, value });
    for (const [k, v] of Object.entries(value)) {
      if (!node.properties?.[k]) throw new Error(`the schema has nothing for ${p}.${k}`);
      objectsOf(node.properties[k], v, `${p}.${k}`, out);
    }
  }
  return out;
}

/** Sections of the page: heading text and the lines below it. */
function sections(markdown) {
  const out = [];
  for (const line of markdown.split('\n')) {
    const heading = line.match(/^#+ (.*)$/);
    if (heading) out.push({ heading: heading[1], lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

const cells = (row) => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

/** The field tables of the page: per section naming records (`name` in its heading, or "Top level"), each row's fields with their default cell. */
function fieldTables() {
  const records = recordsByName();
  const tables = [];
  for (const { heading, lines } of sections(page)) {
    const named = heading === 'Top level' ? [''] : [...heading.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (!named.length || !named.every((n) => records.has(n))) continue;
    const rows = lines.filter((l) => l.startsWith('|'));
    const header = cells(rows[0] ?? '');
    expect(header[0], heading).toBe('field');
    const column = header.indexOf('default');
    const fields = [];
    for (const row of rows.slice(2)) {
      const c = cells(row);
      for (const m of c[0].matchAll(/`([^`]+)`/g)) fields.push({ name: m[1], cell: c[column] });
    }
    tables.push({ heading, records: named.map((n) => records.get(n)), fields });
  }
  return tables;
}

/** The first ```json block of the page's "Example" section. */
function pageExample() {
  const { lines } = sections(page).find((s) => s.heading === 'Example');
  const start = lines.indexOf('```json');
  return JSON.parse(lines.slice(start + 1, lines.indexOf('```', start + 1)).join('\n'));
}

describe('docs/robot.schema.json', () => {
  test('the sample description validates, and holds every field of every record', () => {
    expect(validate(SAMPLE), JSON.stringify(validate.errors, null, 1)).toBe(true);
    const objects = objectsOf(schema, SAMPLE);
    const seen = new Map();
    for (const { node, value } of objects) seen.set(node, new Set([...(seen.get(node) ?? []), ...Object.keys(value)]));
    for (const [name, node] of recordsByName()) {
      expect(seen.has(node), `record ${name || '(top level)'}`).toBe(true);
      expect([...seen.get(node)].sort(), `fields of ${name || '(top level)'}`).toEqual(Object.keys(node.properties).sort());
    }
  });

  test("the example of docs/robot-format.md validates", () => {
    const example = pageExample();
    expect(validate(example), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  const hostile = [
    ['a negative mass', (d) => { d.links[0].mass = -1; }],
    ['a mass as a string', (d) => { d.links[0].mass = '12'; }],
    ['an unknown field', (d) => { d.links[0].color = '#808080'; }],
    ['a colour by name', (d) => { d.links[0].colour = 'grey'; }],
    ['a joint type', (d) => { d.joints[0].type = 'ball'; }],
    ['an actuator mode', (d) => { d.actuators[0].mode = 'velocity'; }],
    ['a base kind', (d) => { d.base.kind = 'floating'; }],
    ['a shape type', (d) => { d.links[0].collisions[0].type = 'mesh'; }],
    ['a field of another shape type', (d) => { d.links[0].collisions[0].radius = 1; }],
    ['a hull of 3 points', (d) => { d.links[0].collisions[3].points.pop(); }],
    ['a zero axis', (d) => { d.joints[0].axis = [0, 0, 0]; }],
    ['a speed drive without gain', (d) => { delete d.actuators[0].gain; }],
    ['a zero wheel radius', (d) => { d.wheels[0].radius = 0; }],
    ['a soft tire', (d) => { d.wheels[0].tire.stiffness = 10; }],
    ['a zero gear ratio', (d) => { d.actuators[0].gear_ratio = 0; }],
    ['a negative maximum wheel speed', (d) => { d.controls.max_wheel_speed = -1; }],
    ['no links', (d) => { d.links = []; }],
    ['no joints', (d) => { delete d.joints; }],
    ['an empty name', (d) => { d.joints[0].parent = ''; }],
    ['a name of 201 characters', (d) => { d.links[1].name = 'é'.repeat(201); }],
    ['1001 links', (d) => { d.links = Array.from({ length: 1001 }, () => d.links[1]); }],
    ['a limit without upper', (d) => { delete d.joints[0].limit.upper; }],
  ];

  test.each(hostile)('refuses %s', (_, change) => {
    const doc = structuredClone(SAMPLE);
    change(doc);
    expect(validate(doc)).toBe(false);
  });

  test('a name of 200 characters in any script is valid', () => {
    const doc = structuredClone(SAMPLE);
    doc.links[1].name = 'é'.repeat(200);
    expect(validate(doc), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });
});

describe('docs/robot-format.md and the schema', () => {
  test("every record's table names exactly the record's fields", () => {
    const tables = fieldTables();
    const documented = new Set(tables.flatMap((t) => t.records));
    for (const [name, node] of recordsByName()) expect(documented.has(node), `no table for ${name || 'the top level'}`).toBe(true);
    for (const { heading, records, fields } of tables) {
      const properties = new Set(records.flatMap((r) => Object.keys(r.properties)));
      expect(fields.map((f) => f.name).sort(), heading).toEqual([...properties].sort());
    }
  });

  test('defaults and required fields agree', () => {
    let compared = 0;
    for (const { heading, records, fields } of fieldTables())
      for (const { name, cell } of fields)
        for (const record of records) {
          const property = record.properties[name];
          if (!property) continue;
          const at = `${heading}: ${name}`;
          const required = (record.required ?? []).includes(name);
          if (cell === 'required') {
            expect(required, at).toBe(true);
            compared += 1;
            continue;
          }
          expect(required, `${at} is required in the schema`).toBe(false);
          const text = cell.replace(/`/g, '');
          let value;
          try {
            value = JSON.parse(text);
          } catch {
            value = resolve(property).enum?.includes(text) ? text : undefined;  // an enum's value
          }
          if (value === undefined) continue;
          expect(property.default, at).toEqual(value);
          compared += 1;
        }
    expect(compared).toBeGreaterThan(40);
  });
});
