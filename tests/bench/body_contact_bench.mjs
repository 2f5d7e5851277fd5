// What body contact costs: steps per second of every scenario in terrains/
// with `simulation.chassis_contact` on (the default) and off, natively (the
// roverlab CLI's own timing of its stepping loop). Writes
// docs/benchmarks/body-contact.json.
//
//   node tests/bench/body_contact_bench.mjs [--cli=PATH] [--rounds=N] [--out=FILE]
//        (after npm test or scripts/build-native.sh)
//
// Each scenario runs its full duration. A round runs it once with body contact
// and once without, in alternating order, so that both sides see the same
// machine load; the cost is taken from the median over the rounds of the
// per-round ratio off/on − 1 (positive: body contact is slower), and the best
// (fastest) run of each side is reported too. With body contact a robot may
// move differently (a body that touches the ground is held up by it), so the
// two runs need not take the same path.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nativeCompiler } from './native_compiler.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const cli = path.resolve(arg('cli') ?? process.env.ROVERLAB_CLI ?? path.join(root, 'build/native/roverlab'));
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/body-contact.json'));
const ROUNDS = Number(arg('rounds') ?? 9);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};

function run(file, on) {
  const r = spawnSync(cli, ['run', file, '--set', `simulation.chassis_contact=${on}`], { encoding: 'utf8' });
  const summary = JSON.parse(r.stdout);
  return { stepsPerS: summary.steps_per_s, steps: summary.steps, bodyContacts: summary.contact_law?.body_contacts ?? 0 };
}

const loadBefore = os.loadavg();
const files = readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json')).sort();
const scenarios = {};
for (const name of files) {
  const file = path.join(root, 'terrains', name);
  run(file, true);  // warm the file cache and the CPU
  const on = [], off = [], ratio = [];
  let contacts = 0, steps = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? [false, true] : [true, false];
    const r = {};
    for (const side of order) r[side] = run(file, side);
    on.push(r.true.stepsPerS);
    off.push(r.false.stepsPerS);
    ratio.push(r.false.stepsPerS / r.true.stepsPerS - 1);
    contacts = r.true.bodyContacts;
    steps = r.true.steps;
  }
  scenarios[name] = {
    steps,
    body_contacts_evaluated: contacts,
    on_steps_per_s: { median: Math.round(median(on)), best: Math.max(...on), runs: on },
    off_steps_per_s: { median: Math.round(median(off)), best: Math.max(...off), runs: off },
    cost_percent_median_of_rounds: +(100 * median(ratio)).toFixed(1),
    cost_percent_best: +(100 * (Math.max(...off) / Math.max(...on) - 1)).toFixed(1),
  };
  console.log(name, scenarios[name].cost_percent_median_of_rounds, scenarios[name].cost_percent_best);
}
const costs = Object.values(scenarios).map((s) => s.cost_percent_median_of_rounds);
const digest = createHash('sha256');
for (const dir of ['common', 'contact', 'control', 'dynamics', 'geometry', 'robots', 'scenario', 'sim', 'terrain'])
  for (const f of readdirSync(path.join(root, 'core', dir)).sort()) digest.update(readFileSync(path.join(root, 'core', dir, f)));
const result = {
  date: new Date().toISOString(),
  command: `node tests/bench/body_contact_bench.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
  method: `${ROUNDS} rounds per scenario, each its full duration once with simulation.chassis_contact=true and once false, in alternating order; steps_per_s is the roverlab CLI's timing of its stepping loop (Release, ${nativeCompiler(cli)}); cost = off/on − 1 per round, median over the rounds`,
  core_sha256: digest.digest('hex'),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load_average_before: loadBefore, load_average_after: os.loadavg() },
  compiler: nativeCompiler(cli),
  target_cost_percent: 10,
  largest_cost_percent: Math.max(...costs),
  median_cost_percent: +median(costs).toFixed(1),
  scenarios,
};
writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
console.log('largest cost', result.largest_cost_percent, '% median', result.median_cost_percent, '%');
