// Roverlab's WASM core side by side with MuJoCo's official WASM build
// (npm mujoco-js) on an equivalent articulated6 at the 0.65 m step, both under
// Node in the same process, wheels driven at 5 rad/s, dt = 0.4 ms; with the
// step alone and with 1 000 extra terrain boxes. Writes docs/benchmarks/mujoco.json.
//
//   node tests/bench/mujoco_bench.mjs     (after npm test, which builds the WASM core)
//
// Each figure: median of 5 fresh runs, 5 s simulated after a 0.5 s warm-up.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import loadMujoco from 'mujoco-js';

import { articulated6Mjcf } from './mujoco/articulated6.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 5;
const DT = 4e-4;
const WARM = Math.round(0.5 / DT);
const STEPS = Math.round(5 / DT);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const mujoco = await loadMujoco();
mujoco.FS.mkdir('/working');
mujoco.FS.mount(mujoco.MEMFS, { root: '.' }, '/working');
const { default: createRoverlabCore } = await import(path.join(root, 'web/src/wasm/roverlab_core.js'));
const core = await createRoverlabCore();

function mujocoRun(extraBoxes, integrator) {
  mujoco.FS.writeFile('/working/a6.xml', articulated6Mjcf({ extraBoxes, integrator }));
  const model = mujoco.MjModel.loadFromXML('/working/a6.xml');
  const data = new mujoco.MjData(model);
  for (let i = 0; i < 6; i++) data.ctrl[i] = 5;  // the six wheel motors, rad/s
  for (let i = 0; i < WARM; i++) mujoco.mj_step(model, data);
  const t0 = performance.now();
  for (let i = 0; i < STEPS; i++) mujoco.mj_step(model, data);
  const rate = STEPS / ((performance.now() - t0) / 1000);
  const result = { rate, x: data.qpos[0], z: data.qpos[2], ngeom: model.ngeom };
  data.delete();
  model.delete();
  return result;
}

function roverlabRun(extraBoxes) {
  const s = JSON.parse(readFileSync(path.join(root, 'terrains/step-articulated6.json'), 'utf8'));
  s.control = { wheel_speed: 5 };
  const side = Math.ceil(Math.sqrt(extraBoxes));
  for (let i = 0; i < extraBoxes; i++)
    s.terrain.boxes.push({ centre: [-10 + 0.6 * (i % side), 4 + 0.6 * Math.floor(i / side), 0.05], size: [0.5, 0.5, 0.1] });
  const world = new core.World(JSON.stringify(s));
  if (!world.ok()) throw new Error(JSON.stringify(world.issues()));
  world.step(WARM);
  const t0 = performance.now();
  for (let done = 0; done < STEPS; ) done += world.step(Math.min(1000, STEPS - done));
  const rate = STEPS / ((performance.now() - t0) / 1000);
  const frame = world.frame();
  const m = world.model();
  const o = m.layout.poses + m.layout.pose * m.base;
  const result = { rate, x: frame[o], z: frame[o + 2], pieces: m.terrain.pieces.length };
  world.delete();
  return result;
}

const loadBefore = os.loadavg();
const cases = {};
for (const extra of [0, 1000]) {
  const ours = Array.from({ length: RUNS }, () => roverlabRun(extra));
  const euler = Array.from({ length: RUNS }, () => mujocoRun(extra, 'Euler'));
  const implicit = Array.from({ length: RUNS }, () => mujocoRun(extra, 'implicitfast'));
  const summary = (runs) => ({
    steps_per_s: Math.round(median(runs.map((r) => r.rate))),
    real_time_factor: +(median(runs.map((r) => r.rate)) * DT).toFixed(2),
    base_after_5_5_s: { x: +runs[0].x.toFixed(3), z: +runs[0].z.toFixed(3) },
  });
  cases[extra ? `step + ${extra} boxes` : 'step'] = {
    roverlab_wasm: { ...summary(ours), terrain_pieces: ours[0].pieces },
    mujoco_wasm_euler: { ...summary(euler), geoms: euler[0].ngeom },
    mujoco_wasm_implicitfast: summary(implicit),
    roverlab_over_mujoco_euler: +(median(ours.map((r) => r.rate)) / median(euler.map((r) => r.rate))).toFixed(2),
  };
  console.log(extra, JSON.stringify(cases[extra ? `step + ${extra} boxes` : 'step']));
}
const result = {
  date: new Date().toISOString(),
  command: 'node tests/bench/mujoco_bench.mjs',
  mujoco: `mujoco-js 0.0.7, MuJoCo ${mujoco.mj_versionString()}`,
  node: process.version,
  model: 'tests/bench/mujoco/articulated6.mjs: articulated6 (126 kg, r = 0.19 m, wheelbase 0.86 m) before the 0.65 m step, wheels at 5 rad/s (velocity actuators kv 100, ±60 N·m), folds and extensions held by position actuators, friction 0.8, dt 0.4 ms, wheels as cylinders, only wheels collide',
  method: `median of ${RUNS} fresh runs, ${STEPS} steps (5 s) timed after ${WARM} warm-up steps, both WASM modules in one Node process`,
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load_average_before: loadBefore, load_average_after: os.loadavg() },
  target: 'Roverlab WASM ≥ 5× MuJoCo WASM steps/s',
  cases,
};
writeFileSync(path.join(root, 'docs/benchmarks/mujoco.json'), JSON.stringify(result, null, 2) + '\n');
