#!/usr/bin/env node
// The command line on the WASM core, with a controller program in the loop:
//
//   node tools/roverlab.mjs run SCENARIO.json [--controller PROGRAM.mjs]
//        [--duration S] [--dt S] [--set PATH=VALUE]... [--csv FILE] [--csv-rate HZ]
//   node tools/roverlab.mjs study STUDY.json [--controller PROGRAM.mjs] [--jobs N]
//        [--out FILE.csv] [--json]
//
// It prints the summary the native `roverlab run` prints (the same JSON: the
// two builds give the same bits), plus `program` when a controller ran; CSV
// telemetry with --csv. The program (docs/controllers.md) comes from
// --controller or from the scenario's control.program (a file given on the
// command line is the user's own; so is a scenario they run). It runs in a
// worker thread without network globals and with a bounded heap; an update
// that never returns is stopped by this thread's watchdog.
//
// Exit status as the native tool's: 0 done, 1 invalid input (the issues as
// JSON), 2 a usage or file error, 3 blew up, 4 left the terrain, 130
// interrupted; and 5 when the program failed (threw, took too long, never
// returned, ran out of memory), its message on stderr and in the summary.
// `study` runs a study's rows with the program in each (study_command.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { STUDY_USAGE, studyCommand } from './study_command.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const USAGE = `usage:
  node tools/roverlab.mjs run SCENARIO.json [--controller PROGRAM.mjs] [--duration S] [--dt S]
       [--set PATH=VALUE]... [--csv FILE] [--csv-rate HZ]
${STUDY_USAGE}`;
/** A program that has not been heard from for this long (ms of wall time) never returns. */
const WATCHDOG_MS = 2000;
/** The worker's heap (MB): a program that allocates more is stopped. */
const HEAP_MB = 1024;

function fail(message, status = 2) {
  process.stderr.write(`roverlab: ${message}\n`);
  process.exit(status);
}

function parseArgs(args) {
  if (args[0] !== 'run') fail(`${args[0] ? `unknown command '${args[0]}'` : 'no command'}\n${USAGE}`);
  const o = { sets: [], csvRate: 100 };
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (['--controller', '--duration', '--dt', '--set', '--csv', '--csv-rate'].includes(a)) {
      const v = args[++i];
      if (v === undefined) fail(`${a} needs a value\n${USAGE}`);
      if (a === '--controller') o.controller = v;
      else if (a === '--duration') o.sets.push(`simulation.duration=${v}`);
      else if (a === '--dt') o.sets.push(`simulation.dt=${v}`);
      else if (a === '--set') o.sets.push(v);
      else if (a === '--csv') o.csv = v;
      else {
        o.csvRate = Number(v);
        if (!(o.csvRate >= 1e-3 && o.csvRate <= 1e6)) fail(`--csv-rate must be a number of samples per simulated second in [0.001, 1e6]\n${USAGE}`);
      }
    } else if (a.startsWith('--')) {
      fail(`unknown option ${a}\n${USAGE}`);
    } else if (o.file === undefined) {
      o.file = a;
    } else {
      fail(`more than one scenario file\n${USAGE}`);
    }
  }
  if (o.file === undefined) fail(`no scenario file\n${USAGE}`);
  return o;
}

const read = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    return fail(`cannot read ${file}: ${e.message}`);
  }
};

if (process.argv[2] === 'study') {
  await studyCommand(process.argv.slice(3), { fail: (message) => fail(`${message}\n${USAGE}`), read, watchdogMs: WATCHDOG_MS, heapMb: HEAP_MB });
}
const o = parseArgs(process.argv.slice(2));
const scenario = read(o.file);
const program = o.controller === undefined ? null : { source: read(o.controller), name: path.basename(o.controller) };

// The worker's last word (ms since EPOCH) in shared memory: read at once, whatever this
// thread has still to take from its message queue when it gets to run.
const EPOCH = Date.now();
const beat = new Int32Array(new SharedArrayBuffer(8));  // [its last word, 1 once its core is loaded]
const worker = new Worker(path.join(here, 'run_worker.mjs'), {
  workerData: { scenario, folder: path.dirname(path.resolve(o.file)), sets: o.sets, program, csv: o.csv !== undefined, csvRate: o.csvRate, beat: beat.buffer, epoch: EPOCH },
  resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  stdout: false,
  stderr: false,
});
let heard = Date.now();
let lastTime = 0;
let finished = false;
const watchdog = setInterval(() => {
  // From the moment the worker's core is loaded: loading it is not the program's time.
  if (Atomics.load(beat, 1) === 1 && Date.now() - Math.max(heard, EPOCH + Atomics.load(beat, 0)) > WATCHDOG_MS) {
    finish({ programError: `the controller program did not return within ${WATCHDOG_MS / 1000} s (at t = ${lastTime} s): stopped` });
  }
}, 100);
process.on('SIGINT', () => worker.postMessage('interrupt'));

worker.on('message', (m) => {
  heard = Date.now();
  if (m.type === 'alive') lastTime = m.t;
  else if (m.type === 'done') finish(m);
});
worker.on('error', (e) => {
  const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
  finish({ programError: memory ? `the controller program ran out of memory (more than ${HEAP_MB} MB, at t = ${lastTime} s): stopped` : `the run failed: ${e.message}` });
});
worker.on('exit', () => {
  if (!finished) finish({ programError: `the run's worker stopped (at t = ${lastTime} s)` });
});

function finish(m) {
  if (finished) return;
  finished = true;
  clearInterval(watchdog);
  worker.terminate();
  if (m.issues) {
    process.stdout.write(`${JSON.stringify({ ok: false, issues: m.issues }, null, 2)}\n`);
    process.exit(1);
  }
  if (m.csv !== undefined && o.csv !== undefined) {
    try {
      writeFileSync(o.csv, m.csv);
    } catch (e) {
      fail(`cannot write ${o.csv}: ${e.message}`);
    }
  }
  const summary = m.summary ?? { ok: false, outcome: 'program_error', time_s: lastTime };
  if (m.programError) {
    summary.ok = false;
    summary.outcome = 'program_error';
    summary.error = m.programError;
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  for (const w of summary.warnings ?? []) process.stderr.write(`roverlab: warning: ${w.path}: ${w.message}\n`);
  const at = (t) => Number(t.toFixed(6));  // simulated time as the summary rounds it
  for (const w of m.programWarnings ?? []) process.stderr.write(`roverlab: controller: warning at t = ${at(w.t)} s: ${w.message}\n`);
  for (const l of m.log ?? []) process.stderr.write(`roverlab: controller: ${l.level === 'log' ? '' : `${l.level}: `}t = ${at(l.t)} s: ${l.text}\n`);
  if (m.programError) {
    process.stderr.write(`roverlab: ${m.programError}\n`);
    process.exit(5);
  }
  if (m.interrupted) {
    process.stderr.write(`roverlab: interrupted at t = ${summary.time_s} s\n`);
    process.exit(130);
  }
  if (summary.outcome === 'blew_up' || summary.outcome === 'left_terrain') {
    process.stderr.write(`roverlab: ${summary.error}\n`);
    process.exit(summary.outcome === 'blew_up' ? 3 : 4);
  }
  process.exit(0);
}
