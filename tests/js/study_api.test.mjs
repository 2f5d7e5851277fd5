// Studies through the WASM core (core/bindings/study_api.h) beside the native
// command line's `roverlab study --json`: the same columns, the same rows
// (parameters, outcomes, predicates, steps, measures and state_hash), a
// threshold search that brackets the same value, and the CSV the command line
// writes. A WASM row's state_hash is the WASM run of its scenario with the
// row's --set assignments, as a native row's is the native `roverlab run
// --set`'s, and the two builds give the same bits (tests/golden_hashes.json):
// the rows are equal column for column but for the wall time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { loadWasmCore, root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
const studies = path.join(root, 'tests/data/studies');
let core;
let tmp;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
  core = await loadWasmCore();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function roverlab(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`roverlab ${args.join(' ')}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A row of either build without its wall time, the one column the builds do not share. */
const same = (row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'wall_s'));

describe('a grid study (tests/data/studies/cli_grid.json)', () => {
  const file = path.join(studies, 'cli_grid.json');
  const text = () => readFileSync(file, 'utf8');

  test('parseStudy: the command line’s columns, and the grid with the last parameter fastest', () => {
    const parsed = core.parseStudy(text());
    const native = JSON.parse(roverlab('study', file, '--json', '--jobs', '1'));
    expect(parsed.ok).toBe(true);
    expect(parsed.issues).toEqual([]);
    expect(parsed.isThreshold).toBe(false);
    expect(parsed.thresholdColumns).toEqual([]);
    expect(parsed.columns).toEqual(native.columns);
    expect(parsed.grid).toEqual([0.2, 0.3].flatMap((r) => [1, 2, 3].map((w) => ({ values: [r, w], repeat: 0 }))));
    expect(parsed.runs).toBe(6);
    expect(parsed.predicates.map((p) => p.name)).toEqual(['flipped', 'left_terrain', 'moved', 'reached']);
    expect(parsed.predicates.find((p) => p.name === 'reached')).toEqual({ name: 'reached', test: 'reached_x', value: 0.3, within_s: 0.4 });
  });

  test('runStudyRow: each row is the command line’s, and its state_hash the run of its assignments', () => {
    const source = text();
    const { grid, columns } = core.parseStudy(source);
    const native = JSON.parse(roverlab('study', file, '--json'));
    const base = path.join(tmp, 'base.json');
    writeFileSync(base, JSON.stringify(JSON.parse(source).scenario));
    expect(native.rows).toHaveLength(grid.length);
    grid.forEach((run, i) => {
      const row = core.runStudyRow(source, i);
      expect(Object.keys(row).sort()).toEqual([...columns].sort());
      expect(row.ok).toBe(true);
      expect(row.state_hash).toMatch(/^[0-9a-f]{16}$/);
      // The same row given by its values.
      expect(core.runStudyRow(source, run).state_hash).toBe(row.state_hash);
      const mine = native.rows[i];
      expect(same(row)).toEqual(same(mine));  // state_hash and measures too, bit for bit
      // Each build repeats the row alone: the WASM run of the scenario with the row's values
      // set, and the native `roverlab run BASE --set ...`.
      const { scenario, assignments } = core.studyScenario(source, i);
      expect(core.runScenario(scenario, 0).summary.state_hash).toBe(row.state_hash);
      const alone = JSON.parse(roverlab('run', base, ...assignments.flatMap((a) => ['--set', a])));
      expect(alone.state_hash).toBe(mine.state_hash);
    });
    // Two rows that differ in one value differ in their hash.
    expect(new Set(grid.map((_, i) => core.runStudyRow(source, i).state_hash)).size).toBe(grid.length);
  });

  test('studyCsv writes the command line’s CSV, field for field but for the wall time', () => {
    const source = text();
    const { grid } = core.parseStudy(source);
    const rows = grid.map((_, i) => core.runStudyRow(source, i));
    const mine = core.studyCsv(source, rows, 'rows').trimEnd().split('\n');
    const native = roverlab('study', file).trimEnd().split('\n');
    expect(mine[0]).toBe(native[0]);
    expect(mine).toHaveLength(native.length);
    const header = native[0].split(',');
    for (let i = 1; i < native.length; i++) {
      const a = mine[i].split(',');
      const b = native[i].split(',');
      header.forEach((column, k) => {
        if (column === 'wall_s') expect(Number(a[k])).toBeGreaterThanOrEqual(0);
        else expect(a[k], column).toBe(b[k]);  // "1.0" stays "1.0", "1250" stays "1250", an empty time stays empty
      });
    }
  });

  test('studyScenario sets a run’s values as --set does, linked paths too', () => {
    const study = JSON.parse(text());
    study.parameters[0] = { path: 'terrain.boxes[0].size[2]', values: [0.8], also: [{ path: 'terrain.boxes[0].centre[2]', scale: -0.5 }] };
    const source = JSON.stringify(study);
    const out = core.studyScenario(source, { values: [0.8, 2], repeat: 0 });
    expect(out.ok).toBe(true);
    expect(out.assignments).toEqual(['terrain.boxes[0].size[2]=0.8', 'terrain.boxes[0].centre[2]=-0.4', 'control.wheel_speed=2.0']);  // a range's values are numbers with a fraction, as in the CLI
    const scenario = JSON.parse(out.scenario);
    expect(scenario.terrain.boxes[0].size[2]).toBe(0.8);
    expect(scenario.terrain.boxes[0].centre[2]).toBe(-0.4);
    expect(scenario.control.wheel_speed).toBe(2);
  });
});

describe('a threshold search (tests/data/studies/python_threshold.json, its scenario inline)', () => {
  test('a scenario named by file is refused at `scenario`: the browser’s scenarios are inline', () => {
    const out = core.parseStudy(readFileSync(path.join(studies, 'python_threshold.json'), 'utf8'));
    expect(out.ok).toBe(false);
    expect(out.issues).toEqual([{ path: 'scenario', message: expect.stringMatching(/give the scenario inline/) }]);
  });

  test('searchThreshold brackets the command line’s threshold, run for run', () => {
    const study = JSON.parse(readFileSync(path.join(studies, 'python_threshold.json'), 'utf8'));
    study.scenario = JSON.parse(readFileSync(path.join(studies, study.scenario), 'utf8'));
    const file = path.join(tmp, 'threshold.json');
    const source = JSON.stringify(study);
    writeFileSync(file, source);
    const native = JSON.parse(roverlab('study', file, '--json'));
    const parsed = core.parseStudy(source);
    expect(parsed.isThreshold).toBe(true);
    expect(parsed.thresholdColumns).toEqual(native.threshold_columns);
    expect(parsed.columns).toEqual(native.columns);
    expect(parsed.grid).toHaveLength(native.thresholds.length);
    parsed.grid.forEach((combination, i) => {
      const heard = [];
      const answer = core.searchThreshold(source, i, (row) => heard.push(row));
      expect(answer).toEqual(core.searchThreshold(source, combination));
      const theirs = native.thresholds[i];
      expect(answer).toEqual(theirs);  // found, threshold, lower, upper, at_from, runs, message: bisection values, exactly
      expect(heard).toHaveLength(answer.runs);
      for (const row of heard) expect(row[parsed.threshold.path]).toBeGreaterThanOrEqual(0.5);
    });
    // At 1 rad/s the base is not past 1 m even after 3 s; at 2 rad/s the search finds when it is.
    expect(native.thresholds.map((t) => t.found)).toEqual([false, true]);
  });
});

describe('a study in a share link', () => {
  test('travels beside its base scenario, and a link whose study is not one is refused', async () => {
    const { decodeShare, encodeShare } = await import('../../web/src/share/share_link.js');
    const { scenario, ...study } = JSON.parse(readFileSync(path.join(studies, 'cli_grid.json'), 'utf8'));
    const decoded = await decodeShare(await encodeShare({ scenario, study }));
    expect(decoded).toEqual({ ok: true, payload: { scenario, study } });
    const text = JSON.stringify({ ...decoded.payload.study, scenario: decoded.payload.scenario });
    expect(core.parseStudy(text).grid).toHaveLength(6);
    await expect(encodeShare({ scenario, study: { ...study, scenario } })).rejects.toMatchObject({ code: 'bad-study', message: expect.stringMatching(/has a "scenario" field/) });
    await expect(encodeShare({ scenario, study: { ...study, format: 'roverlab-scenario' } })).rejects.toMatchObject({
      code: 'bad-study',
      message: 'The share data\'s study is malformed: it has "format": "roverlab-scenario"; a Roverlab study has "format": "roverlab-study".',
    });
    await expect(encodeShare({ scenario, study: [1] })).rejects.toMatchObject({ code: 'bad-study' });
  });
});

describe('refusals, each with its path', () => {
  const grid = () => JSON.parse(readFileSync(path.join(studies, 'cli_grid.json'), 'utf8'));

  test('malformed and hostile studies', () => {
    expect(core.parseStudy('{"format": ')).toEqual({ ok: false, issues: [{ path: 'format', message: expect.stringMatching(/^not valid JSON at byte 11/) }] });
    expect(core.parseStudy(42)).toEqual({ ok: false, issues: [{ path: '', message: "must be the study's JSON text (a string), got number" }] });
    const huge = grid();
    huge.parameters = [
      { path: 'control.wheel_speed', from: 1, to: 3, steps: 1000 },
      { path: 'robot.params.wheel_radius', from: 0.2, to: 0.3, steps: 1000 },
    ];
    const refused = core.parseStudy(JSON.stringify(huge));
    expect(refused.ok).toBe(false);
    expect(refused.issues).toEqual([{ path: 'parameters', message: expect.stringMatching(/asks for 1000000 runs; the app runs at most 20000/) }]);
    const bad = grid();
    bad.parameters[1].path = 'control.nope[3]';
    bad.predicates.moved = { base_y_past: 1 };
    const issues = core.parseStudy(JSON.stringify(bad)).issues.map((i) => i.path);
    expect(issues).toEqual(expect.arrayContaining(['parameters[1].path', 'predicates.moved.base_y_past']));
  });

  test('runs that are not the study’s', () => {
    const source = JSON.stringify(grid());
    expect(core.runStudyRow(source, 6).issues).toEqual([{ path: 'run', message: "must be an index of the study's grid, a whole number in [0, 6)" }]);
    expect(core.runStudyRow(source, 1.5).issues[0].path).toBe('run');
    expect(core.runStudyRow(source, { values: [0.2] }).issues).toEqual([{ path: 'run.values', message: 'must hold 2 values (one per parameter)' }]);
    expect(core.runStudyRow(source, { values: [0.2, 1], repeat: 1 }).issues[0].path).toBe('run.repeat');
    expect(core.runStudyRow(source, null).issues[0].path).toBe('run');
    expect(core.searchThreshold(source, 0).issues).toEqual([{ path: 'threshold', message: 'the study has no threshold search' }]);
    expect(core.studyCsv(source, [], 'thresholds').issues[0].path).toBe('which');
    expect(core.studyCsv(source, [7], 'rows').issues[0].path).toBe('rows[0]');
    // A value the validator refuses is a row, never a failure.
    const row = core.runStudyRow(source, { values: [-1, 2] });
    expect(row).toMatchObject({ ok: false, outcome: 'refused', message: expect.stringMatching(/^robot\.params\.wheel_radius: /) });
  });
});
