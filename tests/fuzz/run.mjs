#!/usr/bin/env node
// The fuzz harness's command line.
//
//   node tests/fuzz/run.mjs [--seed=N[,N...]] [--seconds=S] [--scenarios=N] [--links=N]
//                           [--report=FILE] [--regressions] [--parallel] [--case=ID] [--link-file=FILE] [--quiet]
//
// Runs seeded mutations of terrains/*.json through the native command-line tool
// (build/native/roverlab validate, 2 s and 256 MB at most) and the WASM core
// (new World in a worker thread), and mutated share links through decodeShare
// and the WASM core; prints per-class counts, the slowest case and the failures,
// which are written as reproducible files to a temporary directory.
// --case=s7-123 (or l7-45) reruns one case; --regressions runs the regression
// cases of regressions.mjs too; --parallel runs the native tool and the WASM
// core on a case at the same time (two cores). Exit status 1 when anything failed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkLinkCase, checkScenarioCase, fuzz, writeRepro } from './fuzz.mjs';
import { generateScenarioCase, root } from './generate.mjs';
import { generateLinkCase } from './links.mjs';
import { LIMITS, WasmOracle, cliPath } from './oracles.mjs';
import { REGRESSIONS, checkRegression } from './regressions.mjs';

const FAILURE_KINDS = ['crash', 'hang', 'oom', 'threw', 'silent-pass', 'disagree', 'slow', 'bad-refusal', 'bad-output', 'missing-path', 'bad-answer', 'internal', 'wrong-refusal'];

function parseArgs(argv) {
  const o = { seeds: [1], seconds: Infinity, scenarios: 200, links: 100, report: null, regressions: false, quiet: false };
  for (const a of argv) {
    const [k, v] = a.replace(/^--/, '').split(/=(.*)/s);
    if (k === 'seed') o.seeds = v.split(',').map(Number);
    else if (k === 'seconds') o.seconds = Number(v);
    else if (k === 'scenarios') o.scenarios = Number(v);
    else if (k === 'links') o.links = Number(v);
    else if (k === 'report') o.report = v;
    else if (k === 'regressions') o.regressions = true;
    else if (k === 'case') o.case = v;
    else if (k === 'link-file') o.linkFile = v;
    else if (k === 'quiet') o.quiet = true;
    else if (k === 'parallel') o.parallel = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error('--seed takes non-negative integers');
  return o;
}

function summarise(tally) {
  const classes = {};
  for (const [cls, t] of Object.entries(tally.classes).sort()) {
    classes[cls] = { tried: t.tried, ok: t.ok, refused: t.refused, failures: t.failures, slowest_ms: t.slowest?.ms, slowest_case: t.slowest?.id };
  }
  const count = (kind) => tally.failureCount(kind);
  return {
    tried: tally.totals.tried,
    failing_cases: tally.totals.failures,
    crashes: count('crash'), hangs: count('hang'), oom: count('oom'), throws: count('threw'),
    silent_passes: count('silent-pass'), disagreements: count('disagree'), slow: count('slow'),
    other_failures: FAILURE_KINDS.filter((k) => !['crash', 'hang', 'oom', 'threw', 'silent-pass', 'disagree', 'slow'].includes(k))
      .reduce((s, k) => s + count(k), 0),
    slowest: tally.slowest,
    classes,
  };
}

function printTable(title, summary, log) {
  log(`\n${title}: ${summary.tried} cases, ${summary.failing_cases} failing`);
  log(`  ${'class'.padEnd(20)} ${'tried'.padStart(6)} ${'ok'.padStart(6)} ${'refused'.padStart(7)} ${'slowest'.padStart(8)}  failures`);
  for (const [cls, t] of Object.entries(summary.classes)) {
    const f = Object.entries(t.failures).map(([k, n]) => `${k} ${n}`).join(', ') || '-';
    log(`  ${cls.padEnd(20)} ${String(t.tried).padStart(6)} ${String(t.ok).padStart(6)} ${String(t.refused).padStart(7)} ${`${t.slowest_ms} ms`.padStart(8)}  ${f}`);
  }
  if (summary.slowest) log(`  slowest: ${summary.slowest.id} (${summary.slowest.cls}, ${summary.slowest.ms} ms): ${summary.slowest.desc}`);
}

function commitOf() {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const log = o.quiet ? () => {} : (s) => console.log(s);
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: build it with scripts/build-native.sh`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-fuzz-'));
  const reproDir = path.join(tmp, 'failures');
  const wasm = new WasmOracle();
  await wasm.start();
  let failed = false;
  try {
    if (o.case || o.linkFile) {
      let c;
      if (o.linkFile) c = { id: path.basename(o.linkFile, '.link'), cls: 'link-file', desc: o.linkFile, fragment: readFileSync(o.linkFile, 'utf8'), mustRefuse: null };
      else {
        const m = /^([sl])(\d+)-(\d+)$/.exec(o.case);
        if (!m) throw new Error('--case takes s<seed>-<index> or l<seed>-<index>');
        c = m[1] === 's' ? generateScenarioCase(Number(m[2]), Number(m[3])) : generateLinkCase(Number(m[2]), Number(m[3]));
      }
      const result = c.fragment !== undefined ? await checkLinkCase(c, { wasm }) : await checkScenarioCase(c, { wasm, tmp });
      log(`${c.id} (${c.cls}): ${c.desc.slice(0, 300)}`);
      log(JSON.stringify({ mustRefuse: c.mustRefuse, native: result.native, wasm: result.wasm, decode: result.decode, failures: result.failures }, null, 2));
      if (result.failures.length) log(`files: ${writeRepro(reproDir, c, result)}.*`);
      failed = result.failures.length > 0;
      return;
    }

    const regressions = [];
    if (o.regressions) {
      log('regression cases:');
      for (const r of REGRESSIONS) {
        const t0 = performance.now();
        const { failures, results } = await checkRegression(r, { wasm, tmp });
        const ms = Math.round(performance.now() - t0);
        regressions.push({ name: r.name, ok: failures.length === 0, ms, failures });
        log(`  ${failures.length ? 'FAIL' : 'ok  '} ${r.name} (${ms} ms)${failures.map((f) => `\n         ${f.kind} [${f.oracle}] ${f.detail}`).join('')}`);
        if (failures.length) failed = true;
        void results;
      }
    }

    log(`fuzz: seeds ${o.seeds.join(',')}, up to ${o.scenarios} scenarios and ${o.links} links${Number.isFinite(o.seconds) ? ` or ${o.seconds} s` : ''}`);
    const t0 = Date.now();
    const loadStart = os.loadavg()[0];
    const commit = commitOf();
    const run = await fuzz({
      seeds: o.seeds, scenarios: o.scenarios, links: o.links, seconds: o.seconds, wasm, tmp, reproDir, log, parallel: o.parallel,
      onFailure: (c, result) => {
        if (!o.quiet) for (const f of result.failures) console.log(`  FAIL ${c.id} ${c.cls}: ${c.desc.slice(0, 120)}\n       ${f.kind} [${f.oracle}] ${String(f.detail).slice(0, 300)}`);
      },
    });
    const scenarios = summarise(run.scenarios);
    const links = summarise(run.links);
    printTable('scenarios', scenarios, log);
    printTable('share links', links, log);
    log(`\n${run.failures.length} failing cases in ${run.seconds.toFixed(1)} s; WASM instances replaced: ${wasm.restarts}`);
    if (run.failures.length) log(`failures written to ${reproDir}`);
    if (run.failures.length) failed = true;
    if (o.report) {
      const report = {
        command: `node tests/fuzz/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
        date: new Date(t0).toISOString(),
        commit,
        host: { cpus: os.cpus().length, node: process.version, load_average_1min: { start: loadStart, end: os.loadavg()[0] } },
        limits: LIMITS,
        seeds: o.seeds,
        seconds: Math.round(run.seconds),
        wasm_instances_replaced: wasm.restarts,
        regressions: regressions.length ? regressions.map(({ name, ok, ms }) => ({ name, ok, ms })) : undefined,
        scenarios,
        links,
        failures: run.failures.slice(0, 100).map((f) => Object.fromEntries(Object.entries(f).filter(([key]) => key !== 'file'))),
      };
      writeFileSync(o.report, JSON.stringify(report, null, 2) + '\n');
      log(`report: ${o.report}`);
    }
  } finally {
    await wasm.stop();
    if (!failed) rmSync(tmp, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 2;
});
