// Two builds of the WASM core side by side in one Node process: steps per
// second of each scenario, in alternating rounds (the order flips every
// round), and the median of the rounds' B/A ratios; the state hash of each
// after 2 s (equal hashes: the same arithmetic). For a change of the build
// (compiler flags, size attributes) that must not change the step: build the
// module before the change into a folder of its own, then
//   node tests/bench/wasm_ab.mjs --a=FOLDER_BEFORE [--b=web/src/wasm] [--rounds=7]
//        [--out=docs/benchmarks/NAME.json] [scenario names…]
// Each folder holds roverlab_core.js and roverlab_core.wasm. Wall-clock
// times: run it on an otherwise idle machine.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const A = path.resolve(option('a', ''));
const B = path.resolve(option('b', path.join(root, 'web/src/wasm')));
const ROUNDS = Number(option('rounds', 7));
const OUT = option('out', null);
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const scenarios = names.length ? names : ['step-articulated6', 'flat-rocker8', 'rough-field-rocker8', 'flat-planar-vehicle', 'flat-wheel-rig', 'step-wheel-walker'];
if (!option('a', null)) throw new Error('--a=FOLDER: the build to compare with (roverlab_core.js and .wasm)');

const load = async (dir) =>
  (await import(`${pathToFileURL(path.join(dir, 'roverlab_core.js')).href}?${encodeURIComponent(dir)}`)).default({
    wasmBinary: readFileSync(path.join(dir, 'roverlab_core.wasm')),
  });
const cores = [await load(A), await load(B)];
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Steps per second of 5 000 steps after 1 250 to settle. */
function rate(core, text) {
  const world = new core.World(text);
  world.step(1250);
  const steps = 5000;
  const t0 = performance.now();
  for (let done = 0; done < steps; ) done += world.step(1000);
  const seconds = (performance.now() - t0) / 1000;
  world.delete();
  return steps / seconds;
}

const texts = Object.fromEntries(scenarios.map((s) => [s, readFileSync(path.join(root, 'terrains', `${s}.json`), 'utf8')]));
for (const s of scenarios) for (const core of cores) rate(core, texts[s]);  // V8's optimising tier
const results = {};
for (const s of scenarios) {
  const a = [], b = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) b.push(rate(cores[1], texts[s])), a.push(rate(cores[0], texts[s]));
    else a.push(rate(cores[0], texts[s])), b.push(rate(cores[1], texts[s]));
  }
  const hashes = cores.map((core) => core.runScenario(texts[s], 2).summary.state_hash);
  results[s] = {
    a_steps_per_s: Math.round(median(a)),
    b_steps_per_s: Math.round(median(b)),
    b_over_a: +median(b.map((x, i) => x / a[i])).toFixed(3),
    state_hash_2s: { a: hashes[0], b: hashes[1], equal: hashes[0] === hashes[1] },
  };
  console.log(`${s.padEnd(24)} A ${results[s].a_steps_per_s}  B ${results[s].b_steps_per_s}  B/A ${results[s].b_over_a}  hashes ${hashes[0] === hashes[1] ? 'equal' : 'DIFFER'}`);
}
const size = (dir) => statSync(path.join(dir, 'roverlab_core.wasm')).size;
const report = {
  command: `node tests/bench/wasm_ab.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load_average: os.loadavg().map((x) => +x.toFixed(2)) },
  method: `per scenario ${ROUNDS} rounds, each a run of each build in turn (the order flips every round), after one untimed run of each; medians`,
  wasm_bytes: { a: size(A), b: size(B) },
  scenarios: results,
};
if (OUT) writeFileSync(path.resolve(OUT), `${JSON.stringify(report, null, 2)}\n`);
