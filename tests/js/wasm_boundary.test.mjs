// The WASM boundary under hostile input: every entry point answers with
// { ok: false, issues } (or false from a setter) and never throws, the module
// stays usable afterwards, and the native tool refuses the same documents at
// the same paths (docs/scenario-format.md, "Limits").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { loadWasmCore, root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const flat = readFileSync(path.join(root, 'terrains/flat-wheel-rig.json'), 'utf8');
let core;
let tmp;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
  core = await loadWasmCore();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-boundary-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The flat scenario with `extra` (JSON text of more top-level fields) inserted. */
const withField = (extra) => flat.replace(/^\{/, `{${extra}, `);

/** Refusal of a document by the WASM core and by the CLI, each as its issue list. */
function refusals(text) {
  let world;
  expect(() => {
    world = new core.World(text);
  }).not.toThrow();
  const wasm = world.ok() ? [] : world.issues();
  world.delete();
  const file = path.join(tmp, 'case.json');
  writeFileSync(file, text);
  const r = spawnSync(cli, ['validate', file], { encoding: 'utf8', timeout: 10_000 });
  expect(r.signal).toBeNull();
  expect([0, 1]).toContain(r.status);
  const native = r.status === 0 ? [] : JSON.parse(r.stdout).issues;
  return { wasm, native };
}

const deep = (open, close, n) => open.repeat(n) + '1' + close.repeat(n);

describe('documents the reader refuses, alike in WASM and natively', () => {
  const cases = [
    ['nesting 100 000 deep (arrays)', withField(`"x": ${deep('[', ']', 100000)}`), 'x[0]', 'nested more than 64'],
    ['nesting 100 000 deep (objects)', withField(`"x": ${deep('{"a": ', '}', 100000)}`), 'x.a', 'nested more than 64'],
    ['version nested 5 000 deep', flat.replace('"version": 1', `"version": ${deep('[', ']', 5000)}`), 'version', 'nested'],
    ['a duplicate key', withField('"name": "a", "name": "b"'), 'name', 'duplicate key'],
    ['an overflowing number', withField('"name": 1e400'), 'name', 'number overflow'],
    ['version 2^32 + 1', flat.replace('"version": 1', '"version": 4294967297'), 'version', '4294967297'],
    ['a lone surrogate escaped', withField('"name": "\\ud800"'), 'name', 'not valid JSON'],
  ];
  test.each(cases)('%s', (_, text, pathStart, part) => {
    const { wasm, native } = refusals(text);
    expect(wasm.length).toBeGreaterThan(0);
    expect(wasm[0].path.startsWith(pathStart), JSON.stringify(wasm[0])).toBe(true);
    expect(wasm[0].message).toContain(part);
    expect(wasm[0].message.length).toBeLessThan(300);
    expect(native).toEqual(wasm);
  });

  test('3 000 identical boxes: each refused, naming the first', () => {
    const doc = JSON.parse(flat);
    const box = { centre: [5, 0, 0.2], size: [1, 1, 0.4] };
    doc.terrain.boxes = [...(doc.terrain.boxes ?? []), ...Array.from({ length: 3000 }, () => box)];
    const { wasm, native } = refusals(JSON.stringify(doc));
    expect(wasm[0].message).toMatch(/^overlaps terrain\.boxes\[\d+\] by 400\.0 mm/);
    expect(wasm.at(-1).message).toMatch(/^and \d+ more issues$/);
    expect(native).toEqual(wasm);
  });
});

describe('entry points never throw and the module keeps working', () => {
  test('runScenario refuses times it cannot run', () => {
    for (const seconds of [Infinity, 1e300, NaN, 1e6]) {
      const r = core.runScenario(flat, seconds);
      expect(r.ok, String(seconds)).toBe(false);
      expect(r.issues[0].path).toBe('seconds');
    }
    expect(core.runScenario(flat, 0.1).summary.steps).toBe(250);
  });

  test('non-finite commands are refused and the run goes on', () => {
    const world = new core.World(readFileSync(path.join(root, 'terrains/flat-articulated6.json'), 'utf8'));
    expect(world.ok()).toBe(true);
    expect(world.setWheelSpeeds(NaN, NaN)).toBe(false);
    expect(world.setWheelSpeeds(Infinity, 1)).toBe(false);
    expect(world.setJointTarget('fold_front', NaN)).toBe(false);
    expect(world.setWheelSpeeds(2, 2)).toBe(true);
    expect(world.step(500)).toBe(500);
    expect(world.error()).toBe('');
    world.delete();
  });

  test('number lists with a huge length are refused before any allocation', () => {
    const link = { L: 1, phiStart: 0, phiEnd: 1, l: 0.5, b: 0.5, alpha: 0 };
    const r = core.crawlerLinkContact({ ...link, A: { length: 1e9 } });
    expect(r.ok).toBe(false);
    expect(r.issues).toEqual([{ path: 'A', message: 'must be an array of numbers' }]);
    const big = core.crawlerLinkContact({ ...link, A: new Float64Array(2 ** 20 + 3) });
    expect(big.ok).toBe(false);
    expect(big.issues).toEqual([{ path: 'A', message: 'has more than 1048576 numbers' }]);
  });

  test('after all of the above, a valid scenario still runs', () => {
    const r = core.runScenario(flat, 0.2);
    expect(r.ok).toBe(true);
    expect(r.summary.outcome).toBe('ok');
  });
});

test('entry points given something other than a JSON string say so', () => {
  for (const bad of [undefined, null, 42, {}, ['{}']]) {
    const world = new core.World(bad);
    expect(world.ok()).toBe(false);
    expect(world.issues()[0].message).toMatch(/^must be the scenario's JSON text \(a string\), got /);
    world.delete();
    expect(core.runScenario(bad, 1).ok).toBe(false);
    expect(core.inspectTerrain(bad).ok).toBe(false);
    expect(core.rockerPlayback(bad, 0.1).ok).toBe(false);
    expect(core.moveTrack1Node(bad, 0, 0, 1).ok).toBe(false);
  }
  const huge = ' '.repeat(16 * 1024 * 1024 + 1);
  expect(core.runScenario(huge, 1).issues[0].message).toMatch(/longer than 16777216 bytes/);
});
