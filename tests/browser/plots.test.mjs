// The plot dock and the telemetry CSV in headless Chromium: the dock grows
// (by its grip and Enlarge) and its charts with it, a quantity picked in "Add
// a chart" shows that column's data, the charts' cursor follows the scrubbed
// timeline (and pressing on a chart moves the timeline), the legends give the
// values at the timeline's time, a chart added is scrolled into view and one
// picked again is pointed out, angles stay continuous where the climb rears
// the base past vertical, PNG (at twice the device's pixels) and CSV exports,
// a scenario switch, 1920×1080, and the dock stepping aside for the other tabs. Screenshots: test-results/plots-dock.png
// (1280×800, dock enlarged during climb-articulated6), plots-dock-1920.png
// and the exported image, plots-export.png.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { collectErrors, launchBrowser, resultsDir, startDevServer } from './support.mjs';

let browser;
let server;
let page;
let errors;

const DEG = 180 / Math.PI;
const plots = () => page.evaluate(() => window.__roverlab.plots);
const waitFor = (fn, arg, timeout = 60_000) => page.waitForFunction(fn, arg, { timeout });
const chartOf = (p, key) => p.charts.find((c) => c.key === key);

/** A screenshot once the 3-D view has been drawn at its current size. */
async function screenshot(name) {
  await waitFor(() => window.__roverlab.viewCurrent);
  const drawn = await page.evaluate(() => window.__roverlab.drawn);
  await waitFor((n) => window.__roverlab.drawn >= n + 2 && window.__roverlab.viewCurrent, drawn);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, name), await page.screenshot());
}

/** Picks a scenario and waits until its run shows frames past t = `after` s and the charts have data. */
async function choose(id, after = 0.5) {
  await page.selectOption('#scenario', id);
  await waitFor(
    ({ id, after }) => {
      const s = window.__roverlab;
      return s.scenarioId === id && s.time > after && s.issues.length === 0 && s.plots?.charts.length > 0 && s.plots.charts.every((c) => c.points > 10);
    },
    { id, after },
  );
}

beforeAll(async () => {
  browser = await launchBrowser();
  let url;
  ({ server, url } = await startDevServer());
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  errors = collectErrors(page);
  await page.goto(url, { waitUntil: 'load' });
  await waitFor(() => window.__roverlab?.ready);
  await choose('climb-articulated6', 1.5);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the plot dock', () => {
  test('shows the default charts under the view; it grows by its grip and Enlarge, the charts with it', async () => {
    const before = await plots();
    expect(before.open).toBe(true);
    expect(before.charts.map((c) => c.key)).toEqual([
      'pitch_rad', 'side_view', 'wheel_normal_N', 'wheel_tangential_N', 'wheel_slip', 'box_normal_N', 'base_tilt_rad',
    ]);
    expect(chartOf(before, 'pitch_rad').columns).toEqual(['base_pitch_rad', 'section_front_pitch_rad', 'section_rear_pitch_rad']);
    expect(chartOf(before, 'wheel_normal_N').columns).toHaveLength(6);
    // The grip dragged up by 120 px: the dock and every chart taller.
    const grip = await page.locator('#plot-grip').boundingBox();
    const x = grip.x + grip.width / 2;
    const y = grip.y + grip.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y - 60);
    await page.mouse.move(x, y - 120);
    await page.mouse.up();
    await waitFor((h) => window.__roverlab.plots.height >= h + 110, before.height);
    await waitFor(
      (old) => window.__roverlab.plots.charts.every((c, i) => c.height > old[i]),
      before.charts.map((c) => c.height),
    );
    // Enlarge: most of the height, the view keeps a usable size.
    await page.click('#plot-max');
    const grown = (await plots()).height;
    await waitFor((h) => window.__roverlab.plots.height > h, grown - 1);
    const view = await page.locator('#view').boundingBox();
    expect(view.height).toBeGreaterThanOrEqual(219);
    expect(view.width).toBeGreaterThan(800);
    const enlarged = await plots();
    for (const c of enlarged.charts) expect(c.width).toBeGreaterThan(300);
    await screenshot('plots-dock.png');
    // Closed, the dock leaves the view the height; opened again, it is as it was.
    await page.click('#plot-toggle');
    await waitFor(() => !window.__roverlab.plots.open);
    expect((await page.locator('#view').boundingBox()).height).toBeGreaterThan(view.height + 150);
    expect(await page.locator('#plots').isVisible()).toBe(false);
    await page.click('#plot-toggle');
    await waitFor((h) => window.__roverlab.plots.open && window.__roverlab.plots.height === h, enlarged.height);
    expect(errors).toEqual([]);
  }, 60_000);

  test('a quantity or a column picked in "Add a chart" shows its data (angles in degrees)', async () => {
    const options = await page.$$eval('#plot-add option', (os) => os.map((o) => o.value));
    expect(options).toEqual(expect.arrayContaining(['joint_rad', 'wheel_speed_rad_s', 'col:climb_phase', 'col:wheel_front_left_speed_rad_s']));
    // Joint and wheel torques and the sections' extension forces, from the core's telemetry.
    expect(options).toEqual(expect.arrayContaining(['joint_Nm', 'wheel_torque_Nm', 'joint_N']));
    for (const key of ['joint_rad', 'col:wheel_front_left_speed_rad_s']) {
      await page.click('#plot-add');  // the pointer on the picker, then a choice in its list
      await page.selectOption('#plot-add', key);
    }
    await waitFor(() => {
      const p = window.__roverlab.plots;
      return ['joint_rad', 'col:wheel_front_left_speed_rad_s'].every((k) => p.charts.find((c) => c.key === k)?.points > 10);
    });
    const p = await plots();
    const joints = chartOf(p, 'joint_rad');
    expect(joints.title).toBe('Joint angles (°)');
    expect(joints.columns).toEqual(['fold_front_rad', 'fold_rear_rad']);
    const speed = chartOf(p, 'col:wheel_front_left_speed_rad_s');
    expect(speed.title).toBe('wheel_front_left_speed_rad_s (rad/s)');
    expect(Number.isFinite(speed.last[0])).toBe(true);
    expect(await page.inputValue('#plot-add')).toBe('');  // ready for the next pick
    // The new chart is in the dock, with a card of its own.
    expect(await page.locator('.plot-card[data-key="col:wheel_front_left_speed_rad_s"] canvas').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('plot-add');  // the keys drive again
    // With the keyboard, the arrows go through the list and Enter adds the chart.
    await page.focus('#plot-add');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#plot-add')).toBe('base_position_m');
    expect((await plots()).keys).not.toContain('base_position_m');
    await page.keyboard.press('Enter');
    await waitFor(() => window.__roverlab.plots.charts.some((c) => c.key === 'base_position_m'));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('plot-add');
    await page.click('.plot-card[data-key="base_position_m"] .plot-close');
    await waitFor(() => !window.__roverlab.plots.keys.includes('base_position_m'));
    await page.evaluate(() => document.activeElement?.blur());
  }, 60_000);

  test('the charts show a cursor at the scrubbed time; pressing on a chart moves the timeline', async () => {
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    const middle = await page.$eval('#timeline', (el) => (Number(el.min) + Number(el.max)) / 2);
    await page.$eval('#timeline', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input'));
    }, middle);
    await waitFor((t) => Math.abs(window.__roverlab.plots.cursorTime - t) < 1e-3, middle);
    const p = await plots();
    const span = await page.$eval('#timeline', (el) => Number(el.max) - Number(el.min));
    for (const c of p.charts) {
      expect(c.cursor, c.key).not.toBeNull();
      expect(Math.abs(c.cursor.time - middle), c.key).toBeLessThan(span / c.points + 0.011);  // the nearest point drawn
    }
    expect(await page.textContent('#plot-cursor')).toMatch(/^cursor t = \d+\.\d{3} s$/);
    // The pitch chart's values at the cursor are the telemetry's, in degrees (CSV: 6 digits).
    const pitch = chartOf(p, 'pitch_rad');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').filter((l) => !l.startsWith('#'));
    const columns = lines[0].split(',');
    const row = lines.slice(1).map((l) => l.split(',').map(Number)).find((r) => Math.abs(r[0] - pitch.cursor.time) < 1e-6);
    expect(row).toBeDefined();
    pitch.columns.forEach((name, i) => {
      expect(pitch.cursor.values[i]).toBeCloseTo(row[columns.indexOf(name)] * DEG, 2);
    });
    // Pressing a quarter of the way along a time chart moves the timeline there.
    const chart = page.locator('.plot-card[data-key="wheel_normal_N"] .u-over');
    await chart.scrollIntoViewIfNeeded();
    const over = await chart.boundingBox();
    await page.mouse.click(over.x + over.width / 4, over.y + over.height / 2);
    const picked = await page.$eval('#timeline', (el) => Number(el.value));
    expect(Math.abs(picked - middle)).toBeGreaterThan(0.2);
    await waitFor((t) => Math.abs(window.__roverlab.plots.cursorTime - t) < 1e-3 && window.__roverlab.scrubbing, picked);
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing && window.__roverlab.plots.cursorTime === null);
  }, 60_000);

  test('the legends show the values at the timeline\'s time, also with the pointer resting on a chart', async () => {
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    // The pointer rests on the pitch chart, a quarter of the way along; the timeline is then moved elsewhere.
    const over = await page.locator('.plot-card[data-key="pitch_rad"] .u-over').boundingBox();
    await page.mouse.move(over.x + over.width / 4, over.y + over.height / 2);
    const later = await page.$eval('#timeline', (el) => Number(el.min) + 0.7 * (Number(el.max) - Number(el.min)));
    await page.$eval('#timeline', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input'));
    }, later);
    await waitFor((t) => Math.abs(window.__roverlab.plots.cursorTime - t) < 1e-3, later);
    const span = await page.$eval('#timeline', (el) => Number(el.max) - Number(el.min));
    for (const key of ['pitch_rad', 'wheel_normal_N']) {
      const chart = chartOf(await plots(), key);
      expect(Math.abs(chart.cursor.time - later), key).toBeLessThan(span / chart.points + 0.011);  // the timeline's time
      const shown = await page.$$eval(`.plot-card[data-key="${key}"] .plot-key b`, (bs) => bs.map((b) => b.textContent));
      // The legend's numbers are the values there (4 significant digits, SI prefix k).
      const read = shown.map((text) => (text.endsWith('k') ? Number(text.slice(0, -1)) * 1e3 : Number(text)));
      chart.cursor.values.forEach((v, i) => expect(Math.abs(read[i] - v), `${key} ${i}: ${shown[i]} vs ${v}`).toBeLessThanOrEqual(Math.abs(v) * 1e-3 + 1e-3));
    }
    await page.mouse.move(2, 2);
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing && window.__roverlab.plots.cursorTime === null);
  }, 60_000);

  test('a chart added is scrolled into view; one already shown is said to be and scrolled to', async () => {
    const inView = (key) =>
      page.evaluate((k) => {
        const card = document.querySelector(`.plot-card[data-key="${k}"]`).getBoundingClientRect();
        const box = document.getElementById('plots').getBoundingClientRect();
        return card.top >= box.top - 1 && card.bottom <= box.bottom + 1;
      }, key);
    const toTop = () => page.$eval('#plots', (el) => el.scrollTo({ top: 0 }));
    const pick = async (key) => {
      await page.click('#plot-add');
      await page.selectOption('#plot-add', key);
    };
    await toTop();
    const key = 'col:section_front_force_N';
    await pick(key);
    await waitFor((k) => window.__roverlab.plots.charts.some((c) => c.key === k && c.points > 10), key);
    await waitFor((k) => {
      const card = document.querySelector(`.plot-card[data-key="${k}"]`).getBoundingClientRect();
      const box = document.getElementById('plots').getBoundingClientRect();
      return card.top >= box.top - 1 && card.bottom <= box.bottom + 1;
    }, key);
    expect(await page.$eval('#plots', (el) => el.scrollTop)).toBeGreaterThan(0);  // below the first rows
    await toTop();
    expect(await inView(key)).toBe(false);
    // Picked again: no second chart; the bar says it is shown, and the dock scrolls to it.
    await pick(key);
    await waitFor(() => /already shown/.test(document.getElementById('plot-note')?.textContent ?? ''));
    expect(await page.textContent('#plot-note')).toMatch(/^section_front_force_N \(N\) is already shown/);
    expect((await plots()).keys.filter((k) => k === key)).toHaveLength(1);
    await waitFor((k) => {
      const card = document.querySelector(`.plot-card[data-key="${k}"]`).getBoundingClientRect();
      const box = document.getElementById('plots').getBoundingClientRect();
      return card.top >= box.top - 1 && card.bottom <= box.bottom + 1;
    }, key);
    await page.click(`.plot-card[data-key="${key}"] .plot-close`);
    await waitFor((k) => !window.__roverlab.plots.keys.includes(k), key);
  }, 60_000);

  test('angles on the charts are continuous where the robot passes vertical (no 0 → 180° roll, no ±180° walls)', async () => {
    // The climb's middle section (the base) rears past vertical at about 7.3 s: upside down for a
    // moment, where the core's roll reads ±180° (docs/dynamics.md, tilt angles).
    await waitFor(() => window.__roverlab.time > 8.5, null, 120_000);
    await page.click('#plot-add');
    await page.selectOption('#plot-add', 'roll_rad');
    await waitFor(() => window.__roverlab.plots.charts.some((c) => c.key === 'roll_rad' && c.points > 10));
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    // Every sample from 6.5 to 8.5 s on the cursor, its values read from each chart.
    const keys = ['pitch_rad', 'base_tilt_rad', 'roll_rad'];
    const samples = await page.evaluate((keys) => {
      const timeline = document.getElementById('timeline');
      const out = [];
      for (let t = 6.5; t <= 8.5; t += 0.01) {
        timeline.value = String(t);
        timeline.dispatchEvent(new Event('input'));
        const charts = window.__roverlab.plots.charts;
        out.push(keys.map((k) => charts.find((c) => c.key === k).cursor?.values ?? []));
      }
      return out;
    }, keys);
    const steepest = Math.max(...samples.map((s) => s[0][0]));
    expect(steepest).toBeGreaterThan(88);  // the base did pass (nearly) vertical
    keys.forEach((key, j) => {
      let largest = 0;
      for (let i = 1; i < samples.length; i++)
        samples[i][j].forEach((v, s) => {
          largest = Math.max(largest, Math.abs(v - samples[i - 1][j][s]));
        });
      expect(largest, key).toBeLessThan(20);  // 10 ms apart: a few degrees at most
    });
    // The base's tilt from upright is among the series, in [0°, 180°].
    const tilt = chartOf(await plots(), 'base_tilt_rad');
    expect(tilt.columns).toContain('base_tilt_from_upright');
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing && window.__roverlab.plots.cursorTime === null);
    await page.click('.plot-card[data-key="roll_rad"] .plot-close');
  }, 180_000);

  test('PNG downloads the charts as one image', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#plot-png')]);
    expect(download.suggestedFilename()).toMatch(/^roverlab-plots-articulated6-climbs-the-0.65-m-step-\d{8}-\d{6}\.png$/);
    const png = readFileSync(await download.path());
    writeFileSync(path.join(resultsDir, 'plots-export.png'), png);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    // Print resolution: twice the device's pixels (2 × devicePixelRatio image pixels per CSS pixel).
    const { cssWidth, dpr } = await page.$eval('#plots', (el) => ({ cssWidth: el.scrollWidth, dpr: devicePixelRatio }));
    expect(width).toBe(Math.round(cssWidth * 2 * dpr));
    expect(height).toBeGreaterThan(600);
    expect(png.length).toBeGreaterThan(20_000);  // charts drawn, not a blank image
  }, 60_000);

  test('the CSV starts with # lines about the run, holds 6 significant digits and is named after the scenario', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    expect(download.suggestedFilename()).toMatch(/^roverlab-articulated6-climbs-the-0.65-m-step-\d{8}-\d{6}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    const lines = text.trim().split('\n');
    const comments = lines.filter((l) => l.startsWith('#'));
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    expect(comments[0]).toBe(`# Roverlab ${version} telemetry`);
    expect(comments).toEqual(
      expect.arrayContaining([
        '# scenario: articulated6 climbs the 0.65 m step',
        '# robot name: articulated6 (a preset)',
        '# dt_s: 0.0004',
        '# duration_s: 30',
        expect.stringMatching(/^# simulation: \{.*"dt":0\.0004/),
        expect.stringMatching(/^# exported: \d{4}-\d\d-\d\dT/),
      ]),
    );
    expect(lines.slice(0, comments.length)).toEqual(comments);  // the # lines come first
    const [header, ...rows] = lines.slice(comments.length);
    expect(header.split(',')).toEqual(expect.arrayContaining(['time_s', 'base_pitch_rad', 'wheel_front_left_normal_N', 'climb_phase']));
    expect(rows.length).toBeGreaterThan(100);
    const digits = (v) => v.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
    for (const row of rows.slice(-20)) {
      const cells = row.split(',');
      expect(cells).toHaveLength(header.split(',').length);
      for (const v of cells) {
        expect(Number.isFinite(Number(v)), v).toBe(true);
        if (v.includes('.')) expect(digits(v), v).toBeLessThanOrEqual(6);
      }
    }
    expect(rows[0].split(',')[0]).toMatch(/^0(\.\d+)?$/);
  }, 60_000);

  test('a scenario switch rebuilds the charts from the new columns; 1920×1080 lays out more per row', async () => {
    await choose('flat-rocker8');
    const p = await plots();
    expect(chartOf(p, 'wheel_normal_N').columns).toHaveLength(8);
    expect(chartOf(p, 'joint_rad').columns).toEqual(['rocker_1_rad', 'rocker_2_rad', 'rocker_3_rad', 'rocker_4_rad']);
    expect(chartOf(p, 'col:wheel_front_left_speed_rad_s')).toBeUndefined();  // no such column in rocker8
    expect(p.quantities).not.toContain('col:climb_phase');
    const narrow = chartOf(p, 'wheel_normal_N').width;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await choose('climb-articulated6', 1);
    await waitFor(() => window.__roverlab.plots.charts.some((c) => c.key === 'col:wheel_front_left_speed_rad_s'));
    const wide = await plots();
    const rowTops = await page.$$eval('.plot-card', (cards) => new Set(cards.map((c) => c.offsetTop)).size);
    expect(rowTops).toBeLessThan(wide.charts.length / 2);  // several charts a row
    expect(chartOf(wide, 'wheel_normal_N').width).toBeGreaterThan(narrow * 0.7);
    expect((await page.locator('#view').boundingBox()).height).toBeGreaterThanOrEqual(219);
    await screenshot('plots-dock-1920.png');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The other tabs need the view: the dock steps aside, and comes back with its charts.
    await page.click('#tab-edit');
    await waitFor(() => window.__roverlab.tab === 'edit' && window.__roverlab.plots.hidden);
    expect(await page.isVisible('#plot-dock')).toBe(false);
    await page.click('#tab-sim');
    await waitFor(() => !window.__roverlab.plots.hidden);
    expect(await page.isVisible('.plot-card[data-key="pitch_rad"] canvas')).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
