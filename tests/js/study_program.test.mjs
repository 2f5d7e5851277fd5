// Studies of a JavaScript controller program (docs/controllers.md#a-study-of-a-controller):
// the study's parameters set the program's own (control.program.params.speed,
// read in init as model.params.speed), each row runs a fresh evaluation of
// the program in its loop (web/src/study/program_rows.js: core.StudyRow driven
// by ProgramRun), and a row is the row of the scripted study that sets the
// same wheel speed, column for column (state_hash too) but for the wall time;
// so is a threshold search of the program's parameter. `node tools/roverlab.mjs
// study` runs it in worker threads, with the native `roverlab study`'s rows;
// a program that throws, or never returns, stops its row only; the native
// tool, which runs no programs, refuses the study at its program.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { runProgramRow, searchProgramThreshold } from '../../web/src/study/program_rows.js';
import { loadWasmCore, root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const tool = path.join(root, 'tools/roverlab.mjs');
const base = () => JSON.parse(readFileSync(path.join(root, 'tests/data/studies/cli_grid.json'), 'utf8'));
let core;
let tmp;

beforeAll(async () => {
  core = await loadWasmCore();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-program-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Drives at the wheel speed its params name; `extra` is code run in update first. */
const SPEED = (extra = '') => `export default {
  period: 0.01,
  init(model) {
    this.speed = model.params.speed;
  },
  update(obs) {
    ${extra}
    return { wheel_speed: this.speed };
  },
};
`;

/** The question asked of the program's parameter, and of the scenario's own speed. */
function studies(speeds, source = SPEED()) {
  const hosted = base();
  hosted.predicates = { moved: { base_x_past: 0.2 } };
  const scripted = structuredClone(hosted);
  hosted.scenario.control = { program: { language: 'javascript', source, params: { speed: 0 } } };
  hosted.parameters = [{ path: 'control.program.params.speed', values: speeds }];
  scripted.parameters = [{ path: 'control.wheel_speed', values: speeds }];
  return { hosted, scripted };
}

/** A row without its parameter and wall time: outcome, state_hash, predicates, measures. */
const measures = (row) => Object.fromEntries(Object.entries(row).filter(([k]) => !['wall_s', 'control.program.params.speed', 'control.wheel_speed'].includes(k)));

function node(...args) {
  return spawnSync(process.execPath, [tool, ...args], { encoding: 'utf8', timeout: 120_000 });
}

describe('a study of a controller program', { timeout: 120_000 }, () => {
  test('each row is the scripted row of its speed; a threshold search of the program’s parameter is the scripted one', () => {
    const { hosted, scripted } = studies([1.5, 3]);
    const text = JSON.stringify(hosted);
    const rows = [0, 1].map((i) => runProgramRow(core, text, i));
    const want = [0, 1].map((i) => core.runStudyRow(JSON.stringify(scripted), i));
    expect(rows.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(rows.map(measures)).toEqual(want.map(measures));
    expect(rows[0].state_hash).not.toBe(rows[1].state_hash);

    for (const [s, p] of [[hosted, 'control.program.params.speed'], [scripted, 'control.wheel_speed']]) {
      s.parameters = [];
      s.threshold = { path: p, from: 0.5, to: 3, tolerance: 0.2, predicate: 'moved' };
    }
    const ran = [];
    const found = searchProgramThreshold(core, JSON.stringify(hosted), 0, (row) => ran.push(row));
    const wanted = [];
    const expected = core.searchThreshold(JSON.stringify(scripted), 0, (row) => wanted.push(row));
    expect(found.found).toBe(true);
    expect(found).toEqual(expected);
    expect(ran.map(measures)).toEqual(wanted.map(measures));
  });

  test('node tools/roverlab.mjs study --controller: the native tool’s rows of the scripted study; a failing program stops its row only', () => {
    const { hosted, scripted } = studies([1, 1.5, 2, 2.5], '');
    delete hosted.scenario.control.program.source;  // --controller gives it
    hosted.scenario.control.program.language = 'javascript';
    const files = { hosted: path.join(tmp, 'hosted.json'), scripted: path.join(tmp, 'scripted.json'), program: path.join(tmp, 'speed.mjs') };
    writeFileSync(files.hosted, JSON.stringify(hosted));
    writeFileSync(files.scripted, JSON.stringify(scripted));
    writeFileSync(files.program, SPEED());
    const out = path.join(tmp, 'rows.csv');
    const r = node('study', files.hosted, '--controller', files.program, '--jobs', '2', '--json', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    const native = spawnSync(cli, ['study', files.scripted, '--json', '--jobs', '1'], { encoding: 'utf8', timeout: 120_000 });
    expect(native.status, native.stderr).toBe(0);
    const want = JSON.parse(native.stdout);
    expect(got.rows.map(measures)).toEqual(want.rows.map(measures));
    expect(got.columns.slice(1)).toEqual(want.columns.slice(1));
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe(got.columns.join(','));

    // A program that throws above 2 rad/s, and one that never returns at 1 rad/s: those rows
    // only, the one at once with its line, the other by the watchdog (2 s without a word).
    writeFileSync(files.program, SPEED("if (this.speed > 2) throw new RangeError('too fast');\n    while (this.speed === 1) {}"));
    const hostile = node('study', files.hosted, '--controller', files.program, '--jobs', '2', '--json');
    expect(hostile.status, hostile.stderr).toBe(0);
    const rows = JSON.parse(hostile.stdout).rows;
    expect(rows.map((row) => row.outcome)).toEqual(['program_error', 'ok', 'ok', 'program_error']);
    expect(rows[0].message).toBe('the controller program did not return within 2 s: stopped');
    expect(rows[0]['control.program.params.speed']).toBe(1);
    expect(rows[3].message).toMatch(/^line 7: update at t = 0 s: RangeError: too fast$/);
    expect(rows.slice(1, 3).map(measures)).toEqual(want.rows.slice(1, 3).map(measures));
  });

  test('studies/rocker-speed-law-slope.json: the speed law’s own speeds decide whether rocker8 reaches x = 5 m in 6 s', () => {
    // Two of its 16 rows (docs/studies.md): level 4 rad/s slowing to 1 on the slope reaches it
    // (5.80 s), level 4 slowing to 0.5 does not (4.94 m).
    const text = readFileSync(path.join(root, 'studies/rocker-speed-law-slope.json'), 'utf8');
    // The study carries the example program itself, as it is in controllers/.
    expect(JSON.parse(text).scenario.control.program.source).toBe(readFileSync(path.join(root, 'controllers/rocker_speed.mjs'), 'utf8'));
    const grid = core.parseStudy(text).grid;
    const row = (level, rough) => runProgramRow(core, text, grid.findIndex((r) => r.values[0] === level && r.values[1] === rough));
    const [slowest, slowing] = [row(4, 0.5), row(4, 1)];
    expect([slowest.outcome, slowing.outcome]).toEqual(['ok', 'ok']);
    expect(slowing.reached).toBe(true);
    expect(slowing.reached_time_s).toBeCloseTo(5.8, 1);
    expect(slowest.reached).toBe(false);
    expect(slowest.base_x_m).toBeGreaterThan(4.8);
  });

  test('the native tool refuses it at its program, before any run', () => {
    const { hosted } = studies([1]);
    const file = path.join(tmp, 'native.json');
    writeFileSync(file, JSON.stringify(hosted));
    const r = spawnSync(cli, ['study', file, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    const [issue] = JSON.parse(r.stdout).issues;
    expect(issue.path).toBe('scenario.control.program');
    expect(issue.message).toMatch(/node tools\/roverlab\.mjs run` or `study`/);
  });
});
