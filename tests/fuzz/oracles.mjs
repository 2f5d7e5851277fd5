// The oracles of the fuzz harness: the native command-line tool (a child
// process, 2 s and 256 MB at most), the WASM core (a worker thread, one
// instance, replaced when it breaks) and decodeShare (web/src/share/share_link.js).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { root } from './generate.mjs';

export const cliPath = path.join(root, 'build/native/roverlab');
export const coreModulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
export const shareLinkPath = path.join(root, 'web/src/share/share_link.js');

export const LIMITS = {
  /** Every case answers within this (ms), natively and in WASM. */
  answerMs: 1000,
  /** The native tool is killed after this (ms): a hang. */
  nativeKillMs: 2000,
  /** The WASM worker is terminated after this (ms): a hang. */
  wasmKillMs: 3000,
  /** Address space of the native tool and growth of the WASM memory (bytes). */
  memoryBytes: 256 * 1024 * 1024,
  /** Longest issue message (characters). */
  messageChars: 300,
};

const short = (s, n = 200) => (typeof s === 'string' && s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

/** Why an issue list is not a clear refusal ({path: string, message: non-empty ≤ 300}), or null. */
export function issueListProblem(issues) {
  if (!Array.isArray(issues)) return 'issues is not an array';
  if (issues.length === 0) return 'empty issue list';
  for (const [i, it] of issues.entries()) {
    if (typeof it?.path !== 'string') return `issues[${i}].path is not a string`;
    if (typeof it?.message !== 'string' || !/\S/.test(it.message)) return `issues[${i}].message is empty`;
    if (it.message.length > LIMITS.messageChars) return `issues[${i}].message has ${it.message.length} characters (at most ${LIMITS.messageChars})`;
    if (it.path.length > LIMITS.messageChars) return `issues[${i}].path has ${it.path.length} characters (at most ${LIMITS.messageChars})`;
  }
  return null;
}

// ---------------------------------------------------------------- native

/**
 * Runs `roverlab ARGS...` under prlimit. `args` may hold Buffers (raw bytes,
 * e.g. a --set value that is not UTF-8): they go through files and the shell.
 * Returns { status, signal, stdout, stderr, ms, killed }.
 */
export function runNative(args, { tmp, killMs = LIMITS.nativeKillMs, cwd = root } = {}) {
  let command = 'prlimit';
  let argv = [`--as=${LIMITS.memoryBytes}`, '--', cliPath, ...args];
  if (args.some((a) => Buffer.isBuffer(a))) {
    // sh -c 'exec prlimit ... "$(cat f1)" ...' keeps the bytes as they are.
    const words = args.map((a, i) => {
      if (!Buffer.isBuffer(a)) return `'${String(a).replace(/'/g, `'\\''`)}'`;
      const f = path.join(tmp, `arg-${process.pid}-${i}.bin`);
      writeFileSync(f, a);
      return `"$(cat '${f}')"`;
    });
    command = '/bin/sh';
    argv = ['-c', `exec prlimit --as=${LIMITS.memoryBytes} -- '${cliPath}' ${words.join(' ')}`];
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    let child;
    try {
      child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      throw new Error(`cannot start ${cliPath}: ${e.message}`, { cause: e });
    }
    const out = [], err = [];
    let outLen = 0, errLen = 0;
    const cap = 32 * 1024 * 1024;
    child.stdout.on('data', (d) => { if (outLen < cap) out.push(d); outLen += d.length; });
    child.stderr.on('data', (d) => { if (errLen < cap) err.push(d); errLen += d.length; });
    let killed = false;
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, killMs);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({
        status, signal, killed, ms: performance.now() - t0,
        stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes: outLen,
      });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ status: null, signal: null, killed: false, ms: performance.now() - t0, stdout: '', stderr: String(e), spawnError: true });
    });
  });
}

const OOM = /bad_alloc|length_error|Cannot allocate memory|out of memory|std::bad_array_new_length/i;

/**
 * The outcome of `roverlab validate`: ok | refused | usage | crash | oom | hang
 * | bad-output (exit 0 or 1 without the promised JSON) | bad-refusal (an issue
 * list that is not clear: empty message, message over 300 characters ...).
 */
export function classifyNative(r) {
  const base = { ms: r.ms, status: r.status, signal: r.signal };
  if (r.spawnError) return { ...base, outcome: 'crash', detail: `cannot start: ${r.stderr}` };
  if (r.killed) return { ...base, outcome: 'hang', detail: `no answer in ${LIMITS.nativeKillMs} ms` };
  if (r.signal) {
    const outcome = OOM.test(r.stderr) ? 'oom' : 'crash';
    return { ...base, outcome, detail: `${r.signal}: ${short(r.stderr.trim(), 300)}` };
  }
  if (r.status === 0 || r.status === 1) {
    let out;
    try {
      out = JSON.parse(r.stdout);
    } catch {
      return { ...base, outcome: 'bad-output', detail: `exit ${r.status}, stdout not JSON: ${short(r.stdout, 200)}` };
    }
    if (r.status === 0) {
      if (out?.ok !== true) return { ...base, outcome: 'bad-output', detail: `exit 0 with ${short(r.stdout, 200)}` };
      return { ...base, outcome: 'ok', warnings: out.warnings };
    }
    const problem = out?.ok === false ? issueListProblem(out.issues) : 'ok is not false';
    if (problem) return { ...base, outcome: 'bad-refusal', detail: `${problem} (stdout ${r.stdoutBytes} bytes)`, issues: clipIssues(out?.issues) };
    return { ...base, outcome: 'refused', issues: clipIssues(out.issues), paths: pathsOf(out.issues), stdoutBytes: r.stdoutBytes };
  }
  if (r.status === 2) {
    if (!/\S/.test(r.stderr)) return { ...base, outcome: 'bad-output', detail: 'exit 2 without a message' };
    return { ...base, outcome: 'usage', detail: short(r.stderr.split('\n')[0], 300) };
  }
  if (OOM.test(r.stderr)) return { ...base, outcome: 'oom', detail: `exit ${r.status}: ${short(r.stderr.trim(), 300)}` };
  return { ...base, outcome: 'crash', detail: `exit ${r.status}: ${short(r.stderr.trim(), 300)}` };
}

const pathsOf = (issues) => issues.slice(0, 100).map((i) => short(i.path, 300));

function clipIssues(issues) {
  if (!Array.isArray(issues)) return issues;
  return issues.slice(0, 5).map((i) => ({ path: short(i?.path, 120), message: short(i?.message, 200) }));
}

// ---------------------------------------------------------------- WASM

/** One WASM core instance in a worker thread; `call` never rejects. */
export class WasmOracle {
  constructor() {
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.restarts = 0;
  }

  async start() {
    if (!existsSync(coreModulePath)) throw new Error(`${coreModulePath} is missing: build it with \`npm run build:wasm\``);
    const worker = new Worker(new URL('./wasm_worker.mjs', import.meta.url), {
      workerData: { coreModulePath, memoryLimit: LIMITS.memoryBytes },
    });
    await new Promise((resolve, reject) => {
      const onMessage = (m) => { if (m?.ready) { worker.off('message', onMessage); resolve(); } };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    worker.on('message', (m) => {
      const p = this.pending.get(m.id);
      if (p) { this.pending.delete(m.id); p(m.answer); }
    });
    worker.on('error', (e) => {
      for (const p of this.pending.values()) p({ kind: 'threw', error: `worker error: ${e?.message ?? e}`, ms: 0 });
      this.pending.clear();
      this.broken = true;
    });
    this.worker = worker;
    this.broken = false;
  }

  async restart() {
    this.restarts++;
    const old = this.worker;
    this.worker = null;
    if (old) await old.terminate().catch(() => {});
    await this.start();
  }

  /** Posts { op, ... }; resolves { kind: ok | refused | threw | hang, ms, ... }. */
  async call(msg, killMs = LIMITS.wasmKillMs) {
    if (!this.worker || this.broken) {
      try {
        await this.restart();
      } catch (e) {
        this.broken = true;
        return { kind: 'threw', error: `the WASM core could not be started: ${e?.message ?? e}`, ms: 0 };
      }
    }
    const id = this.nextId++;
    const t0 = performance.now();
    let timer;
    const answer = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ kind: 'hang', error: `no answer in ${killMs} ms`, ms: performance.now() - t0 });
      }, killMs);
      this.worker.postMessage({ id, ...msg });
    });
    clearTimeout(timer);
    if (answer.kind === 'hang') {
      try {
        await this.restart();
      } catch {
        this.broken = true;
      }
    }
    return answer;
  }

  async stop() {
    if (this.worker) await this.worker.terminate();
    this.worker = null;
  }
}

/**
 * The WASM core's outcome for `new World(...)`: `text` when given, else the
 * bytes as a string when they are UTF-8, else the bytes themselves (a Uint8Array).
 */
export async function worldOutcome(wasm, bytes, text) {
  let input = text;
  if (input === undefined) {
    try {
      input = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      input = new Uint8Array(bytes);
    }
  }
  const a = await wasm.call({ op: 'world', input });
  return classifyWasm(a);
}

export function classifyWasm(a) {
  const base = { ms: a.ms, memory: a.memory, grew: a.grew };
  if (a.kind === 'threw') return { ...base, outcome: 'threw', detail: a.error };
  if (a.kind === 'hang') return { ...base, outcome: 'hang', detail: a.error };
  if (a.grew > LIMITS.memoryBytes) return { ...base, outcome: 'oom', detail: `memory grew by ${a.grew} bytes` };
  if (a.kind === 'refused') {
    const problem = issueListProblem(a.issues);
    if (problem) return { ...base, outcome: 'bad-refusal', detail: problem, issues: clipIssues(a.issues) };
    return { ...base, outcome: 'refused', issues: clipIssues(a.issues), paths: pathsOf(a.issues) };
  }
  return { ...base, outcome: 'ok', warnings: a.warnings };
}

// ---------------------------------------------------------------- links

let shareModule;
export async function loadShareLink() {
  return (shareModule ??= await import(shareLinkPath));
}

/** decodeShare(fragment) with a time limit; { outcome: ok | refused | threw | hang | bad-answer, ... }. */
export async function decodeOutcome(fragment, killMs = 5000) {
  const { decodeShare, SHARE_ERRORS } = await loadShareLink();
  const t0 = performance.now();
  let timer;
  let r;
  try {
    r = await Promise.race([
      decodeShare(fragment),
      new Promise((resolve) => { timer = setTimeout(() => resolve({ hang: true }), killMs); }),
    ]);
  } catch (e) {
    clearTimeout(timer);
    return { outcome: 'threw', detail: short(`${e?.name}: ${e?.message}`, 300), ms: performance.now() - t0 };
  }
  clearTimeout(timer);
  const ms = performance.now() - t0;
  if (r?.hang) return { outcome: 'hang', detail: `no answer in ${killMs} ms`, ms };
  if (r?.ok === true) {
    const s = r.payload?.scenario;
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return { outcome: 'bad-answer', detail: 'ok without a scenario object', ms };
    return { outcome: 'ok', payload: r.payload, ms };
  }
  if (r?.ok === false) {
    if (!Object.values(SHARE_ERRORS).includes(r.code)) return { outcome: 'bad-answer', detail: `unknown code ${r.code}`, ms };
    if (typeof r.message !== 'string' || !/\S/.test(r.message)) return { outcome: 'bad-answer', detail: `code ${r.code} without a message`, ms };
    if (r.code === SHARE_ERRORS.INTERNAL) return { outcome: 'internal', detail: short(r.message, 300), ms, code: r.code };
    return { outcome: 'refused', code: r.code, detail: short(r.message, 200), ms };
  }
  return { outcome: 'bad-answer', detail: `neither ok nor refused: ${short(JSON.stringify(r), 200)}`, ms };
}
