// A researcher's run in the app, in headless Chromium: it ends where its
// scenario says (paused, "finished at 30 s" with its outcome in words) at
// every speed, goes on past its end only when asked, keeps every telemetry
// row of a long run at speed max (more than 600 simulated seconds), and
// scrubbed to t = 0 shows that time's robot, status and rows. The timeline
// and the view's checkboxes hand the keyboard back after a mouse use; paused,
// the status shows no steps/s.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';

import { saveScreenshot, serveAppPage } from './support.mjs';

const app = serveAppPage();
let page;
let errors;

const state = () => page.evaluate(() => ({ ...window.__roverlab }));
const waitFor = (fn, arg, timeout = 90_000) => page.waitForFunction(fn, arg, { timeout });
const scenarioFile = (name) => JSON.parse(readFileSync(new URL(`../../terrains/${name}`, import.meta.url), 'utf8'));

beforeAll(() => ({ page, errors } = app));

async function load(name, scenario) {
  await page.evaluate(([n, s]) => window.__roverlab.doc.replace(n, s, { restart: true }), [name, scenario]);
  await waitFor((n) => window.__roverlab.scenario === n && !window.__roverlab.loading && window.__roverlab.time > 0, scenario.name);
}

async function scrubTo(t) {
  await page.$eval('#timeline', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input'));
  }, t);
  await waitFor(() => window.__roverlab.scrubbing);
}

describe('a run', () => {
  test('the climb at speed max stops at its 30 s, says it climbed, and Play goes on past it', async () => {
    await load('climb', scenarioFile('climb-articulated6.json'));
    await page.selectOption('#speed', 'Infinity');
    await waitFor(() => window.__roverlab.finishedAt !== null, null, 120_000);
    await page.waitForTimeout(500);  // the worker would have run on by many seconds at max
    const s = await state();
    expect(s.finishedAt).toBeCloseTo(30, 9);
    expect(s.time).toBeCloseTo(30, 9);
    expect(s.playing).toBe(false);
    expect(s.banner.kind).toBe('info');
    expect(s.banner.text).toMatch(/^Finished at 30 s, the scenario's duration: climbed: on top of the step at t = \d+(\.\d+)? s\. Play goes on past it\.$/);
    await waitFor(() => /^finished at 30 s: climbed: on top of the step at t = /.test(window.__roverlab.outcomeText));
    expect(await page.textContent('#rate')).toBe('finished at 30 s');  // no steps/s while it stands
    expect(await page.textContent('#play')).toBe('▶ Continue');
    await saveScreenshot(page, 'run-finished.png');
    // Play goes on past the end, as an extension, until paused.
    await page.click('#play');
    await waitFor(() => window.__roverlab.time > 31);
    expect((await state()).finishedAt).toBeNull();
    await page.click('#play');
    await waitFor(() => !window.__roverlab.playing);
    await page.waitForTimeout(300);
    expect(await page.textContent('#rate')).toBe('paused');
    // Scrubbed back and played, the run goes on from there up to its duration again.
    await page.selectOption('#speed', '10');
    await page.locator('#speed').blur();
    await scrubTo(29);
    await page.click('#play');
    await waitFor(() => window.__roverlab.finishedAt !== null);
    expect((await state()).time).toBeCloseTo(30, 9);
    expect(errors).toEqual([]);
  }, 240_000);

  test('more than 600 s at speed max keeps every telemetry row from t = 0, and t = 0 scrubs to the start', async () => {
    // The wheel rig rolling slowly along a 200 m slab for 700 s (70 000 rows every 10 ms).
    const scenario = scenarioFile('flat-wheel-rig.json');
    scenario.name = 'wheel rig for 700 s';
    Object.assign(scenario.terrain.boxes[0], { centre: [90, 0, -0.5], size: [200, 6, 1] });
    scenario.control.wheel_speed = 0.5;
    scenario.simulation.duration = 700;
    await load(scenario.name, scenario);
    await page.selectOption('#speed', 'Infinity');
    await waitFor(() => window.__roverlab.finishedAt !== null || window.__roverlab.outcome, null, 300_000);
    const s = await state();
    expect(s.finishedAt).toBeCloseTo(700, 6);
    expect(s.samples).toBe(70_001);  // the start's row, then one per 10 ms, none dropped
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').filter((l) => !l.startsWith('#'));
    const times = lines.slice(1).map((l) => Number(l.split(',')[0]));
    expect(times).toHaveLength(70_001);
    expect(times[0]).toBe(0);
    expect(times.at(-1)).toBeCloseTo(700, 6);
    for (let i = 1; i < times.length; i++) if (Math.abs(times[i] - times[i - 1] - 0.01) > 1e-6) throw new Error(`rows ${i - 1}, ${i}: t = ${times[i - 1]}, ${times[i]}`);
    // Scrubbed to t = 0: the robot at its start, the timeline from 0, the plots' cursor there.
    expect(Number(await page.$eval('#timeline', (el) => el.min))).toBe(0);
    await scrubTo(0);
    await waitFor(() => window.__roverlab.shownTime === 0);
    const at0 = await state();
    expect(Math.abs(at0.shownBase[0] - at0.startBase[0])).toBeLessThan(1e-9);
    await waitFor(() => window.__roverlab.plots?.cursorTime === 0);
    // Nothing had happened yet at t = 0: the outcome empties. The status line and the outcome
    // follow the time on show every PLOT_EVERY_MS (app/run.js), not in the frame that shows
    // it, so they are waited for (a few seconds under a loaded machine).
    await waitFor(() => window.__roverlab.outcomeText === '', null, 5_000);
    expect(errors).toEqual([]);
  }, 420_000);

  test('the timeline and the view checkboxes hand the keyboard back to driving after a mouse use', async () => {
    await load('flat rocker8', scenarioFile('flat-rocker8.json'));
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    const box = await page.locator('#timeline').boundingBox();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
    await waitFor(() => window.__roverlab.scrubbing);
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('timeline');
    await page.keyboard.press(' ');  // Space plays (from the scrubbed time), not a key of the slider
    await waitFor(() => window.__roverlab.playing);
    await page.click('#trails');
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('trails');
    await page.keyboard.press(' ');
    await waitFor(() => !window.__roverlab.playing);
    expect(errors).toEqual([]);
  }, 120_000);

  test('the contact inspector: a wheel picked in the view lists its contacts, which agree with the CSV at the same time', async () => {
    // rocker8 on the slope for 2 s: the run ends on a telemetry row's time.
    const scenario = scenarioFile('slope-rocker8.json');
    scenario.name = 'slope for 2 s';
    scenario.simulation.duration = 2;
    await load(scenario.name, scenario);
    await page.selectOption('#speed', '10');
    await waitFor(() => window.__roverlab.finishedAt !== null);
    await page.waitForTimeout(300);
    await page.selectOption('#inspect', 'wheel:0');
    await waitFor(() => window.__roverlab.inspected?.contacts?.length > 0);
    const inspected = (await state()).inspected;
    expect(inspected.time).toBeCloseTo(2, 6);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').filter((l) => !l.startsWith('#'));
    const header = lines[0].split(',');
    const last = lines.at(-1).split(',').map(Number);
    expect(last[0]).toBeCloseTo(2, 6);
    const column = (suffix) => last[header.indexOf(`${inspected.name}${suffix}`)];
    const sum = (key) => inspected.contacts.reduce((total, c) => total + Math.hypot(...c[key]), 0);
    // The CSV holds 6 significant digits.
    expect(inspected.contacts.length).toBe(column('_contacts'));
    expect(Math.abs(sum('normalForce') - column('_normal_N'))).toBeLessThan(1e-5 * Math.max(1, column('_normal_N')));
    expect(Math.abs(sum('tangentialForce') - column('_tangential_N'))).toBeLessThan(1e-5 * Math.max(1, column('_tangential_N')));
    for (const c of inspected.contacts) {
      expect(c.depth).toBeGreaterThan(0);
      expect(Math.hypot(...c.normal)).toBeCloseTo(1, 9);
      expect(c.feature).toBeGreaterThanOrEqual(0);
    }
    // The table says the same, and names the terrain piece.
    expect(await page.textContent('#inspect-summary')).toMatch(new RegExp(`^${inspected.name} at t = 2\\.000 s: \\d contacts?, normal`));
    expect(await page.locator('#inspect-table tbody tr').count()).toBe(inspected.contacts.length);
    expect(await page.textContent('#inspect-table tbody tr td:last-child')).toMatch(/^piece \d+$/);
    // A click on a wheel in the view picks it.
    await page.selectOption('#inspect', '');
    // (a wheel seen behind the body picks the body: the first wheel in front of it is taken)
    const centres = (await state()).wheelCentres;
    let picked = '';
    for (const centre of centres) {
      const xy = await page.evaluate((p) => window.__roverlab.screenOf(p), centre);
      await page.mouse.click(xy[0], xy[1]);
      await page.waitForTimeout(300);
      picked = await page.inputValue('#inspect');
      if (picked.startsWith('wheel:')) break;
    }
    expect(picked).toMatch(/^wheel:\d$/);
    await waitFor(() => window.__roverlab.inspected?.target.kind === 'wheel');
    await saveScreenshot(page, 'contact-inspector.png');
    expect(errors).toEqual([]);
  }, 120_000);

  test('the description follows the scenario: a robot change says what is on screen, and the user edits it', async () => {
    await load('articulated6 climbs the 0.65 m step', scenarioFile('climb-articulated6.json'));
    await page.selectOption('#preset', 'rocker8');
    await waitFor(() => window.__roverlab.preset === 'rocker8' && !window.__roverlab.loading);
    const about = () => page.textContent('#about');
    expect(await about()).toBe(
      'Based on “articulated6 climbs the 0.65 m step”: the rocker8 robot, its parameters at their defaults, on that scenario\'s terrain, with its simulation settings (without its step-climb controller, made for articulated6: drive it with the keys).',
    );
    expect(await page.evaluate(() => window.__roverlab.doc.scenario.name)).toBe('rocker8 on “articulated6 climbs the 0.65 m step”');
    // Typed (Space types, it does not play), kept with Enter: an undoable command. Paused first,
    // so that the run cannot reach its end (and stop by itself) while the text is typed.
    if ((await state()).playing) await page.click('#play');
    await waitFor(() => !window.__roverlab.playing);
    const playing = false;
    await page.click('#about');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('My rover on the step, first try');
    await page.keyboard.press('Enter');
    expect((await state()).playing).toBe(playing);
    await waitFor(() => window.__roverlab.doc.scenario.description === 'My rover on the step, first try');
    expect(await about()).toBe('My rover on the step, first try');
    await page.keyboard.press('Control+z');
    await waitFor(() => document.getElementById('about').textContent.startsWith('Based on'));
    // A second robot change keeps what it is based on.
    await page.selectOption('#preset', 'wheel-walker');
    await waitFor(() => window.__roverlab.preset === 'wheel-walker');
    expect(await about()).toMatch(/^Based on “articulated6 climbs the 0\.65 m step”: the wheel-walker robot/);
    expect(errors).toEqual([]);
  }, 120_000);
});
