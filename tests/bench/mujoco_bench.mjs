// Roverlab's WASM core side by side with MuJoCo's official WASM build
// (npm mujoco-js) on an equivalent articulated6 at the 0.65 m step, wheels
// driven at 5 rad/s, dt = 0.4 ms; with the step alone and with 1 000 extra
// terrain boxes. Both modules run in one JavaScript engine, twice: in Node's
// and in a page of Debian's headless Chromium, the engine the app runs in
// (tests/bench/chromium_page.mjs). Writes docs/benchmarks/mujoco.json.
//
//   node tests/bench/mujoco_bench.mjs [--wasm=DIR] [--runs=N] [--out=FILE]
//
// --wasm (or ROVERLAB_WASM_DIR) is the directory holding roverlab_core.js and
// roverlab_core.wasm (default web/src/wasm, where `npm run build:wasm` writes).
//
// Method (mujoco/side_by_side.mjs, the same code in both engines). V8 compiles WebAssembly twice: first with its baseline compiler
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

import { openBenchPage } from './chromium_page.mjs';
import { CASES, DT, STEPS, WARM, sideBySide } from './mujoco/side_by_side.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const wasmDir = path.resolve(arg('wasm') ?? process.env.ROVERLAB_WASM_DIR ?? path.join(root, 'web/src/wasm'));
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/mujoco.json'));
const RUNS = Number(arg('runs') ?? 7);
// Issue 34's target: Roverlab's steps per second over MuJoCo's (Euler), the median of the per-round ratios.
const TARGET = 10;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => os.loadavg().map((x) => +x.toFixed(2));
const caseName = (extra) => (extra ? `step + ${extra} boxes` : 'step');
const stepScenario = readFileSync(path.join(root, 'terrains/step-articulated6.json'), 'utf8');
const loadBefore = load();

// 1. Node: both modules in this process.
let t0 = performance.now();
const { default: createRoverlabCore } = await import(pathToFileURL(path.join(wasmDir, 'roverlab_core.js')).href);
const core = await createRoverlabCore({ wasmBinary: readFileSync(path.join(wasmDir, 'roverlab_core.wasm')) });
const mujoco = await loadMujoco();
const loads = [];
const node = sideBySide({
  core,
  mujoco,
  stepScenario,
  rounds: RUNS,
  onRound: (r) => {
    loads.push(load()[0]);
    console.log('node: round', r + 1, 'of', RUNS, 'load', loads.at(-1));
  },
});
node.seconds = (performance.now() - t0) / 1000;

// 2. Chromium: the same in a page, the modules loaded from the same files.
t0 = performance.now();
const chromium = await openBenchPage();
const inPage = await chromium.page.evaluate(
  async ({ wasm, stepScenario, rounds }) => {
    const { default: createRoverlabCore } = await import(`${wasm}/roverlab_core.js`);
    const core = await createRoverlabCore({ locateFile: (file) => `${wasm}/${file}` });
    const { default: loadMujoco } = await import('/node_modules/mujoco-js/dist/mujoco_wasm.js');
    const { sideBySide } = await import('/tests/bench/mujoco/side_by_side.mjs');
    return sideBySide({ core, mujoco: await loadMujoco(), stepScenario, rounds });
  },
  { wasm: '/' + path.relative(root, wasmDir), stepScenario, rounds: RUNS },
);
inPage.seconds = (performance.now() - t0) / 1000;
await chromium.close();
loads.push(load()[0]);
console.log('chromium: done, load', loads.at(-1));

/** Medians and per-round ratios of one engine's runs. */
function summarize({ warmup, runs, seconds }) {
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
      roverlab_wasm: { ...summary(ours), terrain_pieces: ours[0].size },
      mujoco_wasm_euler: { ...summary(euler), geoms: euler[0].size },
      mujoco_wasm_implicitfast: summary(runs[extra].mujoco_wasm_implicitfast),
      roverlab_over_mujoco_euler: +(median(ours.map((r) => r.rate)) / median(euler.map((r) => r.rate))).toFixed(2),
      roverlab_over_mujoco_euler_per_round: perRound.map((x) => +x.toFixed(2)),
      roverlab_over_mujoco_euler_per_round_median: +median(perRound).toFixed(2),
      target_met: median(perRound) >= TARGET,
    };
  }
  return { wall_s: +seconds.toFixed(1), warmup_steps_per_s: warmup, cases };
}

const wasmBytes = readFileSync(path.join(wasmDir, 'roverlab_core.wasm'));
const result = {
  date: new Date().toISOString(),
  command: `node tests/bench/mujoco_bench.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
  mujoco: `mujoco-js ${JSON.parse(readFileSync(path.join(root, 'node_modules/mujoco-js/package.json'), 'utf8')).version}, MuJoCo ${mujoco.mj_versionString()}`,
  roverlab_wasm: { bytes: wasmBytes.length },
  model: 'tests/bench/mujoco/articulated6.mjs: articulated6 (126 kg, r = 0.19 m, wheelbase 0.86 m) before the 0.65 m step, wheels at 5 rad/s (velocity actuators kv 100, ±60 N·m), folds and extensions held by position actuators, friction 0.8, dt 0.4 ms, wheels as cylinders, only wheels collide',
  method: `both WASM modules in one JavaScript engine, first in this Node process, then in a page of headless Chromium (the engine the app runs in); a run is a fresh model, ${WARM} steps (0.5 s) untimed then ${STEPS} steps (5 s) timed; in each engine first every case and engine ran untimed until two runs in a row agreed within 5 % (V8 tiers WASM up from Liftoff to TurboFan while it runs; warmup_steps_per_s), then ${RUNS} interleaved rounds (each round runs every case and engine once, engine order rotating); figures are medians of the ${RUNS} rounds`,
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    load_average_before: loadBefore,
    load_average_after: load(),
    load_average_1min_per_node_round_then_after_chromium: loads,
  },
  target: `Roverlab WASM ≥ ${TARGET}× MuJoCo WASM (Euler) steps/s, per-round median, in Chromium (the app's engine; Node's beside it) (docs/benchmarks/README.md, Speed targets)`,
  hosts: {
    chromium: { engine: chromium.version, ...summarize(inPage) },
    node: { engine: `Node ${process.version}`, ...summarize(node) },
  },
};
writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
for (const [host, h] of Object.entries(result.hosts))
  for (const [name, c] of Object.entries(h.cases)) console.log(host, name, c.roverlab_over_mujoco_euler_per_round_median, c.roverlab_over_mujoco_euler_per_round.join(' '));
console.log('wrote', path.relative(process.cwd(), outFile));
