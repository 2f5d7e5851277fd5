// The stored golden hashes (tests/golden_hashes.json) of scenarios' end
// states: the native command-line tool, run in two separate processes, and
// two fresh instances of the WASM core all reproduce the one hash bit for bit.
// Any change of the results, however small, changes the hash.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const cli = path.join(root, 'build/native/roverlab');
const golden = JSON.parse(readFileSync(path.join(root, 'tests/golden_hashes.json'), 'utf8'));
const cores = [];

beforeAll(async () => {
  for (const f of [modulePath, cli]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm test to build it`);
  const { default: createRoverlabCore } = await import(modulePath);
  cores.push(await createRoverlabCore(), await createRoverlabCore());
});

function nativeRun(scenario, seconds) {
  const run = spawnSync(cli, ['run', path.join(root, scenario), '--duration', String(seconds)], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe.each(golden.cases)('$scenario for $seconds s', ({ scenario, seconds, steps, state_hash: golden }) => {
  test('the native build gives the golden hash in two processes', () => {
    const runs = [nativeRun(scenario, seconds), nativeRun(scenario, seconds)];
    for (const summary of runs) {
      expect(summary.steps).toBe(steps);
      expect(summary.state_hash).toBe(golden);
    }
  });

  test('the WASM core gives the same golden hash in two instances', () => {
    const text = readFileSync(path.join(root, scenario), 'utf8');
    for (const core of cores) {
      const run = core.runScenario(text, seconds);
      expect(run.ok).toBe(true);
      expect(run.summary.steps).toBe(steps);
      expect(run.summary.state_hash).toBe(golden);
    }
  });
});

test('the hash tells runs apart that differ in one setting', () => {
  const base = nativeRun(golden.cases[0].scenario, 0.2);
  const run = spawnSync(
    cli,
    ['run', path.join(root, golden.cases[0].scenario), '--duration', '0.2', '--set', 'robot.params.body_mass=42.001'],
    { encoding: 'utf8' },
  );
  const changed = JSON.parse(run.stdout);
  expect(changed.state_hash).toMatch(/^[0-9a-f]{16}$/);
  expect(changed.state_hash).not.toBe(base.state_hash);
});
