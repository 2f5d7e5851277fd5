// Hostile input (tests/fuzz): every regression case of tests/fuzz/regressions.mjs,
// then a bounded seeded fuzz run (scenarios through the command-line tool and
// the WASM core, share links through decodeShare and the WASM core). Any crash,
// hang, out-of-memory, exception across the WASM boundary, silent pass,
// disagreement between native and WASM, or answer slower than 1 s fails.
// Longer runs: node tests/fuzz/run.mjs --seconds=600 (docs/benchmarks/README.md).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fuzz } from '../fuzz/fuzz.mjs';
import { WasmOracle, cliPath } from '../fuzz/oracles.mjs';
import { REGRESSIONS, checkRegression } from '../fuzz/regressions.mjs';

const SEED = 20260101;
const FUZZ_SECONDS = 12;

let wasm;
let tmp;
let keep = false;

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: build it with scripts/build-native.sh`);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-fuzz-test-'));
  wasm = new WasmOracle();
  await wasm.start();
}, 60_000);

afterAll(async () => {
  await wasm?.stop();
  if (tmp && !keep) rmSync(tmp, { recursive: true, force: true });
});

const describeFailures = (failures) => failures.map((f) => `${f.kind} [${f.oracle}] ${f.detail}`).join('\n');

describe('regression cases', () => {
  test.each(REGRESSIONS.map((r) => [r.name, r]))('%s', async (_, r) => {
    const { failures } = await checkRegression(r, { wasm, tmp });
    expect(failures, describeFailures(failures)).toEqual([]);
  }, 60_000);
});

test(`bounded fuzz run (seed ${SEED}, ${FUZZ_SECONDS} s)`, async () => {
  const reproDir = path.join(tmp, 'failures');
  const run = await fuzz({ seeds: [SEED], scenarios: 1e6, links: 5e5, seconds: FUZZ_SECONDS, wasm, tmp, reproDir });
  const lines = run.failures.slice(0, 20).map((f) => `${f.id} ${f.cls}: ${f.desc}\n  ${describeFailures(f.failures).replace(/\n/g, '\n  ')}`);
  if (run.failures.length) {
    keep = true;
    lines.push(`${run.failures.length} failing cases; files in ${reproDir}; rerun one with node tests/fuzz/run.mjs --case=ID`);
  }
  expect(run.failures.length, lines.join('\n')).toBe(0);
  // A run that tried almost nothing proves nothing.
  expect(run.scenarios.totals.tried).toBeGreaterThanOrEqual(50);
  expect(run.links.totals.tried).toBeGreaterThanOrEqual(25);
  console.log(`fuzz: ${run.scenarios.totals.tried} scenarios, ${run.links.totals.tried} links in ${run.seconds.toFixed(1)} s; slowest ${run.scenarios.slowest?.ms} ms (${run.scenarios.slowest?.cls}), link ${run.links.slowest?.ms} ms (${run.links.slowest?.cls})`);
}, (FUZZ_SECONDS + 40) * 1000);
