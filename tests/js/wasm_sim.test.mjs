// Every scenario in terrains/ run for its whole duration natively
// (build/native/roverlab) and in the WASM core under Node gives the same
// summary, state_hash included, bit for bit: both builds are IEEE double
// without fused multiply-add, compute their elementary functions with the
// core's own (common/elementary.h) and run Eigen's scalar code. Only the wall
// time and the speeds measured with it differ.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const cli = path.join(root, 'build/native/roverlab');
let core;

beforeAll(async () => {
  for (const f of [modulePath, cli]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  core = await createRoverlabCore();
});

const scenarios = readdirSync(path.join(root, 'terrains')).filter((n) => n.endsWith('.json')).sort();
/** A summary without what the wall clock measured. */
const physics = (summary) => Object.fromEntries(Object.entries(summary).filter(([k]) => !['wall_s', 'steps_per_s', 'real_time_factor'].includes(k)));

test('every scenario of terrains/ is among the cases', () => expect(scenarios.length).toBeGreaterThanOrEqual(18));

test.each(scenarios)('%s: native and WASM give the same summary and state_hash', (file) => {
  const scenario = path.join(root, 'terrains', file);
  const wasm = core.runScenario(readFileSync(scenario, 'utf8'), 0);
  expect(wasm.ok).toBe(true);
  const native = JSON.parse(spawnSync(cli, ['run', scenario], { encoding: 'utf8' }).stdout);
  expect(native.state_hash).toMatch(/^[0-9a-f]{16}$/);
  expect(physics(wasm.summary)).toEqual(physics(native));  // one describer (core/sim/describe.h) for both
});

test('an invalid scenario comes back as issues, not an exception', () => {
  const r = core.runScenario('{"format": "roverlab-scenario", "version": 2}', 1);
  expect(r.ok).toBe(false);
  expect(r.issues[0].path).toBe('version');
  const bad = core.runScenario('not json', 1);
  expect(bad.ok).toBe(false);
  expect(bad.issues[0].message).toMatch(/^not valid JSON/);
});

test('a run that leaves the terrain reports it like the command-line tool', () => {
  const scenario = path.join(root, 'terrains', 'depression-rocker8.json');
  const wasm = core.runScenario(readFileSync(scenario, 'utf8'), 120);
  expect(wasm.ok).toBe(true);  // the scenario was valid and ran
  const native = JSON.parse(spawnSync(cli, ['run', scenario, '--duration', '120'], { encoding: 'utf8' }).stdout);
  for (const summary of [wasm.summary, native]) {
    expect(summary.ok).toBe(false);
    expect(summary.outcome).toBe('left_terrain');
    expect(summary.error).toMatch(/^left the terrain at t = /);
  }
  expect(wasm.summary.error).toBe(native.error);
  expect(wasm.summary.steps).toBe(native.steps);
});

test('World: outcome(), error() and the stop flag of the frame once the robot left the terrain', () => {
  const text = JSON.parse(readFileSync(path.join(root, 'terrains', 'flat-wheel-rig.json'), 'utf8'));
  text.terrain.boxes[0].centre = [0.5, 0, -0.5];  // a 3 m slab, x from -1 to 2
  text.terrain.boxes[0].size = [3, 6, 1];
  text.control.wheel_speed = 10;
  const world = new core.World(JSON.stringify(text));
  expect(world.ok()).toBe(true);
  expect(world.outcome()).toBe('ok');
  expect(world.model().warnings).toEqual([]);
  const taken = world.step(25000);  // 10 s at 0.4 ms
  expect(taken).toBeLessThan(25000);
  expect(world.outcome()).toBe('left_terrain');
  expect(world.error()).toMatch(/^left the terrain at t = /);
  expect(world.frame()[2]).toBe(1);
  expect(world.step(10)).toBe(0);  // stopped for good
  world.reset();
  expect(world.outcome()).toBe('ok');
  world.delete();
});

test('World: warnings of a step far above the default', () => {
  const text = JSON.parse(readFileSync(path.join(root, 'terrains', 'flat-wheel-rig.json'), 'utf8'));
  text.robot.params = { wheel_inertia: 1, tire_stiffness: 1e5, tread_stiffness: 4e4, tread_damping: 1500 };
  text.simulation.dt = 0.01;
  const world = new core.World(JSON.stringify(text));
  expect(world.ok()).toBe(true);
  const [warning] = world.warnings();
  expect(warning.path).toBe('simulation.dt');
  expect(warning.message).toMatch(/25× the default step/);
  expect(world.model().warnings).toEqual(world.warnings());
  world.delete();
});
