// `roverlab study` (build/native/roverlab): rows that re-run alone to the same
// state_hash, the same rows on one thread or two, Ctrl-C that keeps the
// finished rows, a second run that resumes, and refusals.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'build/native/roverlab');
const gridStudy = path.join(root, 'tests/data/studies/cli_grid.json');
let tmp;

function roverlab(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rowsOf = (file) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(','));

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test('a row re-run alone with roverlab run --set gives its state_hash; one thread or two, the same rows', () => {
  const one = roverlab('study', gridStudy, '--jobs', '1', '--json');
  expect(one.status, one.stderr).toBe(0);
  const { columns, rows } = JSON.parse(one.stdout);
  expect(columns.slice(0, 6)).toEqual(['robot.params.wheel_radius', 'control.wheel_speed', 'ok', 'outcome', 'message', 'state_hash']);
  expect(rows).toHaveLength(6);
  const two = JSON.parse(roverlab('study', gridStudy, '--jobs', '2', '--json').stdout);
  expect(two.rows.map((r) => r.state_hash)).toEqual(rows.map((r) => r.state_hash));

  const base = path.join(tmp, 'base.json');
  writeFileSync(base, JSON.stringify(JSON.parse(readFileSync(gridStudy, 'utf8')).scenario));
  for (const row of [rows[0], rows[5]]) {
    const run = roverlab('run', base, '--set', `robot.params.wheel_radius=${row['robot.params.wheel_radius']}`, '--set', `control.wheel_speed=${row['control.wheel_speed']}`);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).state_hash).toBe(row.state_hash);
  }
});

test('Ctrl-C keeps the finished rows; the same command resumes and runs only the rest', async () => {
  // 12 rows of ~0.2 s each on one thread (the wheel rig for 60 s of simulated time).
  const study = JSON.parse(readFileSync(gridStudy, 'utf8'));
  study.scenario.simulation.duration = 60;
  study.parameters = [
    { path: 'robot.params.wheel_radius', values: [0.2, 0.25, 0.3] },
    { path: 'control.wheel_speed', from: 0.5, to: 2, steps: 4 },
  ];
  const file = path.join(tmp, 'long.json');
  writeFileSync(file, JSON.stringify(study));
  const out = path.join(tmp, 'long.csv');

  const child = spawn(cli, ['study', file, '--jobs', '1', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  // Interrupted once three rows are in the file.
  const deadline = Date.now() + 60_000;
  while (!(existsSync(out) && rowsOf(out).length >= 4) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGINT');
  expect(await exited, stderr).toBe(130);
  expect(stderr).toMatch(/interrupted; \d+ rows are kept in .*long\.csv/);
  const kept = rowsOf(out).slice(1);
  expect(kept.length).toBeGreaterThanOrEqual(3);
  expect(kept.length).toBeLessThan(12);
  for (const row of kept) expect(row[2]).toBe('true');  // finished rows only, each ok

  const again = roverlab('study', file, '--jobs', '2', '--out', out);
  expect(again.status, again.stderr).toBe(0);
  expect(again.stderr).toContain(`${12 - kept.length} runs, ${kept.length} kept from an earlier run`);
  const all = rowsOf(out);
  expect(all).toHaveLength(13);
  // In the grid's order, each kept row unchanged.
  expect(all.slice(1).map((r) => [Number(r[0]), Number(r[1])])).toEqual(
    [0.2, 0.25, 0.3].flatMap((radius) => [0.5, 1, 1.5, 2].map((speed) => [radius, speed])),
  );
  for (const row of kept) expect(all.map((r) => r.join(','))).toContain(row.join(','));
  // The resumed file holds what one uninterrupted run gives.
  const whole = path.join(tmp, 'whole.csv');
  expect(roverlab('study', file, '--jobs', '2', '--out', whole).status).toBe(0);
  expect(rowsOf(whole).map((r) => r[5])).toEqual(all.map((r) => r[5]));
}, 120_000);

test('refusals: a malformed study at its path, a results file of another study left as it is', () => {
  const study = JSON.parse(readFileSync(gridStudy, 'utf8'));
  study.parameters[1].steps = 0;
  const bad = path.join(tmp, 'bad.json');
  writeFileSync(bad, JSON.stringify(study));
  const r = roverlab('study', bad);
  expect(r.status).toBe(1);
  expect(JSON.parse(r.stdout).issues).toEqual([{ path: 'parameters[1].steps', message: expect.stringContaining('whole number') }]);

  const other = path.join(tmp, 'other.csv');
  writeFileSync(other, 'time_s,base_x_m\n0,0\n');
  const refused = roverlab('study', gridStudy, '--out', other);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain('holds other results');
  expect(readFileSync(other, 'utf8')).toBe('time_s,base_x_m\n0,0\n');

  const missing = roverlab('study', path.join(tmp, 'no-such-study.json'));
  expect(missing.status).toBe(2);  // an unreadable file, as for run
  expect(missing.stderr).toContain('cannot read');

  const outside = { ...JSON.parse(readFileSync(gridStudy, 'utf8')), scenario: '../../../etc/passwd' };
  writeFileSync(bad, JSON.stringify(outside));
  const up = roverlab('study', bad);
  expect(up.status).toBe(1);
  expect(JSON.parse(up.stdout).issues[0]).toMatchObject({ path: 'scenario', message: expect.stringContaining("stays inside the scenario's folder") });
});
