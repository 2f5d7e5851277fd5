// Two native builds of the command-line tool side by side: steps per second
// of each scenario in terrains/ (the CLI's timing of its stepping loop over
// the first 10 s simulated), in alternating rounds (the order flips every
// round), the median of the rounds' B/A ratios, and each build's state hash
// at 10 s (equal hashes: the same arithmetic). For a change of the native
// build (compiler, flags) that must not change the step:
//   node tests/bench/native_ab.mjs --a=CLI_BEFORE [--b=build/native/roverlab] [--rounds=5]
//        [--out=docs/benchmarks/NAME.json] [scenario names…]
// Wall-clock times: run it on an otherwise idle machine.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nativeCompiler } from './native_compiler.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
if (!option('a', null)) throw new Error('--a=CLI: the build to compare with');
const clis = [path.resolve(option('a')), path.resolve(option('b', path.join(root, 'build/native/roverlab')))];
const ROUNDS = Number(option('rounds', 5));
const OUT = option('out', null);
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const scenarios = names.length ? names : readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** The CLI's summary of a 10 s run of the scenario. */
function run(cli, scenario) {
  const r = spawnSync(cli, ['run', path.join(root, 'terrains', `${scenario}.json`), '--duration', '10'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cli} ${scenario}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const results = {};
for (const s of scenarios) {
  const rates = [[], []];
  const hashes = [];
  for (let r = 0; r < ROUNDS; r++)
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      const summary = run(clis[k], s);
      rates[k].push(summary.steps_per_s);
      hashes[k] = summary.state_hash;
    }
  results[s] = {
    a_steps_per_s: Math.round(median(rates[0])),
    b_steps_per_s: Math.round(median(rates[1])),
    b_over_a: +median(rates[1].map((x, i) => x / rates[0][i])).toFixed(3),
    state_hash_10s: { a: hashes[0], b: hashes[1], equal: hashes[0] === hashes[1] },
  };
  console.log(s, JSON.stringify(results[s]));
}
const ratios = Object.values(results).map((r) => r.b_over_a);
const record = {
  command: `node tests/bench/native_ab.mjs ${process.argv.slice(2).join(' ')}`,
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0].model, load_average: os.loadavg() },
  method: `per scenario ${ROUNDS} rounds, each a 10 s run of each build in turn (the order flips every round); steps_per_s is the CLI's timing of its stepping loop; medians`,
  builds: clis.map((cli) => ({ cli: path.relative(root, cli), compiler: nativeCompiler(cli) })),
  b_over_a: { min: Math.min(...ratios), median: median(ratios), max: Math.max(...ratios) },
  all_hashes_equal: Object.values(results).every((r) => r.state_hash_10s.equal),
  scenarios: results,
};
if (OUT) writeFileSync(OUT, JSON.stringify(record, null, 1) + '\n');
console.log(JSON.stringify({ b_over_a: record.b_over_a, all_hashes_equal: record.all_hashes_equal }));
