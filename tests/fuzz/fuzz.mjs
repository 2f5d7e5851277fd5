// The fuzz loop: cases from generate.mjs / links.mjs through the oracles,
// failures classified, counts per class, failures written as reproducible files.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateScenarioCase } from './generate.mjs';
import { generateLinkCase } from './links.mjs';
import { LIMITS, classifyNative, decodeOutcome, runNative, worldOutcome } from './oracles.mjs';

/** Outcomes that are failures whatever the case. */
const FAILING_OUTCOMES = new Set(['crash', 'hang', 'oom', 'threw', 'bad-output', 'bad-refusal', 'bad-answer', 'internal']);
const REFUSALS = new Set(['refused', 'usage']);

/** True when an issue at `issuePath` points at `casePath` (the same field or one containing it). */
export function pathCovers(issuePath, casePath) {
  if (!issuePath) return false;
  return casePath === issuePath || casePath.startsWith(`${issuePath}.`) || casePath.startsWith(`${issuePath}[`);
}

const firstIssue = (o) => (o?.issues?.[0] ? `${JSON.stringify(o.issues[0].path)}: ${o.issues[0].message}` : o?.detail ?? '');

/**
 * The native tool and the WASM core on one scenario case:
 * { native, wasm, failures: [{ kind, oracle, detail }] }.
 */
export async function checkScenarioCase(c, { wasm, tmp, parallel = false }) {
  const file = path.join(tmp, `case-${process.pid}.json`);
  writeFileSync(file, c.bytes);
  const args = ['validate', file, ...c.sets.flatMap((s) => ['--set', s])];
  // The WASM core has no --set: those cases are the command line's alone.
  const useWasm = wasm && c.sets.length === 0;
  const nativeRun = runNative(args, { tmp });
  // c.wasmInput: the JS string the WASM core gets instead of c.bytes (e.g. one holding a lone surrogate).
  const wasmOf = () => worldOutcome(wasm, c.bytes, c.wasmInput);
  const wasmRun = useWasm && parallel ? wasmOf() : null;
  const native = classifyNative(await nativeRun);
  const failures = [];
  const fail = (kind, oracle, detail) => failures.push({ kind, oracle, detail });
  if (FAILING_OUTCOMES.has(native.outcome)) fail(native.outcome, 'native', native.detail);
  if (native.ms > LIMITS.answerMs && native.outcome !== 'hang') fail('slow', 'native', `${Math.round(native.ms)} ms`);
  if (c.mustRefuse && native.outcome === 'ok') fail('silent-pass', 'native', `accepted although ${c.mustRefuse}`);
  if (c.path && native.outcome === 'refused' && !native.paths.some((p) => pathCovers(p, c.path))) {
    fail('missing-path', 'native', `no issue at ${c.path}; first: ${firstIssue(native)}`);
  }
  let w = null;
  if (useWasm) {
    w = await (wasmRun ?? wasmOf());
    if (FAILING_OUTCOMES.has(w.outcome)) fail(w.outcome, 'wasm', w.detail);
    if (w.ms > LIMITS.answerMs && w.outcome !== 'hang') fail('slow', 'wasm', `${Math.round(w.ms)} ms`);
    if (c.mustRefuse && w.outcome === 'ok') fail('silent-pass', 'wasm', `accepted although ${c.mustRefuse}`);
    if (c.path && w.outcome === 'refused' && !w.paths.some((p) => pathCovers(p, c.path))) {
      fail('missing-path', 'wasm', `no issue at ${c.path}; first: ${firstIssue(w)}`);
    }
    const nOk = native.outcome === 'ok', wOk = w.outcome === 'ok';
    const comparable = (o) => o.outcome === 'ok' || REFUSALS.has(o.outcome) || o.outcome === 'bad-refusal';
    if (comparable(native) && comparable(w) && nOk !== wOk) {
      fail('disagree', 'both', `native ${native.outcome}${nOk ? '' : ` (${firstIssue(native)})`}, WASM ${w.outcome}${wOk ? '' : ` (${firstIssue(w)})`}`);
    }
  }
  return { native, wasm: w, failures };
}

/** decodeShare, then the WASM core on a decoded scenario: { decode, wasm, failures }. */
export async function checkLinkCase(c, { wasm }) {
  const decode = await decodeOutcome(c.fragment);
  const failures = [];
  const fail = (kind, oracle, detail) => failures.push({ kind, oracle, detail });
  if (FAILING_OUTCOMES.has(decode.outcome)) fail(decode.outcome, 'decodeShare', decode.detail);
  if (decode.ms > LIMITS.answerMs && decode.outcome !== 'hang') fail('slow', 'decodeShare', `${Math.round(decode.ms)} ms`);
  let w = null;
  if (decode.outcome === 'ok' && wasm) {
    w = await worldOutcome(wasm, Buffer.from(JSON.stringify(decode.payload.scenario), 'utf8'));
    if (FAILING_OUTCOMES.has(w.outcome)) fail(w.outcome, 'wasm', w.detail);
    if (w.ms > LIMITS.answerMs && w.outcome !== 'hang') fail('slow', 'wasm', `${Math.round(w.ms)} ms`);
    if (c.mustRefuse && w.outcome === 'ok') fail('silent-pass', 'decodeShare+wasm', `accepted although ${c.mustRefuse}`);
  }
  if (c.mustAccept && (decode.outcome !== 'ok' || (w && w.outcome !== 'ok'))) {
    fail('wrong-refusal', decode.outcome !== 'ok' ? 'decodeShare' : 'wasm', decode.outcome !== 'ok' ? `${decode.code}: ${decode.detail}` : firstIssue(w));
  }
  delete decode.payload;
  return { decode, wasm: w, failures };
}

/** Counts per class. */
export class Tally {
  constructor() {
    this.classes = {};
    this.slowest = null;
    this.totals = { tried: 0, failures: 0 };
  }

  add(c, result, refusedOutcome) {
    const t = (this.classes[c.cls] ??= { tried: 0, ok: 0, refused: 0, failures: {}, slowest: null });
    t.tried++;
    this.totals.tried++;
    if (refusedOutcome === 'ok') t.ok++;
    else if (refusedOutcome === 'refused') t.refused++;
    for (const f of result.failures) {
      const k = `${f.kind}`;
      t.failures[k] = (t.failures[k] ?? 0) + 1;
    }
    if (result.failures.length) this.totals.failures++;
    const ms = Math.max(...[result.native?.ms, result.wasm?.ms, result.decode?.ms].filter((x) => typeof x === 'number'));
    const slow = { id: c.id, cls: c.cls, desc: c.desc.slice(0, 160), ms: Math.round(ms) };
    if (!t.slowest || ms > t.slowest.ms) t.slowest = slow;
    if (!this.slowest || ms > this.slowest.ms) this.slowest = slow;
  }

  failureCount(kind) {
    return Object.values(this.classes).reduce((s, t) => s + (t.failures[kind] ?? 0), 0);
  }
}

/** The case's overall answer for the tally: ok, refused or failed. */
function verdict(result) {
  const outs = [result.native?.outcome, result.wasm?.outcome, result.decode?.outcome].filter(Boolean);
  if (outs.some((o) => !(o === 'ok' || REFUSALS.has(o)))) return 'failed';
  if (outs.some((o) => REFUSALS.has(o))) return 'refused';
  return 'ok';
}

/** Writes a failing case as files: the scenario or link, and what each oracle said. */
export function writeRepro(dir, c, result) {
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, c.id);
  const meta = { id: c.id, cls: c.cls, seed: c.seed, index: c.index, base: c.base, desc: c.desc, mustRefuse: c.mustRefuse, failures: result.failures };
  if (c.bytes) {
    writeFileSync(`${base}.json`, c.bytes);
    const sets = c.sets.map((s, i) => {
      if (!Buffer.isBuffer(s)) return `--set '${s.length > 200 ? '<see .sets>' : s.replace(/'/g, `'\\''`)}'`;
      writeFileSync(`${base}.set${i}.bin`, s);
      return `--set "$(cat ${base}.set${i}.bin)"`;
    });
    if (c.sets.length) writeFileSync(`${base}.sets`, JSON.stringify(c.sets.map((s) => (Buffer.isBuffer(s) ? { hex: s.toString('hex') } : s))));
    meta.command = `build/native/roverlab validate ${base}.json ${sets.join(' ')}`.trim();
  } else {
    writeFileSync(`${base}.link`, c.fragment);
    meta.command = `node tests/fuzz/run.mjs --link-file=${base}.link`;
  }
  meta.native = result.native && { ...result.native, paths: undefined };
  meta.wasm = result.wasm && { ...result.wasm, paths: undefined };
  meta.decode = result.decode;
  writeFileSync(`${base}.result.json`, JSON.stringify(meta, null, 2));
  return base;
}

/**
 * Runs scenario and link cases, interleaved, for the seeds given, until the
 * counts are reached or `seconds` have passed. Returns { scenarios, links, failures, seconds }.
 */
export async function fuzz({ seeds, scenarios, links, seconds = Infinity, wasm, tmp, reproDir, onFailure, log, parallel = false }) {
  const sTally = new Tally();
  const lTally = new Tally();
  const failures = [];
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const perSeedS = Math.ceil(scenarios / seeds.length);
  const perSeedL = Math.ceil(links / seeds.length);
  let lastLog = t0;
  for (const seed of seeds) {
    let si = 0, li = 0;
    while ((si < perSeedS || li < perSeedL) && performance.now() < deadline) {
      // Keep the two streams in proportion to their targets.
      const doLink = li < perSeedL && (si >= perSeedS || li * perSeedS < si * perSeedL);
      const c = doLink ? generateLinkCase(seed, li++) : generateScenarioCase(seed, si++);
      const result = doLink ? await checkLinkCase(c, { wasm }) : await checkScenarioCase(c, { wasm, tmp, parallel });
      (doLink ? lTally : sTally).add(c, result, verdict(result));
      if (result.failures.length) {
        const file = reproDir ? writeRepro(reproDir, c, result) : null;
        failures.push({ id: c.id, cls: c.cls, desc: c.desc.slice(0, 200), failures: result.failures, file });
        onFailure?.(c, result, file);
      }
      if (log && performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`  ${((lastLog - t0) / 1000).toFixed(0)} s: seed ${seed}, ${sTally.totals.tried} scenarios, ${lTally.totals.tried} links, ${failures.length} failing`);
      }
    }
  }
  return { scenarios: sTally, links: lTally, failures, seconds: (performance.now() - t0) / 1000 };
}
