// docs/study.schema.json against the studies kept in the project and the
// reader: every study in studies/ and tests/data/studies/ validates (ajv,
// JSON Schema 2020-12), and documents the schema refuses are refused by the
// reader too (roverlab study, at a path).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, test } from 'vitest';

import { root } from './support.mjs';

const schema = JSON.parse(readFileSync(path.join(root, 'docs/study.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(schema);
const folders = ['studies', 'tests/data/studies'];
// The studies there (a study's scenario may lie beside it).
const files = folders
  .flatMap((f) => readdirSync(path.join(root, f)).filter((n) => n.endsWith('.json')).map((n) => path.join(f, n)))
  .filter((f) => JSON.parse(readFileSync(path.join(root, f), 'utf8')).format === 'roverlab-study');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-schema-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('docs/study.schema.json', () => {
  test.each(files)('%s validates against the schema', (file) => {
    const ok = validate(JSON.parse(readFileSync(path.join(root, file), 'utf8')));
    expect(validate.errors ?? [], file).toEqual([]);
    expect(ok).toBe(true);
  });

  const base = JSON.parse(readFileSync(path.join(root, 'tests/data/studies/cli_wheel_step.json'), 'utf8'));
  const cases = [
    ['a range with values too', (s) => (s.parameters[0].from = 0.1), 'parameters[0]'],
    ['a predicate with two tests', (s) => (s.predicates.climbed.base_z_above = 0.1), 'predicates.climbed'],
    ['a built-in predicate redefined', (s) => (s.predicates.flipped = { base_z_above: 0.1 }), 'predicates.flipped'],
    ['a zero tolerance', (s) => (s.threshold.tolerance = 0), 'threshold.tolerance'],
    ['an unknown field', (s) => (s.surprise = 1), 'surprise'],
    ['repeats of 0', (s) => (s.repeats = 0), 'repeats'],
  ];
  test.each(cases)('%s: the schema and the reader refuse it', (_, change, at) => {
    const study = structuredClone(base);
    change(study);
    expect(validate(study)).toBe(false);
    const file = path.join(tmp, 'study.json');
    writeFileSync(file, JSON.stringify(study));
    const r = spawnSync(path.join(root, 'build/native/roverlab'), ['study', file], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).issues.map((i) => i.path)).toContain(at);
  });
});
