// Controller programs on the WASM core in Node (tools/roverlab.mjs,
// web/src/controller/program.js): the tool prints the native command line's
// summary and CSV; a program that does what a timed script does gives the
// scripted run's state_hash, bit for bit; and hostile programs (a syntax
// error, an import, a throw, an endless loop in update or in init, NaN and
// huge commands, gigabytes of memory, the network) each stop cleanly with a
// message naming what and where, within seconds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { compileProgram, ProgramError, ProgramRun } from '../../web/src/controller/program.js';
import { loadWasmCore, root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const tool = path.join(root, 'tools/roverlab.mjs');
let core;
let tmp;

beforeAll(async () => {
  core = await loadWasmCore();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-controller-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A file in the test's folder. */
function file(name, text) {
  const f = path.join(tmp, name);
  writeFileSync(f, text);
  return f;
}

/** tools/roverlab.mjs with `args`: its exit status, summary (parsed) and stderr. */
function node(...args) {
  const r = spawnSync(process.execPath, [tool, ...args], { encoding: 'utf8', timeout: 60_000 });
  let summary = null;
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    // left null: the test says what it expected
  }
  return { status: r.status, summary, stderr: r.stderr, stdout: r.stdout };
}

/** The summary without what the wall clock measured; -0 as 0, as JSON.stringify writes it. */
const physics = (s) => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k]) => !['wall_s', 'steps_per_s', 'real_time_factor', 'program'].includes(k)))));

const scenario = (name) => path.join(root, 'terrains', name);

describe('tools/roverlab.mjs run, the native command line on the WASM core', () => {
  test.each([['step-articulated6.json', '2'], ['rough-field-rocker8.json', '1.5']])('%s: the same summary as roverlab run', (name, seconds) => {
    const mine = node('run', scenario(name), '--duration', seconds, '--set', 'control.wheel_speed=2.5');
    const native = JSON.parse(spawnSync(cli, ['run', scenario(name), '--duration', seconds, '--set', 'control.wheel_speed=2.5'], { encoding: 'utf8' }).stdout);
    expect(mine.status).toBe(0);
    expect(physics(mine.summary)).toEqual(physics(native));
  });

  test('--csv writes the native tool’s CSV, number for number', () => {
    const a = path.join(tmp, 'wasm.csv');
    const b = path.join(tmp, 'native.csv');
    expect(node('run', scenario('flat-wheel-walker.json'), '--duration', '0.5', '--csv', a, '--csv-rate', '40').status).toBe(0);
    expect(spawnSync(cli, ['run', scenario('flat-wheel-walker.json'), '--duration', '0.5', '--csv', b, '--csv-rate', '40']).status).toBe(0);
    const [mine, native] = [a, b].map((f) => readFileSync(f, 'utf8').trimEnd().split('\n'));
    expect(mine).toHaveLength(21);  // the start and 20 rows at 40 Hz
    expect(mine).toEqual(native);
  });

  test('usage errors and an invalid scenario answer as the native tool does', () => {
    expect(node('walk').status).toBe(2);
    expect(node('run', scenario('flat-rocker8.json'), '--bogus').stderr).toMatch(/unknown option --bogus/);
    const bad = node('run', scenario('flat-rocker8.json'), '--set', 'simulation.dt=5');
    expect(bad.status).toBe(1);
    expect(bad.summary.issues[0].path).toBe('simulation.dt');
  });
});

describe('a program in the loop', () => {
  // The flat rocker at 2 rad/s, 4 rad/s from t = 1 s: as a timed script, and as a program
  // updated every step (its period the step), which sees the same time at the same step. A
  // script entry applies within 1e-12 s of its time (sim/simulation.cpp): so does the program.
  const base = () => JSON.parse(readFileSync(scenario('flat-rocker8.json'), 'utf8'));
  const speedProgram = `export default {
  period: 0.0004,
  update(obs) { return { wheel_speed: obs.time_s + 1e-12 < 1 ? 2 : 4 }; },
};`;

  test('does what a timed script does: the native scripted run’s state_hash, bit for bit', () => {
    const scripted = base();
    scripted.control = { wheel_speed: 2, script: [{ t: 1, wheel_speed: 4 }] };
    scripted.simulation.duration = 2;
    const native = JSON.parse(spawnSync(cli, ['run', file('scripted.json', JSON.stringify(scripted))], { encoding: 'utf8' }).stdout);
    const plain = base();
    plain.simulation.duration = 2;
    const run = node('run', file('plain.json', JSON.stringify(plain)), '--controller', file('speed.mjs', speedProgram));
    expect(run.status).toBe(0);
    expect(run.summary.program).toMatchObject({ period_s: 0.0004, updates: 5000, warnings: 0 });
    expect(run.summary.state_hash).toBe(native.state_hash);
    expect(physics(run.summary)).toEqual(physics(native));
  });

  test('carried by the scenario (control.program): the tool runs it, the native tool refuses it at its path', () => {
    const carried = base();
    carried.simulation.duration = 0.5;
    carried.control = { program: { language: 'javascript', source: speedProgram } };
    const f = file('carried.json', JSON.stringify(carried));
    const run = node('run', f);
    expect(run.status).toBe(0);
    expect(run.summary.program.updates).toBe(1250);
    const native = spawnSync(cli, ['run', f], { encoding: 'utf8' });
    expect(native.status).toBe(1);
    expect(JSON.parse(native.stdout).issues).toEqual([{ path: 'control.program', message: expect.stringMatching(/nobody to run the javascript program/) }]);
    carried.control.controller = 'step-climb';
    expect(JSON.parse(spawnSync(cli, ['validate', file('both.json', JSON.stringify(carried))], { encoding: 'utf8' }).stdout).issues[0].path).toBe('control.program');
  });

  test('sees the world: obs and init(model) in the scenario’s vocabulary, units in the names', () => {
    const text = JSON.stringify({ ...base(), simulation: { duration: 0.2 } });
    const world = new core.World(text);
    const compiled = compileProgram(`export default { init(m) { this.m = m; }, update(obs) { this.first ??= obs; this.obs = obs; } };`);
    const run = new ProgramRun(world, compiled);
    run.step(250);  // updates every 0.01 s; the robot lands on its wheels at 0.03 s
    const model = run.program.m;
    const seen = run.program.obs;
    expect(model).toMatchObject({ robot: 'rocker8', dt_s: 0.0004, period_s: 0.01, duration_s: 0.2 });
    expect(model.wheels.map((w) => w.name)).toEqual(['wheel_1', 'wheel_2', 'wheel_3', 'wheel_4', 'wheel_5', 'wheel_6', 'wheel_7', 'wheel_8']);
    expect(model.actuators).toContain('wheel_1');
    // At t = 0 no step has evaluated contacts yet (and the robot starts just above the ground).
    expect(run.program.first.time_s).toBe(0);
    expect(run.program.first.wheels.wheel_1.touches).toEqual([]);
    expect(seen.time_s).toBeCloseTo(0.09, 12);  // the last update before step 250
    expect(Object.keys(seen.base)).toEqual(['x_m', 'y_m', 'z_m', 'yaw_rad', 'pitch_rad', 'roll_rad', 'vx_m_s', 'vy_m_s', 'vz_m_s', 'wx_rad_s', 'wy_rad_s', 'wz_rad_s']);
    expect(Object.keys(seen.joints)).toEqual(['rocker_1', 'rocker_2', 'rocker_3', 'rocker_4']);
    const wheel = seen.wheels.wheel_1;
    expect(wheel.contacts).toBe(1);
    expect(wheel.touches).toHaveLength(1);
    expect(wheel.touches[0].nz).toBeCloseTo(1, 9);  // flat ground
    expect(wheel.normal_N).toBeGreaterThan(100);
    world.delete();
  });
});

describe('hostile programs stop cleanly, with what and where', () => {
  const short = () => file('short.json', JSON.stringify({ ...JSON.parse(readFileSync(scenario('flat-rocker8.json'), 'utf8')), simulation: { duration: 1 } }));
  const runProgram = (name, source) => node('run', short(), '--controller', file(name, source));

  test('a syntax error and an import are refused with their line before anything runs', () => {
    const syntax = runProgram('syntax.mjs', 'export default {\n  update(obs) {\n    return { wheel_speed: 1 +* 2 };\n  },\n};\n');
    expect(syntax.status).toBe(5);
    expect(syntax.summary.error).toMatch(/^syntax\.mjs:3:\d+: Unexpected token/);
    const imports = runProgram('imports.mjs', 'import fs from "node:fs";\nexport default { update() {} };\n');
    expect(imports.summary.error).toMatch(/^imports\.mjs:1:1: a controller program cannot import anything/);
    const dynamic = runProgram('dynamic.mjs', 'export default {\n  update() { import("node:fs"); },\n};\n');
    expect(dynamic.summary.error).toMatch(/^dynamic\.mjs:2:\d+: a controller program cannot import anything/);
    expect(runProgram('none.mjs', 'const x = 1;\n').summary.error).toMatch(/must end in export default/);
  });

  test('a throw stops the run with the line that threw', () => {
    const r = runProgram('throws.mjs', 'export default {\n  update(obs) {\n    if (obs.time_s > 0.5) throw new Error("lost");\n    return { wheel_speed: 1 };\n  },\n};\n');
    expect(r.status).toBe(5);
    expect(r.summary.error).toMatch(/^line 3: update at t = 0\.5\d* s: Error: lost$/);
    expect(r.summary.ok).toBe(false);
    expect(r.summary.outcome).toBe('program_error');
    expect(r.summary.time_s).toBeGreaterThanOrEqual(0.5);  // stopped at that update
  });

  test('an update that never returns, and a while (true) in init, are stopped by the watchdog within seconds', () => {
    for (const [name, source] of [
      ['loop.mjs', 'export default { update(obs) { if (obs.time_s > 0.2) while (true) {} return { wheel_speed: 1 }; } };'],
      ['init.mjs', 'export default { init() { for (;;) {} }, update() {} };'],
    ]) {
      const started = Date.now();
      const r = runProgram(name, source);
      expect(r.status, name).toBe(5);
      expect(r.summary.error).toMatch(/did not return within 2 s/);
      expect(Date.now() - started).toBeLessThan(8000);
    }
  }, 30_000);

  test('updates past their time budget stop the run (the second in a row), saying how long it took', () => {
    const r = runProgram('slow.mjs', 'export default { update(obs) { const t = Date.now(); while (Date.now() - t < 120) {} return {}; } };');
    expect(r.status).toBe(5);
    expect(r.summary.error).toMatch(/^update took \d+ ms at t = 0\.01 s; updates may take at most 50 ms \(one past it is let pass\)$/);
  });

  test('NaN, strings, unknown names and huge speeds are ignored or clamped, with a warning each, and the run goes on', () => {
    const r = runProgram('wild.mjs', `export default { update(obs) {
  return { wheel_speed: obs.time_s < 0.5 ? 1e9 : NaN, joints: { nope: 1 }, actuators: { wheel_1: 'fast' }, left_speed: Infinity, fly: true };
} };`);
    expect(r.status).toBe(0);
    expect(r.summary.program.warnings).toBe(5);
    expect(r.stderr).toMatch(/commanded values beyond the robot's limits/);
    expect(r.stderr).toMatch(/wheel_speed = NaN, not a number; ignored/);
    expect(r.stderr).toMatch(/joints\.nope, but the robot has no such joint drive/);
    expect(r.stderr).toMatch(/actuators\.wheel_1 = "fast", not a number/);
    expect(r.stderr).toMatch(/update returned fly, which is not a command/);
    // Driven at the robot's limit (max_wheel_speed), not at 1e9 rad/s.
    expect(r.summary.base.position_m[0]).toBeLessThan(5);
  });

  test('gigabytes of memory stop the program, not the machine', () => {
    const started = Date.now();
    const r = runProgram('memory.mjs', 'export default { update() { const hoard = []; for (;;) hoard.push(new Array(1e6).fill(1.5)); } };');
    expect(r.status).toBe(5);
    expect(r.summary.error).toMatch(/ran out of memory|did not return/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test('a Proxy or a throwing getter, in the command or in period, stops the run at the program’s line', () => {
    for (const [name, source, what] of [
      ['proxy.mjs', 'export default {\n  update() {\n    return new Proxy({}, { ownKeys() { throw new Error("trap"); } });\n  },\n};\n', 'update'],
      ['getter.mjs', 'export default {\n  update() {\n    return { get wheel_speed() { throw new RangeError("getter"); } };\n  },\n};\n', 'update'],
      ['period.mjs', 'export default {\n  get period() { throw new Error("no period"); },\n  update() {},\n};\n', 'reading the program'],
    ]) {
      const r = runProgram(name, source);
      expect(r.status, name).toBe(5);
      expect(r.summary.error, name).toMatch(new RegExp(`^line [23]: ${what} at t = 0 s: (Range)?Error: `));
    }
  });

  test('no network and no way to load code: fetch, importScripts, the global object', () => {
    for (const [name, call] of [['fetch', 'fetch("http://example.com")'], ['importScripts', 'importScripts("x.js")'], ['global', 'globalThis.fetch("x")'], ['escape', 'Function("return this")().fetch("x")'], ['require', 'require("node:fs")']]) {
      const r = runProgram(`${name}.mjs`, `export default {\n  update() {\n    ${call};\n  },\n};\n`);
      expect(r.status, name).toBe(5);
      expect(r.summary.error, name).toMatch(/^line 3: update at t = 0 s: TypeError: /);
    }
  });

  test('the built-ins the host calls are frozen: a program cannot fool its clock or change JSON, Math or Array for it', () => {
    // Each assignment throws in the program's strict code (its line, a TypeError); the host's
    // budget then holds for a program that would have stopped the clock.
    for (const [name, change] of [['clock', 'performance.now = () => 0'], ['clock-proto', 'Object.getPrototypeOf(performance).now = () => 0'], ['json', 'JSON.stringify = () => "{}"'], ['math', 'Math = {}'], ['array', 'Array.prototype.map = null'], ['typed', 'Float64Array.prototype.fill = null'], ['object', 'Object.entries = () => []']]) {
      const r = runProgram(`${name}.mjs`, `export default {\n  init() {\n    ${change};\n  },\n  update() {},\n};\n`);
      expect(r.status, name).toBe(5);
      expect(r.summary.error, name).toMatch(/^line 3: init at t = 0 s: TypeError: /);
    }
    const sly = runProgram('sly.mjs', 'export default {\n  init() {\n    try { performance.now = () => 0; } catch {}\n  },\n  update() { const t = Date.now(); while (Date.now() - t < 120) {} },\n};\n');
    expect(sly.status).toBe(5);
    expect(sly.summary.error).toMatch(/^update took \d+ ms at t = 0\.01 s/);
  });

  test('compileProgram and ProgramRun refuse what is not a program', () => {
    expect(compileProgram(42)).toMatchObject({ ok: false });
    const world = new core.World(readFileSync(scenario('flat-rocker8.json'), 'utf8'));
    expect(() => new ProgramRun(world, compileProgram('export default 3;'))).toThrow(ProgramError);
    expect(() => new ProgramRun(world, compileProgram('export default { update: 1 };'))).toThrow(/has no update\(obs\) function/);
    expect(() => new ProgramRun(world, compileProgram('export default { period: 1e-9, update() {} };'))).toThrow(/period must be a number of seconds in \[0.0004, 5\]/);
    world.delete();
  });
});
