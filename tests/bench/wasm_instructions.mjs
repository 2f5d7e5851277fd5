// Instructions a step takes natively and in WebAssembly, counted by valgrind's
// callgrind: a measure of the WASM core's cost that, unlike its steps per
// second, does not move with the machine's load (on a shared virtual machine
// two runs of one scenario a few seconds apart differ by up to 1.8×).
//
//   node tests/bench/wasm_instructions.mjs [--cli=build/native/roverlab] [--wasm=web/src/wasm]
//        [--out=docs/benchmarks/wasm_instructions.json] [scenario names…]
//
// Natively: the CLI (`roverlab run S --duration T`) for FIRST and for LAST steps;
// the difference over LAST − FIRST is the instructions of one of those steps.
// In WebAssembly: Node runs the module with V8's optimising compiler only
// (`--no-liftoff --no-wasm-tier-up`: every function compiled by TurboFan before
// it runs, the code a warmed-up app runs), `World.step` for FIRST and for LAST
// steps, the same difference. V8 runs on one thread with fixed seeds
// (`--single-threaded --predictable --hash-seed=1 --random-seed=1`): without
// them the background threads' waiting made the count vary by up to 10 % from
// run to run; with them, by 0.1 %. Both count x86-64 instructions: clang's native code against
// the code V8 makes from the module. Both cover the same simulated stretch,
// steps FIRST to LAST from the scenario's start; the WASM step also keeps the
// app's telemetry row every 10 ms, as in sim.json. Instructions are not time,
// but a change that saves WASM instructions without changing the state hashes
// shows here in one run, where a timed comparison needs many. Needs valgrind
// (Debian's `valgrind`); a WASM run takes about a minute (most of it TurboFan
// compiling the module under valgrind), two run at a time.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nativeCompiler } from './native_compiler.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const cli = path.resolve(option('cli', path.join(root, 'build/native/roverlab')));
const wasmDir = path.resolve(option('wasm', path.join(root, 'web/src/wasm')));
const out = option('out', null);
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const scenarios = names.length ? names : ['step-articulated6', 'flat-rocker8', 'rough-field-rocker8', 'rubble-articulated6', 'stairs-planar-vehicle', 'profile-wheel-rig'];
const FIRST = 500, LAST = 2500;
const V8_FLAGS = ['--single-threaded', '--predictable', '--hash-seed=1', '--random-seed=1', '--no-liftoff', '--no-wasm-tier-up'];

// The WASM side's driver: a scenario's first `steps` steps (run by this file with --drive).
if (process.argv.includes('--drive')) {
  const [dir, file, steps] = process.argv.slice(process.argv.indexOf('--drive') + 1);
  const core = await (await import(path.join(dir, 'roverlab_core.js'))).default({ wasmBinary: readFileSync(path.join(dir, 'roverlab_core.wasm')) });
  const world = new core.World(readFileSync(file, 'utf8'));
  if (!world.ok()) throw new Error(JSON.stringify(world.issues()));
  for (let done = 0; done < Number(steps); ) {
    const taken = world.step(Math.min(1000, Number(steps) - done));
    if (taken === 0) throw new Error(`${file} stopped after ${done} steps: ${world.outcome()}`);
    done += taken;
  }
  process.exit(0);
}

/** Instructions callgrind collected over one command (its stderr's "Collected : N"). */
function collected(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all', '--callgrind-out-file=/dev/null', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      const m = stderr.match(/Collected : (\d+)/);
      if (code !== 0 || !m) reject(new Error(`${command} ${args.join(' ')}: exit ${code}\n${stderr.slice(-2000)}`));
      else resolve(Number(m[1]));
    });
  });
}

/** Runs the jobs (functions returning promises) two at a time. */
async function inPairs(jobs) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

const here = fileURLToPath(import.meta.url);
const jobs = [];
for (const name of scenarios) {
  const file = path.join(root, 'terrains', `${name}.json`);
  const dt = JSON.parse(readFileSync(file, 'utf8')).simulation?.dt ?? 4e-4;
  for (const steps of [FIRST, LAST]) {
    jobs.push(() => collected(cli, ['run', file, '--duration', String(steps * dt)]));
    jobs.push(() => collected(process.execPath, [...V8_FLAGS, here, '--drive', wasmDir, file, String(steps)]));
  }
}
const counts = await inPairs(jobs);
const results = {};
scenarios.forEach((name, k) => {
  const [nativeFirst, wasmFirst, nativeLast, wasmLast] = counts.slice(4 * k, 4 * k + 4);
  const native = Math.round((nativeLast - nativeFirst) / (LAST - FIRST));
  const wasm = Math.round((wasmLast - wasmFirst) / (LAST - FIRST));
  results[name] = { native_instructions_per_step: native, wasm_instructions_per_step: wasm, wasm_over_native: +(wasm / native).toFixed(3) };
  console.log(name.padEnd(32), String(native).padStart(8), String(wasm).padStart(8), (wasm / native).toFixed(3));
});
if (out) {
  writeFileSync(out, JSON.stringify({
    date: new Date().toISOString(),
    command: `node tests/bench/wasm_instructions.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    method: `x86-64 instructions of steps ${FIRST} to ${LAST} from the scenario's start, per step, counted by valgrind's callgrind (the difference of a run of ${LAST} steps and one of ${FIRST}): natively the roverlab CLI (Release, ${nativeCompiler(cli)}); in WebAssembly the same core (Emscripten 3.1.6) in Node ${process.version} with V8's optimising compiler only, on one thread, seeds fixed (${V8_FLAGS.join(' ')}), World.step (with the app's telemetry row every 10 ms)`,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model },
    scenarios: results,
  }, null, 2) + '\n');
}
