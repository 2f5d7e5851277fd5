// Whole-simulation speed: steps per second and real-time factor of every
// scenario in terrains/, natively (build/native/roverlab) and in the WASM core
// (same C++ source) in two engines: under Node and in a page of Debian's
// headless Chromium, the engine the app runs in (chromium_page.mjs); and how
// articulated6's cost grows with the number of terrain pieces. Writes
// docs/benchmarks/sim.json.
//
//   node tests/bench/sim_bench.mjs [--cli=PATH] [--wasm=DIR] [--out=FILE]
//        (after npm test or the two builds)
//
// --cli (or ROVERLAB_CLI) is the native command-line tool (default
// build/native/roverlab), --wasm (or ROVERLAB_WASM_DIR) the directory of
// roverlab_core.js/.wasm (default web/src/wasm).
//
// Each figure is the median of 7 rounds; a round is the best of BEST fresh
// native runs, the best of BEST fresh WASM runs under Node and the best of
// BEST in Chromium, in rotating order, each stepping the same SECONDS of
// simulated time from the start (timing covers stepping only, not parsing or
// building the terrain), and a WASM/native ratio is the median of the rounds'
// ratios, so that a change of the machine's speed hits the builds alike. Best
// of BEST: another job on the host only ever slows a run, and on a shared
// virtual machine back-to-back native runs of one scenario ranged over
// 264 000 to 577 000 steps/s. Before the first timed round every scenario runs
// untimed in each engine until two runs in a row agree within 5 %: V8 first
// runs WebAssembly from its baseline compiler and compiles hot functions with
// its optimising one in the background, which for the core's large functions
// takes several runs; timed earlier, WASM would be measured at half its speed.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { nativeCompiler } from './native_compiler.mjs';

import { openBenchPage } from './chromium_page.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const cli = path.resolve(arg('cli') ?? process.env.ROVERLAB_CLI ?? path.join(root, 'build/native/roverlab'));
const wasmDir = path.resolve(arg('wasm') ?? process.env.ROVERLAB_WASM_DIR ?? path.join(root, 'web/src/wasm'));
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/sim.json'));
const SECONDS = 10;
const RUNS = 7;
const BEST = 3;
// Issue 34's target: a WASM step takes at most 1.2 times a native one, on every scenario.
const WASM_TIME_TARGET = 1.2;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { default: createRoverlabCore } = await import(pathToFileURL(path.join(wasmDir, 'roverlab_core.js')).href);
const core = await createRoverlabCore({ wasmBinary: readFileSync(path.join(wasmDir, 'roverlab_core.wasm')) });

/** steps/s of one native run (the CLI's timing of its stepping loop) of the scenario in `file`. */
function nativeRun(file) {
  const r = spawnSync(cli, ['run', file, '--duration', String(SECONDS)], { encoding: 'utf8' });
  return JSON.parse(r.stdout).steps_per_s;
}

/** steps/s of one WASM run of a scenario text in `core`: the same SECONDS from the start as a native run (also run in the page). */
function wasmRun(core, text, SECONDS) {
  const world = new core.World(text);
  if (!world.ok()) throw new Error(JSON.stringify(world.issues()));
  const steps = Math.round(SECONDS / world.dt());
  const t0 = performance.now();
  for (let done = 0; done < steps; ) done += world.step(Math.min(1000, steps - done));
  const rate = steps / ((performance.now() - t0) / 1000);
  world.delete();
  return rate;
}

// The same core in a Chromium page, wasmRun's code run there.
const chromium = await openBenchPage();
await chromium.page.evaluate(
  async ({ wasm, run }) => {
    const { default: createRoverlabCore } = await import(`${wasm}/roverlab_core.js`);
    const core = await createRoverlabCore({ locateFile: (file) => `${wasm}/${file}` });
    const wasmRun = (0, eval)(`(${run})`);
    window.benchRun = (text, seconds) => wasmRun(core, text, seconds);
  },
  { wasm: '/' + path.relative(root, wasmDir), run: wasmRun.toString() },
);
const chromiumRun = (text) => chromium.page.evaluate(({ text, seconds }) => window.benchRun(text, seconds), { text, seconds: SECONDS });
const nodeRun = async (text) => wasmRun(core, text, SECONDS);

/**
 * RUNS rounds of the best of BEST native runs, of BEST WASM runs under Node and of BEST in
 * Chromium of a scenario text, the order rotating: medians, and the medians of the rounds'
 * WASM/native ratios (a change of the machine's speed during the benchmark hits the builds of
 * a round alike).
 */
async function rates(text) {
  const file = path.join(os.tmpdir(), `roverlab-bench-${process.pid}.json`);
  writeFileSync(file, text);
  const runs = { native: async () => nativeRun(file), node: () => nodeRun(text), chromium: () => chromiumRun(text) };
  const got = { native: [], node: [], chromium: [] };
  const order = Object.keys(runs);
  for (let i = 0; i < RUNS; i++)
    for (let k = 0; k < order.length; k++) {
      const name = order[(k + i) % order.length];
      let best = 0;
      for (let b = 0; b < BEST; b++) best = Math.max(best, await runs[name]());
      got[name].push(best);
    }
  const ratio = (name) => median(got[name].map((w, i) => w / got.native[i]));
  return { native: median(got.native), node: median(got.node), chromium: median(got.chromium), nodeRatio: ratio('node'), chromiumRatio: ratio('chromium') };
}

/** articulated6 on flat ground with extra 0.5 × 0.5 × 0.1 m boxes beside its path, `pieces` in total. */
function withPieces(pieces) {
  const s = JSON.parse(readFileSync(path.join(root, 'terrains/flat-articulated6.json'), 'utf8'));
  const extra = pieces - s.terrain.boxes.length;
  const side = Math.ceil(Math.sqrt(extra));
  for (let i = 0; i < extra; i++) {
    const gx = i % side, gy = Math.floor(i / side);
    s.terrain.boxes.push({ centre: [-10 + 0.6 * gx, 4 + 0.6 * gy, 0.05], size: [0.5, 0.5, 0.1] });
  }
  return JSON.stringify(s);
}

const loadBefore = os.loadavg();
const files = readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json')).sort();
/**
 * Untimed runs of a scenario for at least WARM_UP_SECONDS of wall time and until
 * two in a row agree within 2 % (at most 200 runs): V8 compiles a hot function
 * with its optimising tier in the background, and the core's large functions
 * take about half a second of runs to be swapped in: in a fresh Chromium page a
 * small robot's 15 ms runs speed up over some 20 runs, two of them often alike.
 */
const WARM_UP_SECONDS = 2;
async function warmUp(run, text) {
  const start = performance.now();
  let last = await run(text);
  for (let i = 1; i < 200; i++) {
    const rate = await run(text);
    const agreed = Math.abs(rate / last - 1) < 0.02;
    if (agreed && performance.now() - start >= WARM_UP_SECONDS * 1000) return i + 1;
    last = rate;
  }
  return 200;
}
const warmUpRuns = { node: {}, chromium: {} };
for (const file of files) {
  const text = readFileSync(path.join(root, 'terrains', file), 'utf8');
  warmUpRuns.node[file] = await warmUp(nodeRun, text);
  warmUpRuns.chromium[file] = await warmUp(chromiumRun, text);
}
const scenarios = {};
for (const file of files) {
  const text = readFileSync(path.join(root, 'terrains', file), 'utf8');
  const s = JSON.parse(text);
  const dt = s.simulation?.dt ?? 4e-4;
  const r = await rates(text);
  scenarios[file] = {
    preset: s.robot.preset,
    dt,
    native_steps_per_s: Math.round(r.native),
    native_real_time_factor: +(r.native * dt).toFixed(2),
  };
  for (const engine of ['chromium', 'node']) {
    const ratio = r[`${engine}Ratio`];
    Object.assign(scenarios[file], {
      [`${engine}_wasm_steps_per_s`]: Math.round(r[engine]),
      [`${engine}_wasm_real_time_factor`]: +(r[engine] * dt).toFixed(2),
      [`${engine}_wasm_over_native`]: +ratio.toFixed(3),  // steps per second, per-round median
      [`${engine}_wasm_time_over_native`]: +(1 / ratio).toFixed(3),
      [`${engine}_wasm_time_target_met`]: 1 / ratio <= WASM_TIME_TARGET,
    });
  }
  console.log(file, scenarios[file]);
}
const scaling = {};
for (const pieces of [10, 1000, 10000]) {
  const text = withPieces(pieces);
  const r = await rates(text);
  scaling[pieces] = { native_steps_per_s: Math.round(r.native), chromium_wasm_steps_per_s: Math.round(r.chromium), node_wasm_steps_per_s: Math.round(r.node) };
  console.log('pieces', pieces, scaling[pieces]);
}
await chromium.close();
const growth = (k) => +(scaling[10][k] / scaling[10000][k]).toFixed(3);
const digest = createHash('sha256');
for (const dir of ['common', 'contact', 'dynamics', 'geometry', 'robots', 'scenario', 'sim', 'terrain'])
  for (const f of readdirSync(path.join(root, 'core', dir)).sort()) digest.update(readFileSync(path.join(root, 'core', dir, f)));
const result = {
  date: new Date().toISOString(),
  command: `node tests/bench/sim_bench.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
  method: `median of ${RUNS} rounds, each the best of ${BEST} fresh native runs, the best of ${BEST} fresh WASM runs under Node and the best of ${BEST} in Chromium, of the first ${SECONDS} s simulated, in rotating order (an ENGINE_wasm_over_native is the median of the rounds' ratios); native = the roverlab CLI's timing of its stepping loop (Release, ${nativeCompiler(cli)}); WASM = the same core (Emscripten 3.1.6) through World.step (with the app's telemetry row every 10 ms) under Node ${process.version} and in a page of headless ${chromium.version}, the engine the app runs in, timed from the first step as the CLI is; before the first timed run every scenario ran untimed in each engine for at least ${WARM_UP_SECONDS} s and until two runs in a row agreed within 2 % (V8's optimising tier swapped in; warm_up_runs)`,
  engines: { chromium: chromium.version, node: `Node ${process.version}` },
  warm_up_runs: warmUpRuns,
  core_sha256: digest.digest('hex'),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load_average_before: loadBefore, load_average_after: os.loadavg() },
  compilers: {
    native: nativeCompiler(cli),
    emscripten: execFileSync('emcc', ['--version'], { env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } }).toString().split('\n')[0],
  },
  wasm_time_target: Object.fromEntries(
    ['chromium', 'node'].map((engine) => [
      engine,
      `WASM time per step ≤ ${WASM_TIME_TARGET} × native on every scenario: ${Object.values(scenarios).filter((x) => x[`${engine}_wasm_time_target_met`]).length} of ${files.length} met`,
    ]),
  ),
  scenarios,
  terrain_scaling_articulated6: {
    ...scaling,
    cost_growth_10_to_10000_native: growth('native_steps_per_s'),
    cost_growth_10_to_10000_chromium_wasm: growth('chromium_wasm_steps_per_s'),
    cost_growth_10_to_10000_node_wasm: growth('node_wasm_steps_per_s'),
    target: 1.3,
  },
};
writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
console.log('growth', JSON.stringify(result.terrain_scaling_articulated6));
