// Presets are descriptions: every scenario in terrains/ run with its preset
// replaced by that preset's description (`roverlab robot PRESET --set
// robot.params...`, given inline as robot.model) reaches the same state_hash,
// natively and in the WASM core.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'build/native/roverlab');
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const seconds = 1; // 2 500 steps at the default dt: contacts, drives and limits all act
const tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-model-'));
let core;

beforeAll(async () => {
  for (const f of [modulePath, cli]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  core = await createRoverlabCore();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runCli(args) {
  const run = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

// The scenario with its robot given as the preset's description.
function asModel(scenario) {
  const { preset, params = {}, ...rest } = scenario.robot;
  const sets = Object.entries(params).flatMap(([k, v]) => ['--set', `robot.params.${k}=${v}`]);
  const printed = runCli(['robot', preset, ...sets]);
  expect(printed.status, printed.err).toBe(0);
  return { ...scenario, robot: { ...rest, model: JSON.parse(printed.out) } };
}

const files = readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json'));

describe.each(files)('%s', (file) => {
  test('its preset and the preset\'s description run to the same state_hash, natively and in WASM', () => {
    const text = readFileSync(path.join(root, 'terrains', file), 'utf8');
    const scenario = JSON.parse(text);
    const model = asModel(scenario);
    expect(model.robot.model.name).toBe(scenario.robot.preset);
    const modelFile = path.join(tmp, file);
    writeFileSync(modelFile, JSON.stringify(model));
    const native = [path.join(root, 'terrains', file), modelFile].map((f) => {
      const run = runCli(['run', f, '--duration', String(seconds)]);
      expect([0, 3, 4], run.err).toContain(run.status);
      return JSON.parse(run.out);
    });
    expect(native[1].state_hash).toBe(native[0].state_hash);
    expect(native[1].steps).toBe(native[0].steps);
    const wasm = [text, JSON.stringify(model)].map((t) => core.runScenario(t, seconds));
    for (const run of wasm) expect(run.ok).toBe(true);
    expect(wasm[1].summary.state_hash).toBe(wasm[0].summary.state_hash);
  });
});

test('a description that differs in one number runs differently', () => {
  const scenario = JSON.parse(readFileSync(path.join(root, 'terrains', files[0]), 'utf8'));
  const model = asModel(scenario);
  const changed = structuredClone(model);
  changed.robot.model.links[0].mass *= 1.001;
  const [a, b] = [model, changed].map((s) => core.runScenario(JSON.stringify(s), 0.2));
  expect(a.ok && b.ok).toBe(true);
  expect(b.summary.state_hash).not.toBe(a.summary.state_hash);
});
