// The Study tab in headless Chromium: a 3 × 2 grid of the wheel rig built in
// the tab's form, run in 2 workers, its rows the WASM core's in Node
// (state_hash for state_hash) and its CSV the native command line's; a cell of the heat map
// clicked opens that run in the view; a run cancelled midway keeps its
// finished rows and Run goes on with the rest; a runaway run is stopped at
// the time limit and the study goes on, as it does past workers that throw
// or whose core fails; a threshold search drawn as
// thresholds against a parameter; a study shared by a link opens ready in a
// fresh page without running; a link with a huge grid and a file that is not
// JSON are refused with their paths; a study file whose scenario carries a
// controller program runs it only after "Run it", each row then the scripted
// row of the same speed. Screenshots: test-results/study-*.png.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { encodeShare } from '../../web/src/share/share_link.js';
import { loadWasmCore, root } from '../js/support.mjs';
import { collectErrors, openAppPage, saveScreenshot, serveApp } from './support.mjs';

const app = serveApp();
let page;
let errors;
let core;

const waitFor = (fn, arg, timeout = 60_000) => page.waitForFunction(fn, arg, { timeout });
const tab = () => page.evaluate(() => ({ ...document.getElementById('study').dataset }));
const until = (status) => waitFor((s) => document.getElementById('study').dataset.status === s, status);

/** Types into a field of the form (found by its data-path) and leaves it, as a person does. */
async function type(path, value) {
  const field = page.locator(`#study [data-path="${path}"]`);
  await field.fill(String(value));
  await field.press('Tab');
}

/** The study as the tab's Save writes it. */
async function savedStudy() {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#study button:has-text("Save")')]);
  return readFileSync(await download.path(), 'utf8');
}

/** The fields of a CSV line ("" quotes a field with a comma, a quote or a line break). */
function fields(line) {
  const out = [''];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') out[out.length - 1] += line[++i];
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) out.push('');
    else out[out.length - 1] += c;
  }
  return out;
}

/** The CSV the tab exports: { name, header, rows (cells) }. */
async function exportedCsv(selector = '#study .study-csv') {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const [header, ...rows] = readFileSync(await download.path(), 'utf8').trimEnd().split('\n').map(fields);
  return { name: download.suggestedFilename(), header, rows };
}

/** Waits until the Run button reads `label` (and can be pressed); says what it reads instead. */
async function runButtonReads(label) {
  try {
    await waitFor((l) => document.querySelector('#study .study-run').textContent === l && !document.querySelector('#study .study-run').disabled, label, 10_000);
  } catch {
    const now = await page.evaluate(() => [document.querySelector('#study .study-run').textContent, document.querySelector('#study .study-issues').textContent]);
    throw new Error(`the Run button reads ${JSON.stringify(now[0])}, not ${JSON.stringify(label)}; issues: ${now[1]}`);
  }
}

/** The centre (page px) of heat map cell (xi, yi) of an nx × ny map. */
async function cellCentre(xi, yi, nx, ny) {
  const canvas = page.locator('#study canvas.study-plot');
  const box = await canvas.boundingBox();
  const plot = JSON.parse(await canvas.getAttribute('data-plot'));
  return [box.x + plot.x + ((xi + 0.5) * plot.w) / nx, box.y + plot.y + plot.h - ((yi + 0.5) * plot.h) / ny];
}

beforeAll(async () => {
  core = await loadWasmCore();
  ({ page, errors } = await openAppPage(app.browser, `${app.url}?scenario=flat-wheel-rig`, { acceptDownloads: true }));
}, 120_000);

afterAll(async () => page?.close());

describe('the Study tab', { timeout: 120_000 }, () => {
  test('a 3 × 2 grid built in the form runs in 2 workers: the core’s rows, a heat map, a cell opens its run', async () => {
    await page.click('#tab-study');
    await page.evaluate(() => (document.getElementById('tab-help').open = false));
    await page.waitForSelector('#study [data-path="parameters[0].path"]');
    expect(await page.textContent('#study .study-base b')).toBe('wheel-rig on flat ground');
    // The wheel speed (offered first for this scenario), 1 … 3 rad/s in 3 steps; then the wheel radius, 0.2 and 0.3 m.
    expect(await page.inputValue('#study [data-path="parameters[0].path"]')).toBe('control.wheel_speed');
    await type('scenario.simulation.duration', 0.5);
    await type('parameters[0].from', 1);
    await type('parameters[0].to', 3);
    await type('parameters[0].steps', 3);
    await page.click('#study .study-add');
    await type('parameters[1].path', 'robot.params.wheel_radius');
    expect(await page.textContent('#study .study-param[data-index="1"] .study-hint')).toMatch(/m · 0\.02 … 2 · now 0\.19/);
    await type('parameters[1].from', 0.2);
    await type('parameters[1].to', 0.3);
    await type('parameters[1].steps', 2);
    // The question: did the base pass x = 0.2 m?
    await page.fill('#study .study-pred-name', 'moved');
    await page.press('#study .study-pred-name', 'Tab');
    await page.fill('#study .study-pred-value', '0.2');
    await page.fill('#study .study-workers', '2');
    await runButtonReads('Run 6 rows');

    const started = Date.now();
    await page.click('#study .study-run');
    await until('done');
    console.log(`6 rows in 2 workers: ${Date.now() - started} ms`);
    expect(await tab()).toMatchObject({ status: 'done', done: '6', total: '6' });
    expect(await page.textContent('#study .study-status')).toMatch(/^6 rows in \d+\.\d s\.$/);

    // The rows are the WASM core's in Node, state_hash for state_hash; the CSV has the core's columns.
    const text = await savedStudy();
    const study = JSON.parse(text);
    expect(study.parameters).toEqual([
      { path: 'control.wheel_speed', from: 1, to: 3, steps: 3 },
      { path: 'robot.params.wheel_radius', from: 0.2, to: 0.3, steps: 2 },
    ]);
    expect(study.predicates).toEqual({ moved: { base_x_past: 0.2 } });
    const parsed = core.parseStudy(text);
    expect(parsed.ok).toBe(true);
    const csv = await exportedCsv();
    expect(csv.name).toMatch(/^roverlab-study-wheel-rig-on-flat-ground-study-\d{8}-\d{6}\.csv$/);
    expect(csv.header).toEqual(parsed.columns);
    expect(csv.rows).toHaveLength(6);
    const hash = csv.header.indexOf('state_hash');
    parsed.grid.forEach((run, i) => {
      const row = core.runStudyRow(text, i);
      expect(row.ok).toBe(true);
      expect(csv.rows[i][hash]).toBe(row.state_hash);
      expect(csv.rows[i].slice(0, 2)).toEqual(run.values.map((v) => String(v).includes('.') ? String(v) : `${v}.0`));
      expect(csv.rows[i][csv.header.indexOf('moved')]).toBe(String(row.moved));
    });
    // And the command line's: `roverlab study` on the saved study writes the same CSV, field for
    // field (state_hash too: the builds give the same bits) but for the wall time.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'roverlab-study-'));
    writeFileSync(path.join(dir, 'study.json'), text);
    const cli = spawnSync(path.join(root, 'build/native/roverlab'), ['study', path.join(dir, 'study.json'), '--jobs', '1'], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(cli.status).toBe(0);
    const wall = csv.header.indexOf('wall_s');
    const withoutWall = (row) => row.filter((_, k) => k !== wall);
    expect(cli.stdout.trimEnd().split('\n').map((line) => withoutWall(fields(line)))).toEqual([csv.header, ...csv.rows].map(withoutWall));

    // The heat map: x the wheel speed (3 values), y the wheel radius (2). The cell (3 rad/s, 0.3 m) tells its run, and a click opens it.
    await page.evaluate(() => document.querySelector('#study .study-plot-box').scrollIntoView({ block: 'center' }));
    const [x, y] = await cellCentre(2, 1, 3, 2);
    await page.mouse.move(x, y);
    await waitFor(() => !document.querySelector('#study .study-tip').hidden);
    const tip = await page.textContent('#study .study-tip');
    expect(tip).toContain('control.wheel_speed = 3');
    expect(tip).toContain('robot.params.wheel_radius = 0.3');
    expect(tip).toContain(`state_hash ${core.runStudyRow(text, 5).state_hash}`);
    await saveScreenshot(page, 'study-heatmap.png');
    await page.mouse.click(x, y);
    await waitFor(() => {
      const s = window.__roverlab.doc.scenario;
      return s.control.wheel_speed === 3 && s.robot.params?.wheel_radius === 0.3 && s.simulation.duration === 0.5 && window.__roverlab.ready && window.__roverlab.wheelRadius === 0.3;
    });
    await waitFor(() => window.__roverlab.time > 0.1 || window.__roverlab.finishedAt !== null);
    expect(await page.textContent('#study .study-opened')).toMatch(/^In the view: control\.wheel_speed=3\.0, robot\.params\.wheel_radius=0\.3\.$/);
    expect(await tab()).toMatchObject({ status: 'done', done: '6' });  // the results stay
  });

  test('Cancel midway keeps the finished rows (drawn as points of a curve); Run goes on with the rest', async () => {
    await page.click('#study .study-param[data-index="1"] button.icon');  // one parameter: a curve
    await type('scenario.simulation.duration', 12);
    await type('parameters[0].steps', 8);
    await runButtonReads('Run 8 rows');
    // Cancel as soon as two rows are in: pressed in the page by an observer of
    // the row count, before the page takes the next row (a polled check could
    // see all 8 in: a row takes the core a few tens of milliseconds).
    await page.evaluate(() => {
      const study = document.getElementById('study');
      const observer = new MutationObserver(() => {
        if (Number(study.dataset.done) < 2) return;
        observer.disconnect();
        study.querySelector('.study-cancel').click();
      });
      observer.observe(study, { attributes: true, attributeFilter: ['data-done'] });
    });
    await page.click('#study .study-run');
    await until('cancelled');
    const { done, total } = await tab();
    expect(total).toBe('8');
    expect(Number(done)).toBeGreaterThanOrEqual(2);
    expect(Number(done)).toBeLessThan(8);
    const left = 8 - Number(done);
    expect(await page.textContent('#study .study-status')).toBe(`Cancelled: ${done} of 8 rows kept; Run goes on with the ${left} left.`);
    expect(await page.textContent('#study .study-run')).toBe(`Run the ${left} left`);
    expect(await page.textContent('#study .study-rows summary')).toBe(`Rows (${done} of 8)`);
    await page.evaluate(() => document.querySelector('#study .study-plot-box').scrollIntoView({ block: 'center' }));
    await saveScreenshot(page, 'study-cancelled.png');
    // The rows kept are not run again: the rest runs, and the CSV has all 8 in the grid's order.
    const kept = (await exportedCsv()).rows;
    await page.click('#study .study-run');
    await until('done');
    const all = (await exportedCsv()).rows;
    expect(all).toHaveLength(8);
    for (const row of kept) expect(all.find((r) => r[0] === row[0])).toEqual(row);  // wall_s too: the very same row
    expect(all.map((r) => Number(r[0]))).toEqual([...all.map((r) => Number(r[0]))].sort((a, b) => a - b));
    await saveScreenshot(page, 'study-curve.png');
  });

  test('a runaway run is stopped at the time limit; the study goes on and says so', async () => {
    // Two runs of the wheel standing still: 0.5 s, and 3000 s (minutes of wall time).
    await type('parameters[0].path', 'simulation.duration');
    await page.selectOption('#study [data-path="parameters[0].kind"]', 'values');
    await type('parameters[0].values', '0.5, 3000');
    await page.click('#study .study-add');
    await type('parameters[1].path', 'control.wheel_speed');
    await page.selectOption('#study [data-path="parameters[1].kind"]', 'values');
    await type('parameters[1].values', '0');
    await page.fill('#study .study-limit', '1.5');
    await runButtonReads('Run 2 rows');
    await page.click('#study .study-run');
    await until('done');
    expect(await page.textContent('#study .study-status')).toMatch(/^2 rows, 1 failed in /);
    const { header, rows } = await exportedCsv();
    const outcome = header.indexOf('outcome');
    expect(rows.map((r) => r[outcome])).toEqual(['ok', 'failed']);
    expect(rows[1][header.indexOf('message')]).toMatch(/a run took longer than 1\.5 s, the time limit per run/);
    await page.fill('#study .study-limit', '600');
    expect(await page.evaluate(() => window.__roverlab.ready)).toBe(true);
  });

  test('the pool outlives workers that throw, whose core fails, or that cannot load the core', async () => {
    // (A string, so that the test runner leaves the page's dynamic import alone.)
    const out = await page.evaluate(`(async () => {
      const { StudyPool } = await import('/src/study/study_pool.js');
      // Workers of study_worker.js's protocol that misbehave on purpose: task 1 throws, task 2's core fails.
      const source = [
        'self.onmessage = ({ data }) => {',
        "  if (data.type !== 'row') return;",
        "  if (data.index === 1) throw new Error('boom');",
        "  if (data.index === 2) return self.postMessage({ type: 'fatal', id: data.id, message: 'RuntimeError: unreachable' });",
        "  self.postMessage({ type: 'started', id: data.id });",
        "  self.postMessage({ type: 'row', id: data.id, row: { ok: true, index: data.index } });",
        '};',
        "self.postMessage({ type: 'ready' });",
      ].join('\\n');
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const results = {};
      const pool = new StudyPool({ workers: 2, createWorker: () => new Worker(url) });
      const end = await pool.run({ text: '{}', kind: 'rows', tasks: [0, 1, 2, 3, 4] }, { onResult: (i, r) => (results[i] = r) });
      // A worker that never loads its core ends the study with that error.
      const broken = URL.createObjectURL(new Blob(["self.postMessage({ type: 'fatal', id: null, message: 'no core' });"], { type: 'text/javascript' }));
      const failed = await new StudyPool({ workers: 2, createWorker: () => new Worker(broken) }).run({ text: '{}', kind: 'rows', tasks: [0, 1] });
      return { end, results, failed };
    })()`);
    expect(out.end).toMatchObject({ done: 5, failed: 2, cancelled: false, error: null });
    expect(out.results[0]).toEqual({ ok: true, index: 0 });
    expect(out.results[1]).toEqual({ failed: true, message: expect.stringMatching(/^the worker failed: .*boom/) });
    expect(out.results[2]).toEqual({ failed: true, message: "the worker's core failed: RuntimeError: unreachable" });
    expect([out.results[3], out.results[4]]).toEqual([{ ok: true, index: 3 }, { ok: true, index: 4 }]);
    expect(out.failed).toMatchObject({ done: 0, error: "the worker's core failed: no core" });
    expect(await page.evaluate(() => window.__roverlab.ready)).toBe(true);
  });

  test('a threshold search: thresholds against the parameter, one curve, the runs as dots', async () => {
    await page.click('#study .study-param[data-index="1"] button.icon');
    await type('parameters[0].path', 'control.wheel_speed');
    await page.selectOption('#study [data-path="parameters[0].kind"]', 'range');
    await type('parameters[0].from', 2);
    await type('parameters[0].to', 4);
    await type('parameters[0].steps', 3);
    await page.fill('#study .study-pred-value', '0.5');
    await page.check('#study input[value="threshold"]');
    await type('threshold.path', 'simulation.duration');
    await type('threshold.from', 0.1);
    await type('threshold.to', 2);
    await type('threshold.tolerance', 0.05);
    await runButtonReads('Run 3 searches');
    await page.click('#study .study-run');
    await until('done');
    const text = await savedStudy();
    expect(JSON.parse(text).threshold).toEqual({ path: 'simulation.duration', from: 0.1, to: 2, tolerance: 0.05, predicate: 'moved' });
    const thresholds = await exportedCsv();
    expect(thresholds.header).toEqual(core.parseStudy(text).thresholdColumns);
    for (const [i, row] of thresholds.rows.entries()) {
      const answer = core.searchThreshold(text, i);
      expect(row[thresholds.header.indexOf('found')]).toBe(String(answer.found));
      expect(Number(row[thresholds.header.indexOf('threshold')])).toBe(answer.threshold);
    }
    expect(thresholds.rows.map((r) => r[thresholds.header.indexOf('found')])).toEqual(['true', 'true', 'true']);
    const runs = await exportedCsv('#study .study-runs-csv');
    expect(runs.rows.length).toBe(thresholds.rows.reduce((n, r) => n + Number(r[thresholds.header.indexOf('runs')]), 0));
    await page.evaluate(() => document.querySelector('#study .study-plot-box').scrollIntoView({ block: 'center' }));
    await saveScreenshot(page, 'study-threshold.png');
  });

  test('Share: the link opens the study ready in a fresh page, without running it', async () => {
    await page.click('#study button:has-text("Share")');
    await waitFor(() => window.__roverlab.shareUrl?.includes('#s1.'));
    const url = await page.evaluate(() => window.__roverlab.shareUrl);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    const freshErrors = collectErrors(fresh);
    await fresh.goto(url);
    await fresh.waitForFunction(() => window.__roverlab?.ready && document.getElementById('study').dataset.total === '3', null, { timeout: 90_000 });
    expect(await fresh.evaluate(() => window.__roverlab.tab)).toBe('study');
    expect(await fresh.inputValue('#study [data-path="threshold.path"]')).toBe('simulation.duration');
    expect(await fresh.textContent('#banner-text')).toMatch(/is open in the Study tab: \d+ runs at most; press Run to run it\./);
    await fresh.waitForTimeout(1000);
    expect(await fresh.evaluate(() => ({ ...document.getElementById('study').dataset }))).toMatchObject({ status: 'idle', done: '0' });
    // The work on show is the page's own (the default scenario), not the study's base.
    expect(await fresh.evaluate(() => window.__roverlab.scenarioId)).toBe('climb-articulated6');
    expect(freshErrors).toEqual([]);
    await context.close();
  });

  test('hostile input: a link with a huge grid and a file that is not JSON are refused with their paths', async () => {
    const scenario = JSON.parse(readFileSync(new URL('../../terrains/flat-wheel-rig.json', import.meta.url), 'utf8'));
    const study = {
      format: 'roverlab-study',
      version: 1,
      name: 'too many runs',
      parameters: [
        { path: 'control.wheel_speed', from: 1, to: 3, steps: 2000 },
        { path: 'robot.params.wheel_radius', from: 0.1, to: 0.3, steps: 50 },
      ],
    };
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    const freshErrors = collectErrors(fresh);
    await fresh.goto(`${app.url}#${await encodeShare({ scenario, study })}`);
    await fresh.waitForFunction(() => window.__roverlab?.ready && /cannot run as it is/.test(document.getElementById('banner-text').textContent), null, { timeout: 90_000 });
    expect(await fresh.textContent('#banner-text')).toBe(
      'This link’s study cannot run as it is (fix it in the Study tab):\n• parameters: the study asks for 100000 runs; the app runs at most 20000 (the command line\'s `roverlab study` runs up to 1000000)',
    );
    expect(await fresh.isDisabled('#study .study-run')).toBe(true);
    expect(await fresh.textContent('#study .study-issues')).toContain('parameters: the study asks for 100000 runs');
    await saveScreenshot(fresh, 'study-link-refused.png');
    // The app goes on: the run on show plays, and the study runs once it asks for fewer runs.
    const t = await fresh.evaluate(() => window.__roverlab.time);
    await fresh.waitForFunction((t0) => window.__roverlab.time > t0, t, { timeout: 30_000 });
    await fresh.fill('#study [data-path="parameters[0].steps"]', '2');
    await fresh.fill('#study [data-path="parameters[1].steps"]', '2');
    await fresh.waitForFunction(() => document.querySelector('#study .study-run').textContent === 'Run 4 rows', null, { timeout: 10_000 });
    // A study whose fields are not what they should be: each refused at its path, the form still drawn.
    const malformed = { format: 'roverlab-study', version: 1, parameters: 'all', predicates: 'x', threshold: 5 };
    await fresh.evaluate((fragment) => (location.hash = fragment), await encodeShare({ scenario, study: malformed }));
    await fresh.waitForFunction(() => /parameters: must be a list/.test(document.getElementById('banner-text').textContent), null, { timeout: 30_000 });
    const banner = await fresh.textContent('#banner-text');
    expect(banner).toMatch(/^This link’s study cannot run as it is \(fix it in the Study tab\):\n/);
    for (const line of ['• parameters: must be a list of parameters', '• predicates: must be an object', '• threshold: must be an object']) expect(banner).toContain(line);
    expect(await fresh.locator('#study .study-param').count()).toBe(0);
    expect(await fresh.isDisabled('#study .study-run')).toBe(true);
    expect(freshErrors).toEqual([]);
    await context.close();

    // A study file that is not JSON: the core's message, where it breaks.
    await page.setInputFiles('#study input[type="file"]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "roverlab-study", "version": 1,, }') });
    await waitFor(() => /broken\.json was not opened/.test(document.getElementById('banner-text').textContent));
    expect(await page.textContent('#banner-text')).toMatch(/^broken\.json was not opened as a study:\n• \S*: not valid JSON at byte 4\d \(line 1, column \d+\)/);
    // A study naming its scenario by file: the browser's scenarios are inline.
    await page.setInputFiles('#study input[type="file"]', { name: 'by-file.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...study, scenario: 'flat.json' })) });
    await waitFor(() => /by-file\.json was not opened/.test(document.getElementById('banner-text').textContent));
    expect(await page.textContent('#banner-text')).toContain('• scenario: files cannot be read here; give the scenario inline');
    expect(await tab()).toMatchObject({ status: 'done' });  // the study before stays
    expect(errors).toEqual([]);
  });
  test('a study file with a controller program asks before running it; each row is then the scripted row of its speed, a throw stops its row only', async () => {
    const study = JSON.parse(readFileSync(path.join(root, 'tests/data/studies/cli_grid.json'), 'utf8'));
    study.name = 'speed of a program';
    study.predicates = { moved: { base_x_past: 0.2 } };
    const scripted = structuredClone(study);
    const source = "export default {\n  init(model) {\n    this.speed = model.params.speed;\n  },\n  update() {\n    if (this.speed === 3) throw new RangeError('too fast');\n    return { wheel_speed: this.speed };\n  },\n};\n";
    study.scenario.control = { program: { language: 'javascript', source, params: { speed: 0 } } };
    study.parameters = [{ path: 'control.program.params.speed', values: [1.5, 2, 3] }];
    scripted.parameters = [{ path: 'control.wheel_speed', values: [1.5, 2, 3] }];
    await page.setInputFiles('#study input[type="file"]', { name: 'speed.study.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(study)) });
    await waitFor(() => /speed\.study\.json is open in the Study tab/.test(document.getElementById('banner-text').textContent));
    expect(await page.isVisible('#study .study-program')).toBe(true);
    expect(await page.textContent('#study .study-program-text')).toBe(source);
    // Run asks first: the program has not run in this browser.
    await waitFor(() => !document.querySelector('#study .study-run').disabled);
    await page.click('#study .study-run');
    await waitFor(() => /^This study’s scenario contains a controller program/.test(document.getElementById('banner-text').textContent));
    expect(await tab()).not.toMatchObject({ status: 'running' });
    await page.click('#banner-actions button:has-text("Show it")');
    expect(await page.evaluate(() => document.querySelector('#study .study-program').open)).toBe(true);
    await page.click('#study .study-run');
    await page.click('#banner-actions button:has-text("Run it")');
    await until('done');
    const csv = await exportedCsv();
    const column = (row, name) => row[csv.header.indexOf(name)];
    expect(csv.rows.map((r) => column(r, 'outcome'))).toEqual(['ok', 'ok', 'program_error']);
    expect(column(csv.rows[2], 'message')).toBe('line 6: update at t = 0 s: RangeError: too fast');
    for (const i of [0, 1]) expect(column(csv.rows[i], 'state_hash')).toBe(core.runStudyRow(JSON.stringify(scripted), i).state_hash);
    await page.evaluate(() => document.querySelector('#study .study-program').scrollIntoView({ block: 'start' }));
    await saveScreenshot(page, 'study-program.png');
    expect(errors).toEqual([]);
  });
  test('the ready-made study of a controller (studies/rocker-speed-law-slope.json) asks, runs, and draws its 4 × 4 map', async () => {
    await page.selectOption('#study .study-ready', 'rocker-speed-law-slope');
    await waitFor(() => /is open in the Study tab: 16 runs/.test(document.getElementById('banner-text').textContent));
    await waitFor(() => !document.querySelector('#study .study-run').disabled);
    await page.click('#study .study-run');
    await waitFor(() => /^This study’s scenario contains a controller program/.test(document.getElementById('banner-text').textContent));
    await page.click('#banner-actions button:has-text("Run it")');
    await until('done');
    const csv = await exportedCsv();
    const column = (row, name) => row[csv.header.indexOf(name)];
    expect(csv.rows.length).toBe(16);
    expect(csv.rows.every((r) => column(r, 'outcome') === 'ok')).toBe(true);
    // docs/studies.md: only 4 rad/s on the level reaches x = 5 m, and only slowing to 1 rad/s or more.
    expect(csv.rows.filter((r) => column(r, 'reached') === 'true').map((r) => [column(r, 'control.program.params.level_speed_rad_s'), column(r, 'control.program.params.rough_speed_rad_s')])).toEqual([['4', '1'], ['4', '2'], ['4', '4']]);
    await page.evaluate(() => document.querySelector('#study .study-plot-box').scrollIntoView({ block: 'center' }));
    await saveScreenshot(page, 'study-controller-map.png');
    expect(errors).toEqual([]);
  });
});
