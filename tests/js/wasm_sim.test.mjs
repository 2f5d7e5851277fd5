// The same scenarios run natively (build/native/roverlab) and in the WASM
// core under Node give the same trajectory: both builds are IEEE double
// without fused multiply-add, so they differ at most through libm functions
// (sin, cos, exp, atan2), and after seconds of contact-rich motion the final
// poses still agree to the summary's resolution of 1e-6 m and 1e-6 rad. An
// impact magnifies those last-bit differences: step-articulated6 stops at
// 3.5 s, before its middle section's box strikes the step's face (3.63 s;
// 6 s later the builds differ by 13 µm).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

const cases = [
  ['step-articulated6.json', 3.5],
  ['block-planar-vehicle.json', 6],
  ['depression-rocker8.json', 10],
  ['profile-wheel-rig.json', 3],
  ['flat-wheel-walker.json', 3],
  // Heightmaps: a generated rough field and a ditch. On the rough field the
  // eight wheels switch among seam and crease contacts thousands of times, and
  // each switch can turn a last-bit difference of libm's sin/cos (see
  // tests/golden_hashes.json) into a different contact set for a step: after
  // 4 s the two builds agree to 2e-5 m and 7e-6 rad, so 1e-4 (m, rad) there.
  ['rough-field-rocker8.json', 4, 1e-4],
  ['heightmap-ditch-planar-vehicle.json', 5],
  // A mesh: the rubble patch's stones are creases and edges as the rough
  // field's are (the same 1e-4 and the same reason).
  ['rubble-articulated6.json', 3, 1e-4],
];

test.each(cases)('%s for %s s: native and WASM agree', (file, seconds, metres = 1e-6) => {
  const scenario = path.join(root, 'terrains', file);
  const wasm = core.runScenario(readFileSync(scenario, 'utf8'), seconds);
  expect(wasm.ok).toBe(true);
  const native = JSON.parse(
    spawnSync(cli, ['run', scenario, '--duration', String(seconds)], { encoding: 'utf8' }).stdout,
  );
  const w = wasm.summary;
  expect(w.ok).toBe(true);
  expect(native.ok).toBe(true);
  expect(w.steps).toBe(native.steps);
  for (let k = 0; k < 3; k++) expect(Math.abs(w.base.position_m[k] - native.base.position_m[k])).toBeLessThanOrEqual(metres);
  for (const angle of ['yaw_rad', 'pitch_rad', 'roll_rad']) {
    const d = Math.abs(w.base[angle] - native.base[angle]);
    expect(Math.min(d, 2 * Math.PI - d)).toBeLessThanOrEqual(metres);  // ±π is one heading; rad, the same bound
  }
  expect(w.wheels.map((x) => x.in_contact)).toEqual(native.wheels.map((x) => x.in_contact));
  expect(keyPaths(w)).toEqual(keyPaths(native));  // one describer (core/sim/describe.h) for both
});

/** Every key path of a JSON value ("base.position_m", "wheels[].name", ...), sorted. */
function keyPaths(value, prefix = '') {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => keyPaths(v, `${prefix}[]`)))].sort();
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k)).sort();
}

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
