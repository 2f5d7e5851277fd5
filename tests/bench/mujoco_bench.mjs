// Roverlab's WASM core side by side with MuJoCo's official WASM build
// (npm mujoco-js) on an equivalent articulated6 at the 0.65 m step, both under
// Node in the same process, wheels driven at 5 rad/s, dt = 0.4 ms; with the
// step alone and with 1 000 extra terrain boxes. Writes docs/benchmarks/mujoco.json.
//
//   node tests/bench/mujoco_bench.mjs [--wasm=DIR] [--runs=N] [--out=FILE]
//
// --wasm (or ROVERLAB_WASM_DIR) is the directory holding roverlab_core.js and
// roverlab_core.wasm (default web/src/wasm, where `npm run build:wasm` writes).
//
// Method. V8 compiles WebAssembly twice: first with its baseline compiler
// (Liftoff), then hot functions again with the optimising one (TurboFan), in
// the background. A module whose code runs for the first time is therefore slow
// for a while, and whichever engine or case is timed first pays for it. So:
//   1. warm-up: every (case, engine) pair runs completely, untimed, until two runs in a
//      row agree within 5 % (with link-time optimisation the core's step is a few large
//      functions, which V8 swaps in only after several runs);
//   2. the timed runs are interleaved: round r runs every case and engine once,
//      the engine order rotating from round to round, so a change of machine
//      load during the benchmark hits all of them alike;
//   3. each figure is the median of RUNS rounds; the ratio is also given per
//      round (Roverlab / MuJoCo Euler in the same round) with its median.
// A run is a fresh model: 0.5 s simulated untimed, then 5 s simulated timed.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import loadMujoco from 'mujoco-js';

import { articulated6Mjcf } from './mujoco/articulated6.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const wasmDir = path.resolve(arg('wasm') ?? process.env.ROVERLAB_WASM_DIR ?? path.join(root, 'web/src/wasm'));
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/mujoco.json'));
const RUNS = Number(arg('runs') ?? 7);
const DT = 4e-4;
const WARM = Math.round(0.5 / DT);
const STEPS = Math.round(5 / DT);
// Issue 34's target: Roverlab's steps per second over MuJoCo's (Euler), the median of the per-round ratios.
const TARGET = 10;
const CASES = [0, 1000];
const ENGINES = ['roverlab_wasm', 'mujoco_wasm_euler', 'mujoco_wasm_implicitfast'];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => os.loadavg().map((x) => +x.toFixed(2));

const mujoco = await loadMujoco();
mujoco.FS.mkdir('/working');
mujoco.FS.mount(mujoco.MEMFS, { root: '.' }, '/working');
const { default: createRoverlabCore } = await import(pathToFileURL(path.join(wasmDir, 'roverlab_core.js')).href);
const core = await createRoverlabCore({ wasmBinary: readFileSync(path.join(wasmDir, 'roverlab_core.wasm')) });

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

const scenarioText = {};
function roverlabScenario(extraBoxes) {
  if (scenarioText[extraBoxes]) return scenarioText[extraBoxes];
  const s = JSON.parse(readFileSync(path.join(root, 'terrains/step-articulated6.json'), 'utf8'));
  s.control = { wheel_speed: 5 };
  const side = Math.ceil(Math.sqrt(extraBoxes));
  for (let i = 0; i < extraBoxes; i++)
    s.terrain.boxes.push({ centre: [-10 + 0.6 * (i % side), 4 + 0.6 * Math.floor(i / side), 0.05], size: [0.5, 0.5, 0.1] });
  return (scenarioText[extraBoxes] = JSON.stringify(s));
}

function roverlabRun(extraBoxes) {
  const world = new core.World(roverlabScenario(extraBoxes));
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

const run = (engine, extra) =>
  engine === 'roverlab_wasm' ? roverlabRun(extra)
  : mujocoRun(extra, engine === 'mujoco_wasm_euler' ? 'Euler' : 'implicitfast');
const caseName = (extra) => (extra ? `step + ${extra} boxes` : 'step');

const loadBefore = load();
const t0 = performance.now();
// 1. Warm-up: every pair untimed until two runs in a row agree within 5 % (at most 10; the rates
// are kept for the record): the optimising tier swaps in the core's large functions only after
// several runs.
const warmup = {};
for (const extra of CASES)
  for (const engine of ENGINES) {
    const rates = [run(engine, extra).rate];
    while (rates.length < 10) {
      rates.push(run(engine, extra).rate);
      if (Math.abs(rates.at(-1) / rates.at(-2) - 1) < 0.05) break;
    }
    warmup[`${caseName(extra)} / ${engine}`] = rates.map(Math.round);
  }
console.log('warm-up', JSON.stringify(warmup));
// 2. Interleaved timed rounds.
const runs = Object.fromEntries(CASES.map((e) => [e, Object.fromEntries(ENGINES.map((g) => [g, []]))]));
const loads = [];
for (let r = 0; r < RUNS; r++) {
  for (const extra of CASES)
    for (let k = 0; k < ENGINES.length; k++) {
      const engine = ENGINES[(k + r) % ENGINES.length];
      runs[extra][engine].push(run(engine, extra));
    }
  loads.push(load()[0]);
  console.log('round', r + 1, 'of', RUNS, 'load', loads.at(-1));
}
const seconds = (performance.now() - t0) / 1000;

const cases = {};
for (const extra of CASES) {
  const summary = (rs) => {
    const rates = rs.map((x) => x.rate);
    return {
      steps_per_s: Math.round(median(rates)),
      real_time_factor: +(median(rates) * DT).toFixed(2),
      min_steps_per_s: Math.round(Math.min(...rates)),
      max_steps_per_s: Math.round(Math.max(...rates)),
      runs_steps_per_s: rates.map(Math.round),
      base_after_5_5_s: { x: +rs[0].x.toFixed(3), z: +rs[0].z.toFixed(3) },
    };
  };
  const ours = runs[extra].roverlab_wasm, euler = runs[extra].mujoco_wasm_euler;
  const perRound = ours.map((o, i) => o.rate / euler[i].rate);
  cases[caseName(extra)] = {
    roverlab_wasm: { ...summary(ours), terrain_pieces: ours[0].pieces },
    mujoco_wasm_euler: { ...summary(euler), geoms: euler[0].ngeom },
    mujoco_wasm_implicitfast: summary(runs[extra].mujoco_wasm_implicitfast),
    roverlab_over_mujoco_euler: +(median(ours.map((r) => r.rate)) / median(euler.map((r) => r.rate))).toFixed(2),
    roverlab_over_mujoco_euler_per_round: perRound.map((x) => +x.toFixed(2)),
    roverlab_over_mujoco_euler_per_round_median: +median(perRound).toFixed(2),
    target_met: median(perRound) >= TARGET,
  };
  console.log(caseName(extra), JSON.stringify(cases[caseName(extra)]));
}
const wasmBytes = readFileSync(path.join(wasmDir, 'roverlab_core.wasm'));
const result = {
  date: new Date().toISOString(),
  command: `node tests/bench/mujoco_bench.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
  mujoco: `mujoco-js ${JSON.parse(readFileSync(path.join(root, 'node_modules/mujoco-js/package.json'), 'utf8')).version}, MuJoCo ${mujoco.mj_versionString()}`,
  roverlab_wasm: { bytes: wasmBytes.length },
  node: process.version,
  model: 'tests/bench/mujoco/articulated6.mjs: articulated6 (126 kg, r = 0.19 m, wheelbase 0.86 m) before the 0.65 m step, wheels at 5 rad/s (velocity actuators kv 100, ±60 N·m), folds and extensions held by position actuators, friction 0.8, dt 0.4 ms, wheels as cylinders, only wheels collide',
  method: `both WASM modules in one Node process; a run is a fresh model, ${WARM} steps (0.5 s) untimed then ${STEPS} steps (5 s) timed; first every case and engine ran untimed until two runs in a row agreed within 5 % (V8 tiers WASM up from Liftoff to TurboFan while it runs; warmup_steps_per_s), then ${RUNS} interleaved rounds (each round runs every case and engine once, engine order rotating); figures are medians of the ${RUNS} rounds`,
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    load_average_before: loadBefore,
    load_average_after: load(),
    load_average_1min_per_round: loads,
  },
  wall_s: +seconds.toFixed(1),
  warmup_steps_per_s: warmup,
  target: `Roverlab WASM ≥ ${TARGET}× MuJoCo WASM (Euler) steps/s, per-round median (docs/benchmarks/README.md, Speed targets)`,
  cases,
};
writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
console.log('wrote', path.relative(process.cwd(), outFile));
