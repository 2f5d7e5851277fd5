// What a JavaScript controller program costs: steps per second of the WASM
// core in Node (V8, as in the app's worker) on terrains/step-articulated6.json
// for 10 s, without a program and with one updated at 100 Hz (it reads the
// base's pitch and a wheel's slip and returns a wheel speed and a plot value),
// the World stepped in 2 500-step chunks as the app's worker and
// tools/roverlab.mjs step it, with the built-ins frozen as those hosts freeze
// them (sealGlobals). Interleaved rounds, per-round ratios, medians.
// Writes docs/benchmarks/controller.json.
//
//   node tests/bench/controller_bench.mjs [--rounds=7] [--out=FILE]
//        (after npm test, on an idle machine)
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compileProgram, ProgramRun } from '../../web/src/controller/program.js';
import { sealGlobals } from '../../web/src/controller/seal.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(arg('rounds') ?? 7);
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/controller.json'));
const { default: createRoverlabCore } = await import(path.join(root, 'web/src/wasm/roverlab_core.js'));
const core = await createRoverlabCore();
sealGlobals();  // as the hosts do once their core is loaded

const scenario = JSON.parse(readFileSync(path.join(root, 'terrains/step-articulated6.json'), 'utf8'));
scenario.simulation.duration = 10;
const text = JSON.stringify(scenario);
const program = compileProgram(`export default {
  period: 0.01,
  update(obs) {
    const pitch = obs.base.pitch_rad;
    const slip = obs.wheels.wheel_front_left.slip;
    return { wheel_speed: slip > 0.3 ? 1.5 : 2.5, plot: { pitch } };
  },
};`);

/** Steps per second of one 10 s run, with or without the program. */
function run(withProgram) {
  const world = new core.World(text);
  const total = Math.round(scenario.simulation.duration / world.dt());
  const runner = withProgram ? new ProgramRun(world, program, { onPlot: () => {} }) : null;
  const t0 = performance.now();
  let steps = 0;
  while (steps < total) {
    const taken = runner ? runner.step(Math.min(2500, total - steps)) : world.step(Math.min(2500, total - steps));
    if (taken === 0) break;
    steps += taken;
    world.samples();  // the app's worker takes them each frame
  }
  const seconds = (performance.now() - t0) / 1000;
  const hash = world.summary(seconds).state_hash;
  world.delete();
  return { stepsPerSecond: steps / seconds, hash, updates: runner?.updates ?? 0 };
}

run(false);  // V8's tier-up of the core and the host before timing
run(true);
const plain = [], programmed = [], ratios = [];
let updates = 0;
for (let k = 0; k < rounds; k++) {
  const a = run(false);
  const b = run(true);
  plain.push(a.stepsPerSecond);
  programmed.push(b.stepsPerSecond);
  ratios.push(b.stepsPerSecond / a.stepsPerSecond);
  updates = b.updates;
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const round = (x, digits = 4) => Number(x.toPrecision(digits));
const result = {
  command: 'node tests/bench/controller_bench.mjs',
  date: new Date().toISOString(),
  machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, load: os.loadavg().map((x) => round(x, 3)) },
  scenario: 'terrains/step-articulated6.json for 10 s, WASM core in Node',
  program: 'JavaScript, 100 Hz: reads base.pitch_rad and a wheel slip, returns wheel_speed and a plot value',
  updates_per_run: updates,
  steps_per_s_without: round(median(plain)),
  steps_per_s_with: round(median(programmed)),
  overhead: round(1 - median(ratios), 3),
  target: 'overhead <= 0.10',
  rounds: { without: plain.map((x) => round(x)), with: programmed.map((x) => round(x)) },
};
writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(result);
