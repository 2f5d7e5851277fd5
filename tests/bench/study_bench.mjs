// Studies' throughput on this machine: `roverlab study` on one thread against
// every core, the time of a 1 000-run grid of articulated6 step climbs
// against the time single runs predict, and, when the Python package is
// built, the same grid on dask.distributed (a LocalCluster) against the
// command line's threads. Writes docs/benchmarks/study.json.
//
//   node tests/bench/study_bench.mjs [--cli=PATH] [--out=FILE] [--runs=1000]
//        (after npm test; on an idle machine: it uses every core)
//
// The grid: terrains/climb-articulated6.json for 10 s (the step-climb
// controller), its step's height × the friction limit × the wheel radius.
// The prediction: the mean wall time of a row on one thread, times the rows,
// divided by the cores. Timings are medians of interleaved rounds (a
// machine's load drifts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const cli = path.resolve(arg('cli') ?? process.env.ROVERLAB_CLI ?? path.join(root, 'build/native/roverlab'));
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/study.json'));
const RUNS = Number(arg('runs') ?? 1000);
// --parts=local,grid,dask runs some of the three; the others are kept from --out.
const parts = new Set((arg('parts') ?? 'local,grid,dask').split(','));
const cores = os.availableParallelism?.() ?? os.cpus().length;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-bench-'));
const side = Math.round(Math.cbrt(RUNS));

const scenario = JSON.parse(readFileSync(path.join(root, 'terrains/climb-articulated6.json'), 'utf8'));
scenario.simulation.duration = 10;
const study = (parameters) => ({ format: 'roverlab-study', version: 1, name: 'articulated6 step climbs', scenario, parameters });
const grid = study([
  { path: 'terrain.boxes[1].size[2]', also: [{ path: 'terrain.boxes[1].centre[2]', scale: 0.5 }], from: 0.3, to: 0.75, steps: side },
  { path: 'terrain.materials.asphalt.phi_max', from: 0.5, to: 1.0, steps: side },
  { path: 'robot.params.wheel_radius', from: 0.17, to: 0.21, steps: side },
]);
const small = study([
  { path: 'terrain.boxes[1].size[2]', also: [{ path: 'terrain.boxes[1].centre[2]', scale: 0.5 }], from: 0.3, to: 0.75, steps: 10 },
  { path: 'terrain.materials.asphalt.phi_max', from: 0.5, to: 1.0, steps: 10 },
]);
const write = (name, doc) => {
  const file = path.join(tmp, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
};
const gridFile = write('grid.json', grid);
const smallFile = write('small.json', small);

/** Wall seconds of a command, and its parsed JSON stdout. */
function timed(command, args, env = {}) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.stderr}`);
  return { seconds, out: r.stdout.trim() ? JSON.parse(r.stdout) : null };
}
const round = (x, digits = 3) => Number(x.toPrecision(digits));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hashes = (rows) => rows.map((r) => r.state_hash).join();

const kept = parts.size < 3 && existsSync(outFile) ? JSON.parse(readFileSync(outFile, 'utf8')) : {};
const result = {
  ...kept,
  machine: { cores, cpu: os.cpus()[0]?.model, node: process.version },
  command: 'node tests/bench/study_bench.mjs',
  date: new Date().toISOString(),
};

// 1. One thread against every core, on 100 rows: interleaved rounds, medians.
if (parts.has('local')) {
const ones = [], alls = [];
for (let k = 0; k < 3; k++) {
  const one = timed(cli, ['study', smallFile, '--jobs', '1', '--json']);
  const all = timed(cli, ['study', smallFile, '--jobs', String(cores), '--json']);
  if (hashes(one.out.rows) !== hashes(all.out.rows)) throw new Error('--jobs 1 and --jobs N gave different rows');
  ones.push(one.seconds);
  alls.push(all.seconds);
}
result.local = {
  study: '100 rows: climb-articulated6 for 10 s, step height x phi_max',
  jobs1_s: round(median(ones)),
  [`jobs${cores}_s`]: round(median(alls)),
  speedup: round(median(ones) / median(alls)),
  runs_per_s: round(100 / median(alls)),
  rounds: { jobs1_s: ones.map((t) => round(t)), [`jobs${cores}_s`]: alls.map((t) => round(t)) },
};
console.log('local', result.local);
}

// 2. The 1 000-run grid against its prediction: the mean time of a row run
// on one thread (a --jobs 1 study of 27 rows spread over the same ranges, each
// row's wall_s), times the rows, divided by the cores. Two interleaved rounds.
if (parts.has('grid')) {
const sampleFile = write('sample.json', study(grid.parameters.map((p) => ({ ...p, steps: 3 }))));
const rowTimes = [], wholes = [];
for (let k = 0; k < 2; k++) {
  const sample = timed(cli, ['study', sampleFile, '--jobs', '1', '--json']);
  rowTimes.push(sample.out.rows.reduce((sum, row) => sum + row.wall_s, 0) / sample.out.rows.length);
  wholes.push(timed(cli, ['study', gridFile, '--jobs', String(cores), '--json']).seconds);
}
const rowS = median(rowTimes);
const predicted = (rowS * side ** 3) / cores;
result.grid = {
  study: `${side ** 3} rows: climb-articulated6 for 10 s, step height x phi_max x wheel radius`,
  sample: '27 rows (3 values of each parameter over the same ranges), roverlab study --jobs 1',
  mean_row_s: round(rowS),
  predicted_s: round(predicted),
  measured_s: round(median(wholes)),
  measured_over_predicted: round(median(wholes) / predicted),
  rounds: { mean_row_s: rowTimes.map((t) => round(t)), measured_s: wholes.map((t) => round(t)) },
};
console.log('grid', result.grid);
}

// 3. Dask's LocalCluster against the command line's threads (the same grid).
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
if (parts.has('dask') && existsSync(path.join(root, 'build/python/roverlab'))) {
  const env = { PYTHONPATH: path.join(root, 'build/python') };
  // Interleaved pairs (the command line, then Dask, on the same grid): the
  // overhead is the median of the pairs' ratios, as a machine's load drifts.
  // The cluster's start: the same command on a study of one short row.
  const one = write('one.json', study([{ path: 'simulation.duration', values: [0.01] }]));
  const cliTimes = [], daskTimes = [], ratios = [], starts = [];
  for (let k = 0; k < 3; k++) {
    const cliRows = timed(cli, ['study', gridFile, '--jobs', String(cores), '--json']);
    const dask = timed(python, ['-m', 'roverlab.study', gridFile, '--workers', String(cores), '--json'], env);
    if (hashes(dask.out.rows) !== hashes(cliRows.out.rows)) throw new Error('dask and the command line gave different rows');
    starts.push(timed(python, ['-m', 'roverlab.study', one, '--workers', String(cores), '--json'], env).seconds);
    daskTimes.push(dask.seconds);
    cliTimes.push(cliRows.seconds);
    ratios.push(dask.seconds / cliRows.seconds);
  }
  const startS = median(starts);
  const perRun = median(daskTimes.map((d, k) => (d - startS - cliTimes[k]) / side ** 3));
  result.dask = {
    study: result.grid.study,
    cli_s: round(median(cliTimes)),
    dask_local_cluster_s: round(median(daskTimes)),
    overhead: round(median(ratios) - 1),
    cluster_start_s: round(startS),
    overhead_per_run_ms: round(perRun * 1000),
    rounds: { cli_s: cliTimes.map((t) => round(t)), dask_s: daskTimes.map((t) => round(t)), cluster_start_s: starts.map((t) => round(t)) },
    note: `a LocalCluster of one worker process with ${cores} threads; each dask time includes starting it and importing the package (cluster_start_s: the same command on a one-row study); overhead_per_run_ms leaves the start out`,
  };
  console.log('dask', result.dask);
}

writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
rmSync(tmp, { recursive: true, force: true });
console.log(`wrote ${path.relative(root, outFile)}`);
