// Comparing runs in the app, in headless Chromium: a run of flat-rocker8
// pinned after 2.5 s or so, the wheel radius changed and the run made again;
// every chart then draws the pinned run's series too (named by what differs),
// its trails are ghosted in the view, "Export runs CSV" holds both runs with
// their own rows, hiding and removing a pin take its series and trails away,
// and the pinned run comes back after a reload (kept in IndexedDB). A reset
// run has nothing to pin; at most 8 runs are pinned.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';

import { collectErrors, saveScreenshot, serveAppPage } from './support.mjs';

const app = serveAppPage();
let page;
let errors;

const state = () => page.evaluate(() => ({ ...window.__roverlab }));
const waitFor = (fn, arg, timeout = 90_000) => page.waitForFunction(fn, arg, { timeout });
const scenarioFile = (name) => JSON.parse(readFileSync(new URL(`../../terrains/${name}`, import.meta.url), 'utf8'));
const RADIUS = 0.3;  // rocker8's wheel radius in the second run (its default is another)

beforeAll(() => ({ page, errors } = app));

/** Plays the run on show until t ≥ `t` (s), then pauses it (from the page's next frame, as a click
 * on Pause would, without the round trips of a click from here) and waits for the charts to show its rows. */
async function runUntil(t) {
  await page.evaluate(
    (time) =>
      new Promise((resolve) => {
        const check = () => {
          if (window.__roverlab.time < time) return requestAnimationFrame(check);
          if (window.__roverlab.playing) document.getElementById('play').click();
          resolve();
        };
        check();
      }),
    t,
  );
  await waitFor(() => !window.__roverlab.playing);
  const samples = (await state()).samples;
  await waitFor((n) => window.__roverlab.plots.charts.every((c) => c.points > 0) && window.__roverlab.samples === n, samples);
}

/** The charts' pinned series, per chart key: [{ run, label, series, points }]. */
async function pinnedInCharts() {
  const { plots } = await state();
  return Object.fromEntries(plots.charts.map((c) => [c.key, c.pinned]));
}

/** The last CSV downloaded by clicking `selector`: its "#" lines and its table (header, rows as cell arrays). */
async function downloadCsv(selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const lines = readFileSync(await download.path(), 'utf8').trim().split('\n');
  const table = lines.filter((l) => !l.startsWith('#')).map((l) => l.split(','));
  return { name: download.suggestedFilename(), comments: lines.filter((l) => l.startsWith('#')), header: table[0], rows: table.slice(1) };
}

describe('compare runs', () => {
  test('a pinned run is drawn in every chart and the view, exported with the current one, kept over a reload, removable', async () => {
    await page.evaluate((s) => window.__roverlab.doc.replace('flat', s, { restart: true }), scenarioFile('flat-rocker8.json'));
    await waitFor(() => window.__roverlab.scenario === 'rocker8 on flat ground' && !window.__roverlab.loading && window.__roverlab.time > 0);
    const defaultRadius = (await state()).wheelRadius;
    expect(defaultRadius).not.toBe(RADIUS);
    await runUntil(2.5);
    const first = await state();
    expect(first.pinned).toEqual([]);
    for (const chart of first.plots.charts) expect(chart.pinned).toEqual([]);

    // Pin the run: it names itself, and keeps every row from t = 0.
    await page.click('#pin-run');
    await waitFor(() => window.__roverlab.pinned.length === 1 && window.__roverlab.pinned[0].kept);
    let [pin] = (await state()).pinned;
    expect(pin).toMatchObject({ n: 1, label: 'run 1: same scenario', shown: true, rows: first.samples, interval: 0.01 });
    expect(pin.until).toBeCloseTo((first.samples - 1) * 0.01, 6);  // rows from t = 0
    expect(pin.outcome).toMatch(/^ok: drove \d+\.\d\d m$/);

    // The second run: another wheel radius, from t = 0.
    await page.fill('#params input[data-name="wheel_radius"]', String(RADIUS));
    await page.press('#params input[data-name="wheel_radius"]', 'Tab');
    await waitFor((r) => window.__roverlab.wheelRadius === r && !window.__roverlab.loading, RADIUS);
    await runUntil(0.6);
    const second = await state();
    expect(second.samples).toBeLessThan(first.samples);  // a shorter run than the pinned one: the charts span both
    [pin] = second.pinned;
    expect(pin.label).toBe(`run 1: wheel_radius = ${defaultRadius}`);

    // Every chart draws the pinned run: each of its series, all its rows (up to the charts' 1500 points).
    // (The charts are drawn on the page's frames: on a slow machine they reach the paused run's last
    // row a frame or two after the pause.)
    await waitFor((n) => window.__roverlab.plots.charts.every((c) => c.pinned.length === 1 && c.points === n), second.samples);
    const charts = (await state()).plots.charts;
    expect(charts.map((c) => c.key)).toEqual(['pitch_rad', 'side_view', 'wheel_normal_N', 'wheel_tangential_N', 'wheel_slip', 'box_normal_N', 'base_tilt_rad']);
    for (const chart of charts) {
      expect(chart.pinned).toEqual([{ run: 1, label: pin.label, series: chart.columns.length / (chart.key === 'side_view' ? 2 : 1), points: pin.rows }]);
      expect(chart.points).toBe(second.samples);  // the current run's own points, as before
    }
    const legend = await page.$$eval('.plot-card[data-key="wheel_normal_N"] .plot-key.pinned', (items) => items.map((i) => i.textContent));
    expect(legend).toEqual([pin.label]);

    // Its trails, ghosted in the scene: the base's path and each of the 8 wheel centres'.
    const ghosts = (await state()).ghostTrails;
    expect(ghosts).toHaveLength(1);
    expect(ghosts[0]).toMatchObject({ run: 1, visible: true, lines: 9 });
    expect(ghosts[0].points).toBe(9 * pin.rows);
    // A look from above, zoomed out, the timeline scrubbed back to the start: the pinned run's trails, dark,
    // go on past the current run's (purple) to where its base ended (a dark ball).
    await page.$eval('#timeline', (el) => {
      el.value = '0.1';
      el.dispatchEvent(new Event('input'));
    });
    await waitFor(() => window.__roverlab.scrubbing);
    await page.click('[data-preset="top"]');
    await page.mouse.move(460, 280);
    for (let k = 0; k < 2; k++) await page.mouse.wheel(0, 400);
    await page.locator('#pins').scrollIntoViewIfNeeded();
    await page.waitForTimeout(1500);
    await saveScreenshot(page, 'compare-two-runs.png');

    // One CSV: the pinned run's rows, then the current run's, a run column first.
    const csv = await downloadCsv('#pins-csv');
    expect(csv.name).toMatch(/^roverlab-runs-rocker8-on-flat-ground-\d{8}-\d{6}\.csv$/);
    expect(csv.header.slice(0, 2)).toEqual(['run', 'time_s']);
    expect(csv.comments.some((c) => c.startsWith(`# ${pin.label}; outcome: ok: drove`))).toBe(true);
    expect(csv.comments.some((c) => c.startsWith('# current: rocker8 on flat ground; outcome: ok: drove'))).toBe(true);
    expect(csv.comments).toContain(`# run 1 robot: {"preset":"rocker8","pose":{"position":[0,0]}}`);
    expect(csv.comments).toContain(`# current robot: {"preset":"rocker8","pose":{"position":[0,0]},"params":{"wheel_radius":${RADIUS}}}`);
    const of = (run) => csv.rows.filter((r) => r[0] === run);
    expect(of('run 1')).toHaveLength(pin.rows);
    expect(of('current').length).toBeGreaterThanOrEqual(second.samples);
    expect(of('run 1').length + of('current').length).toBe(csv.rows.length);
    for (const row of csv.rows) expect(row).toHaveLength(csv.header.length);
    expect(Number(of('run 1')[0][1])).toBe(0);  // the start's row
    expect(Number(of('run 1').at(-1)[1])).toBeCloseTo(pin.until, 6);
    expect(Number(of('current')[0][1])).toBe(0);
    // The wheel radius shows in the rows: the base of the larger wheels stands higher.
    const z = csv.header.indexOf('base_z_m');
    expect(Number(of('current')[0][z])).toBeGreaterThan(Number(of('run 1')[0][z]));

    // The charts' PNG draws the pinned series too (the same options and data as on the page).
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#plot-png')]);
    expect(png.suggestedFilename()).toMatch(/^roverlab-plots-.*\.png$/);

    // Hidden, it leaves the charts and the view; shown again, it is back.
    await page.click('#pin-list li[data-run="1"] input[type="checkbox"]');
    await waitFor(() => window.__roverlab.plots.charts.every((c) => c.pinned.length === 0) && !window.__roverlab.ghostTrails[0].visible);
    await page.click('#pin-list li[data-run="1"] input[type="checkbox"]');
    await waitFor(() => window.__roverlab.plots.charts.every((c) => c.pinned.length === 1) && window.__roverlab.ghostTrails[0].visible);
    await waitFor(() => window.__roverlab.pinned[0].kept);

    // Kept with the work: after a reload the pin is back, in the charts and the view.
    await page.reload({ waitUntil: 'load' });
    await waitFor(() => window.__roverlab?.ready && window.__roverlab?.editorReady && window.__roverlab.pinned.length === 1);
    expect((await state()).pinned[0]).toMatchObject({ n: 1, label: pin.label, rows: pin.rows, shown: true, kept: true });
    await waitFor(() => window.__roverlab.plots.charts.length > 0 && window.__roverlab.plots.charts.every((c) => c.pinned.length === 1));
    expect((await state()).ghostTrails).toMatchObject([{ run: 1, visible: true, lines: 9 }]);
    expect(await page.textContent('#pin-note')).toBe('A pinned run kept with your work.');
    await runUntil(0.5);
    await page.locator('#pins').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'compare-after-reload.png');

    // Removed, its series and trails go, and it stays gone after a reload.
    await page.click('#pin-list li[data-run="1"] .pin-remove');
    await waitFor(() => window.__roverlab.pinned.length === 0);
    expect(Object.values(await pinnedInCharts()).every((p) => p.length === 0)).toBe(true);
    expect((await state()).ghostTrails).toEqual([]);
    expect(await page.isDisabled('#pins-csv')).toBe(true);
    await page.reload({ waitUntil: 'load' });
    await waitFor(() => window.__roverlab?.ready && window.__roverlab?.editorReady);
    await page.waitForTimeout(500);
    expect((await state()).pinned).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);

  test('no run to pin after a reset; at most 8 runs are pinned; the panel says so', async () => {
    await runUntil(0.3);
    await page.click('#reset');
    await waitFor(() => window.__roverlab.samples <= 1 && !window.__roverlab.playing);  // the start's row at most
    await page.click('#pin-run');
    await waitFor(() => document.getElementById('pin-note').textContent === 'There is no run to pin yet: play one first.');
    expect((await state()).pinned).toEqual([]);
    await page.click('#play');
    await runUntil(0.3);
    for (let k = 1; k <= 8; k++) {
      await page.click('#pin-run');
      await waitFor((n) => window.__roverlab.pinned.length === n, k);
    }
    expect(await page.isDisabled('#pin-run')).toBe(true);
    expect(await page.getAttribute('#pin-run', 'title')).toMatch(/^8 runs are pinned, the most kept: remove one to pin another/);
    const { pinned, plots, ghostTrails } = await state();
    expect(new Set(pinned.map((p) => p.colour)).size).toBe(8);  // each its own colour
    expect(pinned.map((p) => p.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const chart of plots.charts) expect(chart.pinned).toHaveLength(8);
    expect(ghostTrails).toHaveLength(8);
    await saveScreenshot(page, 'compare-eight-pins.png');
    for (let k = 8; k >= 1; k--) await page.click(`#pin-list li[data-run="${k}"] .pin-remove`);
    await waitFor(() => window.__roverlab.pinned.length === 0);
    expect(await page.isDisabled('#pin-run')).toBe(false);
    expect(errors).toEqual([]);
  }, 120_000);

  test('without the browser’s storage a run is still pinned, and a banner says it is not kept', async () => {
    const other = await app.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const otherErrors = collectErrors(other);
    await other.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));  // storage turned off
    await other.goto(app.url, { waitUntil: 'load', timeout: 90_000 });
    await other.waitForFunction(() => window.__roverlab?.ready && window.__roverlab?.editorReady && window.__roverlab.samples > 10, null, { timeout: 90_000 });
    await other.waitForFunction(() => window.__roverlab.banner?.kind === 'warning', null, { timeout: 10_000 });
    expect((await other.evaluate(() => window.__roverlab.banner)).text).toBe(
      "This browser's storage does not keep the pinned runs (Error: this browser has no IndexedDB); they stay while this page is open.",
    );
    await other.click('#pin-run');
    await other.waitForFunction(() => window.__roverlab.pinned.length === 1 && window.__roverlab.plots.charts.every((c) => c.pinned.length === 1));
    expect((await other.evaluate(() => window.__roverlab.pinned[0])).kept).toBe(false);
    await saveScreenshot(other, 'compare-no-storage.png');
    await other.close();
    expect(otherErrors).toEqual([]);
  }, 120_000);
});
