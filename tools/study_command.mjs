// `node tools/roverlab.mjs study STUDY.json [--controller PROGRAM.mjs]
//  [--jobs N] [--out FILE.csv] [--json]`: a study (docs/study-format.md) on the
// WASM core, in worker threads (study_worker.mjs), with a controller program
// in each run's loop: the study scenario's control.program, or --controller's
// file (its params kept), so that the study's parameters may sweep the
// program's own (control.program.params.NAME). Rows are the native tool's,
// column for column; the output is as `roverlab study` writes it (--out: the
// rows, or a threshold study's answers with its runs in FILE.runs.csv;
// --json: { columns, rows, ... }; else CSV on stdout), in the grid's order,
// written at the end (no resume: that is the native tool's). A program that
// fails stops its row only (outcome "program_error"); one whose update never
// returns (no word for WATCHDOG_MS) or that exhausts its worker's heap is
// stopped with its worker, which is replaced. Exit 0, 1 (the study refused:
// its issues as JSON), 2 (usage, files), 130 (Ctrl-C: the rows finished).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import createRoverlabCore from '../web/src/wasm/roverlab_core.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The time the workers' heartbeats count from (ms since the epoch): an Int32 holds 24 days of it. */
const EPOCH = Date.now();
export const STUDY_USAGE = '  node tools/roverlab.mjs study STUDY.json [--controller PROGRAM.mjs] [--jobs N] [--out FILE.csv] [--json]';

function parseStudyArgs(args, fail) {
  const o = { jobs: os.availableParallelism?.() ?? os.cpus().length };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') {
      o.json = true;
    } else if (['--controller', '--jobs', '--out'].includes(a)) {
      const v = args[++i];
      if (v === undefined) fail(`${a} needs a value`);
      if (a === '--controller') o.controller = v;
      else if (a === '--out') o.out = v;
      else {
        o.jobs = Number(v);
        if (!(Number.isInteger(o.jobs) && o.jobs >= 1 && o.jobs <= 64)) fail('--jobs must be a whole number in [1, 64]');
      }
    } else if (a.startsWith('--')) {
      fail(`unknown option ${a}`);
    } else if (o.file === undefined) {
      o.file = a;
    } else {
      fail('more than one study file');
    }
  }
  if (o.file === undefined) fail('no study file');
  return o;
}

/** The study's text with --controller's program as its scenario's control.program. */
function withController(text, source) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return text;  // the core says where it breaks
  }
  const scenario = doc?.scenario;
  if (!scenario || typeof scenario !== 'object' || Array.isArray(scenario)) return text;
  const control = scenario.control && typeof scenario.control === 'object' ? scenario.control : {};
  const params = control.program?.params;
  scenario.control = { ...control, program: { language: 'javascript', source, ...(params ? { params } : {}) } };
  return JSON.stringify(doc);
}

export async function studyCommand(args, { fail, read, watchdogMs, heapMb }) {
  const o = parseStudyArgs(args, fail);
  let text = read(o.file);
  if (o.controller !== undefined) text = withController(text, read(o.controller));
  const core = await createRoverlabCore();
  const study = core.parseStudy(text);
  if (!study.ok) {
    process.stdout.write(`${JSON.stringify({ ok: false, issues: study.issues }, null, 2)}\n`);
    process.exit(1);
  }
  const hosted = Boolean(JSON.parse(study.scenario)?.control?.program);
  const tasks = study.grid.map((_, i) => i);
  const results = new Array(tasks.length).fill(null);
  const runs = [];  // a threshold study's runs, as they finish
  let done = 0;
  const workers = new Set();

  const failed = (index, message) => {
    if (study.isThreshold) return { found: false, runs: 0, message, ...valuesOf(study, index, study.thresholdColumns) };
    return { ok: false, outcome: 'program_error', message, ...valuesOf(study, index, study.columns) };
  };
  const progress = () => process.stderr.write(`\rroverlab: study: ${done}/${results.length} ${study.isThreshold ? 'searches' : 'rows'}`);

  await new Promise((resolve) => {
    let watchdog = null;
    const end = () => {
      clearInterval(watchdog);
      resolve();
    };
    const start = () => {
      // The worker's last word (ms since the epoch, less EPOCH), written by it in shared memory:
      // read at once, whatever this thread has still to take from its message queue.
      const beat = new Int32Array(new SharedArrayBuffer(4));
      const slot = { worker: null, index: null, beat, heard: () => EPOCH + Atomics.load(beat, 0) };
      Atomics.store(beat, 0, Date.now() - EPOCH);
      slot.worker = new Worker(path.join(here, 'study_worker.mjs'), {
        workerData: { text, beat: beat.buffer, epoch: EPOCH },
        resourceLimits: { maxOldGenerationSizeMb: heapMb },
        stdout: false,
        stderr: false,
      });
      workers.add(slot);
      slot.worker.on('message', (m) => {
        if (m.type === 'ready') next(slot);
        else if (m.type === 'run') runs.push(m.row);
        else if (m.type === 'done') settle(slot, m.result);
      });
      slot.worker.on('error', (e) => {
        const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
        replace(slot, memory ? `the controller program ran out of memory (more than ${heapMb} MB): stopped` : `the run failed: ${e.message}`);
      });
      slot.worker.on('exit', () => replace(slot, 'the run’s worker stopped'));
    };
    const next = (slot) => {
      slot.index = tasks.shift() ?? null;
      Atomics.store(slot.beat, 0, Date.now() - EPOCH);
      if (slot.index !== null) return slot.worker.postMessage({ index: slot.index });
      workers.delete(slot);
      slot.worker.removeAllListeners('exit');
      slot.worker.terminate();
      if (workers.size === 0) end();
    };
    const settle = (slot, result) => {
      results[slot.index] = result;
      done += 1;
      progress();
      next(slot);
    };
    // The worker is gone (or made to go): its task is a failed row, a fresh worker goes on.
    const replace = (slot, message) => {
      if (!workers.has(slot)) return;
      workers.delete(slot);
      slot.worker.removeAllListeners();
      slot.worker.on('error', () => {});
      slot.worker.terminate();
      if (slot.index !== null) {
        results[slot.index] = failed(slot.index, message);
        done += 1;
        progress();
      }
      if (tasks.length > 0) start();
      else if (workers.size === 0) end();
    };
    watchdog = setInterval(() => {
      if (!hosted) return;  // a run without a program is the core's alone: no word while it runs
      for (const slot of [...workers]) {
        if (slot.index !== null && Date.now() - slot.heard() > watchdogMs) {
          replace(slot, `the controller program did not return within ${watchdogMs / 1000} s: stopped`);
        }
      }
    }, 100);
    process.on('SIGINT', () => {
      clearInterval(watchdog);
      for (const slot of workers) slot.worker.terminate();
      write(core, text, o, study, results.filter(Boolean), runs, fail);
      process.stderr.write(`\nroverlab: interrupted: ${done} of ${results.length} finished\n`);
      process.exit(130);
    });
    if (tasks.length === 0) end();
    for (let k = 0; k < Math.min(o.jobs, tasks.length); k++) start();
  });
  process.stderr.write('\n');
  write(core, text, o, study, results, runs, fail);
  process.exit(0);
}

/** A task's parameter values by column (a failed row keeps its place in the grid). */
function valuesOf(study, index, columns) {
  const run = study.grid[index];
  const out = {};
  study.parameters.forEach((p, k) => {
    if (columns.includes(p.path)) out[p.path] = run.values[k];
  });
  if (study.repeats > 1) out.repeat = run.repeat;
  return out;
}

function write(core, text, o, study, results, runs, fail) {
  const table = (rows, which) => {
    const made = core.studyCsv(text, rows, which);
    if (typeof made !== 'string') fail(`the rows could not be written: ${JSON.stringify(made.issues)}`);
    return made;
  };
  const save = (file, content) => {
    try {
      writeFileSync(file, content);
    } catch (e) {
      fail(`cannot write ${file}: ${e.message}`);
    }
  };
  if (o.json) {
    const doc = study.isThreshold ? { columns: study.columns, rows: runs, threshold_columns: study.thresholdColumns, thresholds: results } : { columns: study.columns, rows: results };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  }
  const main = study.isThreshold ? table(results, 'thresholds') : table(results, 'rows');
  if (o.out !== undefined) {
    save(o.out, main);
    if (study.isThreshold) save(`${o.out.replace(/\.csv$/, '')}.runs.csv`, table(runs, 'rows'));
  } else if (!o.json) {
    process.stdout.write(main);
  }
}
