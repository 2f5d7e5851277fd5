// The worker thread of tools/roverlab.mjs: the WASM core's World stepped to
// the end of the run, a controller program in its loop (web/src/controller/
// program.js). Tells the main thread it is alive while it runs (a heartbeat in
// shared memory at each of the program's calls, and messages), and sends the
// summary (and CSV text) at the end.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

import { compileProgram, ProgramError, ProgramRun } from '../web/src/controller/program.js';
import { sealGlobals } from '../web/src/controller/seal.js';
import createRoverlabCore from '../web/src/wasm/roverlab_core.js';

const core = await createRoverlabCore();
const post = parentPort.postMessage.bind(parentPort);
let interrupted = false;
parentPort.on('message', (m) => {
  if (m === 'interrupt') interrupted = true;
});
sealGlobals();

const { scenario, folder, sets, program, csv, csvRate, epoch } = workerData;
const beat = new Int32Array(workerData.beat);
/** The program's clock (ms), which also says this thread is alive (in the shared heartbeat). */
const now = () => {
  Atomics.store(beat, 0, Date.now() - epoch);
  return performance.now();
};
now();
Atomics.store(beat, 1, 1);  // the core is loaded: the watchdog counts from here

/** The C library's words for the errors a file named in a scenario meets, as the native tool says them. */
const ERRORS = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', EISDIR: 'Is a directory', ENOTDIR: 'Not a directory', ELOOP: 'Too many levels of symbolic links' };
/** Largest file a scenario names (scenario/folder_files.h, kMaxNamedFileBytes). */
const MAX_NAMED_FILE_BYTES = 64 * 2 ** 20;

/**
 * The files the scenario names, read from its folder as the native tool reads them
 * (scenario/folder_files.h): inside it, symbolic links followed, at most 64 MiB. The core
 * refuses a name with '..' or an absolute one before it asks.
 */
function filesBeside(dir) {
  return (name) => {
    try {
      const real = realpathSync(path.join(dir, name));
      if (!real.startsWith(realpathSync(dir) + path.sep)) return 'a symbolic link leads out of the scenario\'s folder; a file named in a scenario stays inside it';
      if (statSync(real).size > MAX_NAMED_FILE_BYTES) return `larger than ${MAX_NAMED_FILE_BYTES / 2 ** 20} MiB`;
      return readFileSync(real);
    } catch (e) {
      return ERRORS[e.code] ?? e.message;
    }
  };
}

/** C++ ostream's default format at precision 9 (%.9g), as the native tool writes CSV. */
function g9(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = x.toExponential(8).split('e');
  const e = Number(exponent);
  const strip = (s) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (e < -4 || e >= 9) return `${strip(mantissa)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return strip(x.toFixed(8 - e));
}

async function run() {
  let text = scenario;
  if (sets.length > 0) {
    const set = core.applyOverrides(text, sets);
    if (!set.ok) return { issues: set.issues };
    text = set.scenario;
  }
  // The program: --controller's file, else the scenario's own control.program.
  let source = program?.source ?? null;
  let doc = null;
  try {
    doc = JSON.parse(text);
  } catch {
    // the World reports it, with its place
  }
  const carried = doc?.control?.program;
  if (source === null && carried) {
    if (carried.language !== 'javascript') {
      return { issues: [{ path: 'control.program.language', message: `a ${carried.language} program runs with the Python package (docs/controllers.md); this tool runs JavaScript ones` }] };
    }
    source = carried.source;
  }
  const world = new core.World(text, filesBeside(folder));
  if (!world.ok()) return { issues: world.issues() };
  const model = world.model();
  const total = Math.max(0, Math.round(model.duration / model.dt));
  let runner = null;
  if (source !== null) {
    const compiled = compileProgram(source);
    if (!compiled.ok) {
      const { line, column, message } = compiled.error;
      return { programError: `${program?.name ?? 'control.program'}:${line}:${column}: ${message}` };
    }
    try {
      runner = new ProgramRun(world, compiled, { now });
    } catch (e) {
      if (e instanceof ProgramError) return { programError: e.message, summary: world.summary(0) };
      throw e;
    }
  }
  const csvEvery = Math.max(1, Math.round(1 / (csvRate * model.dt)));
  const lines = [];
  if (csv) {
    lines.push(model.columns.join(','));
    const start = world.samples();  // its first row is the start state, with its forces
    lines.push(Array.from(start.subarray(0, model.columns.length), g9).join(','));
  }
  const started = performance.now();
  let lastAlive = started;
  let steps = 0;
  let programError = null;
  while (steps < total && !interrupted) {
    const chunk = Math.min(total - steps, csv ? csvEvery - (steps % csvEvery) : 2500);
    let taken;
    try {
      taken = runner ? runner.step(chunk) : world.step(chunk);
    } catch (e) {
      if (!(e instanceof ProgramError)) throw e;
      programError = e.message;
      break;
    }
    steps += taken;
    if (csv && steps % csvEvery === 0 && taken > 0) lines.push(Array.from(world.telemetry(), g9).join(','));
    if (taken < chunk) break;  // the run stopped
    const now = performance.now();
    if (now - lastAlive > 50) {
      lastAlive = now;
      post({ type: 'alive', t: world.time() });
      await new Promise((resolve) => setImmediate(resolve));  // lets an interrupt in
    }
  }
  world.samples();  // not kept
  const summary = world.summary((performance.now() - started) / 1000);
  if (runner) summary.program = { period_s: runner.period, updates: runner.updates, warnings: runner.warnings.length, log_lines: runner.log.length };
  return {
    summary,
    programError,
    interrupted,
    programWarnings: runner?.warnings ?? [],
    log: runner?.log ?? [],
    csv: csv ? `${lines.join('\n')}\n` : undefined,
  };
}

post({ type: 'done', ...(await run()) });
