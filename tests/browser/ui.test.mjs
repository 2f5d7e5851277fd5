// What a person does in the app, in headless Chromium: switch scenarios and
// robots, pause / single-step / scrub, change a parameter (the run restarts),
// export the telemetry, take a screenshot (full resolution whatever the view's
// quality) and a video, meet a rejected scenario (the page keeps working), a
// run that leaves the terrain, a step warning, a steep climb told from a robot
// going over, and a robot on its back. Screenshots: test-results/screenshot-full-resolution.png
// (the downloaded one), status-steep.png and status-tipping.png.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';

import { collectErrors, imageStats, resultsDir, serveAppPage } from './support.mjs';

const app = serveAppPage();
let page;
let errors;

const state = () => page.evaluate(() => ({ ...window.__roverlab }));
const waitFor = (fn, arg, timeout = 60_000) => page.waitForFunction(fn, arg, { timeout });
/** Waits until the page has drawn the view `n` more times. */
async function drawn(n) {
  const from = await page.evaluate(() => window.__roverlab.drawn);
  await waitFor((until) => window.__roverlab.drawn >= until, from + n);
}

beforeAll(() => ({ page, errors } = app));

/** Changes a <select> and waits until the new run shows frames past t = 0.2 s. The same
 * choice again starts the run from t = 0, playing: a run stops at its scenario's duration
 * (5 s for flat-rocker8), and a test must not meet a run that already stopped there. */
async function choose(selector, value) {
  const again = (await page.inputValue(selector)) === value;
  await page.selectOption(selector, value);
  if (again) {
    await page.click('#reset');
    if (!(await page.evaluate(() => window.__roverlab.playing))) await page.click('#play');
  }
  await waitFor(
    ({ selector, value }) => {
      const s = window.__roverlab;
      const current = selector === '#preset' ? s.preset : s.scenarioId;
      return current === value && s.time > 0.2 && s.issues.length === 0;
    },
    { selector, value },
  );
}

describe('the app', () => {
  test('every scenario of terrains/ loads and plays', async () => {
    const ids = await page.$$eval('#scenario option', (options) => options.map((o) => o.value).filter(Boolean));
    expect(ids.length).toBeGreaterThanOrEqual(14);
    for (const id of ids) await choose('#scenario', id);
    expect(errors).toEqual([]);
  }, 240_000);

  test('every preset can be picked and plays', async () => {
    await choose('#scenario', 'flat-articulated6');
    const options = await page.$$eval('#preset option', (list) => list.map((o) => ({ value: o.value, hidden: o.hidden, text: o.textContent })));
    // The presets, then the scenario's own robot (hidden while a preset runs) and "Import robot…".
    const presets = options.filter((o) => !o.value.startsWith(':')).map((o) => o.value);
    expect(presets.sort()).toEqual(['articulated6', 'planar-vehicle', 'rocker8', 'wheel-rig', 'wheel-walker']);
    expect(options.slice(-2).map((o) => [o.value, o.hidden])).toEqual([[':own', true], [':import', false]]);
    expect(options.at(-1).text).toBe('Import robot…');
    for (const p of presets) await choose('#preset', p);
    expect(errors).toEqual([]);
  }, 120_000);

  test('pause holds the time, step advances one step, the timeline scrubs', async () => {
    await choose('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.time > 1.0);
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    await drawn(5);  // frames asked for after the pause: the worker has paused
    const paused = (await state()).time;
    await drawn(3);  // about three seconds of a paused view
    expect((await state()).time).toBe(paused);
    await page.click('#step');
    await waitFor((t) => window.__roverlab.time > t, paused);
    expect((await state()).time - paused).toBeCloseTo(0.01, 9);  // 10 ms: 25 steps of dt = 0.4 ms
    // Scrub to the middle of the recording: the view shows that time.
    const middle = await page.$eval('#timeline', (el) => (Number(el.min) + Number(el.max)) / 2);
    await page.$eval('#timeline', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input'));
    }, middle);
    await waitFor(() => window.__roverlab.scrubbing);
    await drawn(2);  // the view drawn again at the scrubbed time
    const scrubbed = await state();
    expect(Math.abs(scrubbed.shownTime - middle)).toBeLessThan(0.05);  // frames are recorded every 1/60 s
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing && !window.__roverlab.scrubbing);
  }, 120_000);

  test('scrubbed back, the phase shown is that time\'s; Play and Step go on from there (a new branch)', async () => {
    await choose('#scenario', 'climb-articulated6');
    // The phase of this run (a new model clears the one before), not of the scenario before it.
    await waitFor(() => !window.__roverlab.loading && window.__roverlab.time > 0.3 && window.__roverlab.phase !== undefined);
    const early = await state();
    await waitFor((p) => window.__roverlab.phase !== p && window.__roverlab.time > 2, early.phase);
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    await drawn(5);
    const before = await state();
    const scrubTo = async (t) => {
      await page.$eval('#timeline', (el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input'));
      }, t);
      await waitFor(() => window.__roverlab.scrubbing);
    };
    await scrubTo(early.time);
    // The overlay's phase is the one at the scrubbed time, not the newest.
    await waitFor((p) => window.__roverlab.phase === p, early.phase);
    expect(await page.textContent('#phase')).toContain(early.phase);
    // Play goes on from the scrubbed time: the run's clock restarts there.
    await page.click('#play');
    await waitFor((t) => window.__roverlab.playing && !window.__roverlab.scrubbing && window.__roverlab.time < t, before.time);
    const branched = await state();
    expect(branched.time).toBeGreaterThanOrEqual(early.time - 0.02);  // the timeline holds frames every 1/60 s
    expect(branched.frames).toBeLessThan(before.frames);  // the frames after it were dropped
    // Step from a scrubbed time: 10 ms on from it.
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    await drawn(5);
    const at = await page.$eval('#timeline', (el) => Number(el.min) + 0.25 * (Number(el.max) - Number(el.min)));
    await scrubTo(at);
    const scrubbed = Number(await page.inputValue('#timeline'));  // the slider keeps whole milliseconds
    await page.click('#step');
    await waitFor(() => !window.__roverlab.scrubbing);
    // (the run goes back to the whole step nearest the scrubbed time: within dt / 2 = 0.2 ms)
    await waitFor((t) => Math.abs(window.__roverlab.time - (t + 0.01)) < 2.5e-4, scrubbed);
    expect(errors).toEqual([]);
  }, 180_000);

  test('the view saves as a PNG screenshot and, over a chosen time range, as a WebM video', async () => {
    await choose('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.time > 2);
    const [shot] = await Promise.all([page.waitForEvent('download'), page.click('#screenshot')]);
    expect(shot.suggestedFilename()).toMatch(/^roverlab-[a-z0-9-]+-t\d+\.\d{3}s\.png$/);
    const png = readFileSync(await shot.path());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(10_000);  // a picture, not an empty canvas
    await page.fill('#record-from', '0.5');
    await page.fill('#record-to', '1.5');
    const [video] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click('#record')]);
    expect(video.suggestedFilename()).toMatch(/^roverlab-[a-z0-9-]+-t0\.500s-to-1\.500s\.webm$/);
    const webm = readFileSync(await video.path());
    expect([...webm.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);  // the EBML header of a WebM file
    expect((await state()).lastRecording).toMatchObject({ from: 0.5, to: 1.5 });
    expect(webm.length).toBeGreaterThan(1000);
    expect((await state()).scrubbing).toBe(true);  // the view was played back from the recording
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing);
  }, 120_000);

  test('a screenshot is at full resolution (CSS size × devicePixelRatio) after the quality step lowered the view; shift-click: 2×', async () => {
    // A page of its own at devicePixelRatio 2, its processor slowed 6× from its load until the frame-rate
    // watch has measured (as on a slow machine): under 20 frames/s it renders the view at 60 % resolution.
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, acceptDownloads: true });
    const slow = await context.newPage();
    const slowErrors = collectErrors(slow);
    const cdp = await context.newCDPSession(slow);
    await slow.goto(app.url, { waitUntil: 'load', timeout: 120_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await slow.waitForFunction(() => window.__roverlab?.ready && window.__roverlab.qualityStep !== undefined, null, { timeout: 120_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    expect((await slow.evaluate(() => window.__roverlab.qualityStep)).lowered).toBe(true);
    const view = () => slow.$eval('#view', (c) => ({ w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight, dpr: devicePixelRatio }));
    const live = await view();
    expect(live.dpr).toBe(2);
    expect(live.w).toBeLessThan(live.cssW * live.dpr * 0.7);  // the lowered view
    const shoot = async (modifiers) => {
      const [shot] = await Promise.all([slow.waitForEvent('download'), slow.click('#screenshot', { modifiers })]);
      const png = readFileSync(await shot.path());
      return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
    };
    const full = await shoot([]);
    expect([full.width, full.height]).toEqual([Math.floor(live.cssW * live.dpr), Math.floor(live.cssH * live.dpr)]);
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'screenshot-full-resolution.png'), full.png);
    const stats = await imageStats(slow, full.png, 0xdfe6ec);
    expect(stats.unlike).toBeGreaterThan(0.2);  // the scene, not a blank canvas
    const double = await shoot(['Shift']);
    expect([double.width, double.height]).toEqual([2 * full.width, 2 * full.height]);
    // The view on the page renders at its lowered resolution again.
    expect(await view()).toEqual(live);
    expect(slowErrors).toEqual([]);
    await context.close();
    await page.bringToFront();  // the shared page in front again: the next tests count its frames
  }, 240_000);

  test('paused with nothing new, the view is drawn about once a second, not at every animation frame', async () => {
    await choose('#scenario', 'flat-rocker8');
    const count = async (ms) => {
      const [d0, t0] = await page.evaluate(() => [window.__roverlab.drawn, performance.now()]);
      await page.waitForTimeout(ms);
      const [d1, t1] = await page.evaluate(() => [window.__roverlab.drawn, performance.now()]);
      return { draws: d1 - d0, seconds: (t1 - t0) / 1000 };
    };
    const running = await count(3000);
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(1500);  // the last input a second behind
    const paused = await count(3000);
    // At most one draw per second of idling (plus one at either end of the span).
    expect(paused.draws).toBeLessThanOrEqual(Math.ceil(paused.seconds) + 2);
    expect(running.draws).toBeGreaterThan(paused.draws);
    // A step draws at once.
    const before = (await state()).drawn;
    await page.click('#step');
    await waitFor((n) => window.__roverlab.drawn > n, before);
    await page.click('#play');
    await waitFor(() => window.__roverlab.playing);
  }, 120_000);

  test('a parameter change restarts the run with the new value', async () => {
    await choose('#scenario', 'flat-wheel-rig');
    await waitFor(() => window.__roverlab.time > 1.0);
    const input = page.locator('#params input[data-name="wheel_radius"]');
    await input.fill('0.25');
    await input.dispatchEvent('change');
    // A new run, not the old one continued: its clock starts again. Waits for that
    // state (the radius can show before the first frame of the new run does).
    await waitFor(() => window.__roverlab.wheelRadius === 0.25 && window.__roverlab.time > 0.2 && window.__roverlab.time < 1.0);
    // Out of range: marked at the field, not applied.
    await input.fill('-1');
    await input.dispatchEvent('change');
    const row = page.locator('#params .param.invalid');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('.message').textContent()).toMatch(/must be a number in \[0.02, 2\] m/);
    expect((await state()).wheelRadius).toBe(0.25);
  }, 120_000);

  test('the telemetry exports as CSV with the expected columns', async () => {
    await waitFor(() => window.__roverlab.time > 1.0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const text = readFileSync(await download.path(), 'utf8');
    const [header, ...rows] = text.trim().split('\n').filter((line) => !line.startsWith('#'));  // after the # lines about the run
    expect(header.split(',')).toEqual(
      expect.arrayContaining(['time_s', 'base_x_m', 'base_z_m', 'base_pitch_rad', 'wheel_normal_N', 'wheel_slip']),
    );
    expect(rows.length).toBeGreaterThan(50);  // frames recorded every 1/60 s of simulated time
    expect(rows[0].split(',').every((v) => Number.isFinite(Number(v)))).toBe(true);
  }, 60_000);

  test('a rejected scenario shows its message at the field and the page keeps working', async () => {
    await choose('#scenario', 'flat-articulated6');
    const dt = page.locator('#params input[data-name="dt"]');
    await dt.fill('0.01');  // in range for dt, but too large for the tire stiffness (and more)
    await dt.dispatchEvent('change');
    await waitFor(() => window.__roverlab.issues.length > 0);
    expect(await page.locator('#banner').textContent()).toMatch(/simulation\.dt: too large: use dt ≤ .*the tire stiffness/);
    expect(await page.locator('#params .param.invalid .message').textContent()).toMatch(/use dt ≤/);
    // Fixing it runs again.
    await dt.fill('0.0004');
    await dt.dispatchEvent('change');
    await waitFor(() => window.__roverlab.issues.length === 0 && window.__roverlab.time > 0.5);
    expect(await page.locator('#banner').isHidden()).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  test('a banner is announced (an error as an alert) and its Close button hides it; the page keeps working', async () => {
    await choose('#scenario', 'flat-articulated6');
    const dt = page.locator('#params input[data-name="dt"]');
    await dt.fill('0.01');
    await dt.dispatchEvent('change');
    await waitFor(() => window.__roverlab.banner?.kind === 'error');
    expect(await page.locator('#banner').getAttribute('role')).toBe('alert');
    await page.click('#banner-actions button:has-text("Close")');
    await waitFor(() => window.__roverlab.banner === null);
    expect(await page.locator('#banner').isHidden()).toBe(true);
    await dt.fill('0.0004');
    await dt.dispatchEvent('change');
    await waitFor(() => window.__roverlab.issues.length === 0 && window.__roverlab.time > 0.5);
    expect(errors).toEqual([]);
  }, 120_000);

  test('after a scenario is picked with the mouse, the arrow keys drive instead of changing the scenario', async () => {
    await choose('#scenario', 'flat-rocker8');
    await page.click('#scenario');  // the pointer on the picker, then a choice in its list
    await page.selectOption('#scenario', 'flat-planar-vehicle');
    await waitFor(() => window.__roverlab.scenarioId === 'flat-planar-vehicle' && window.__roverlab.time > 0.2);
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('scenario');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.down('ArrowUp');
    await waitFor(() => window.__roverlab.time > 1.0);
    await page.keyboard.up('ArrowUp');
    expect((await state()).scenarioId).toBe('flat-planar-vehicle');
    // Chosen with the keyboard, a picker keeps the focus (keyboard users step through it).
    await page.focus('#speed');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#speed')).toBe('2');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('speed');
    await page.selectOption('#speed', '1');
    expect(errors).toEqual([]);
  }, 120_000);

  test('steps/s counts the steps taken each second, beside the speed of the core', async () => {
    await choose('#scenario', 'flat-rocker8');  // dt 0.4 ms at 1×: 2 500 steps each second of real time
    await waitFor(() => window.__roverlab.time > 1.0);
    const text = await page.textContent('#rate');
    const [, rtf, taken, core] = text.match(/real-time factor ([\d.]+)× · ([\d,]+) steps\/s \(core ([\d,]+) steps\/s\)/).map((x) => Number(String(x).replaceAll(',', '')));
    expect(taken).toBeCloseTo(rtf / 4e-4, -2);
    expect(taken).toBeGreaterThan(500);  // the run keeps up with real time, within what a loaded machine allows
    expect(taken).toBeLessThan(2500 * 1.5);
    expect(core).toBeGreaterThan(taken);  // the worker waits most of each second at 1×
  }, 120_000);

  test('the frame rate is shown beside the real-time factor; unticked shadows say why', async () => {
    await waitFor(() => window.__roverlab.qualityStep !== undefined && window.__roverlab.fps !== undefined);
    await drawn(2);
    expect(await page.textContent('#rate')).toMatch(/real-time factor [\d.]+× · .* · [\d.]+ fps$/);
    const { qualityStep } = await state();
    expect(await page.isChecked('#shadows')).toBe(!qualityStep.lowered);
    expect(await page.isVisible('#shadows-note')).toBe(qualityStep.lowered);
    if (qualityStep.lowered) expect(await page.textContent('#shadows-note')).toMatch(/frames\/s .*tick to turn shadows back on/);
    // This machine's Chromium draws WebGL in software (SwiftShader): the view is not multisampled
    // there (scene.js viewContext), and the canvas the view draws on is the one on the page.
    expect(await page.evaluate(() => window.__roverlab.viewContext)).toEqual({ antialias: false, canvasOnPage: true });
  }, 120_000);

  test('the view is never shown cleared: the quality step and a resized window draw it again at once', async () => {
    await waitFor(() => window.__roverlab.qualityStep !== undefined);
    // Until the window is resized, the view kept the drawing buffer it was made with: what
    // arrived since (scenarios' names and descriptions, the rates, the plots) filled the
    // page's rows without moving the view's edges.
    expect((await state()).layoutResizes).toBe(0);
    for (const width of [1100, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await drawn(3);
    }
    expect((await state()).blankFrames).toBe(0);
  }, 120_000);

  test('the description of the running scenario is shown under the pickers', async () => {
    for (const id of ['climb-articulated6', 'flat-rocker8']) {
      await choose('#scenario', id);
      const { description } = JSON.parse(readFileSync(new URL(`../../terrains/${id}.json`, import.meta.url), 'utf8'));
      expect(description.length).toBeGreaterThan(10);
      await waitFor((text) => document.getElementById('about').textContent === text, description);
      expect(await page.isVisible('#about')).toBe(true);
    }
  }, 120_000);

  test('a robot that leaves the terrain stops the run with a banner, not success', async () => {
    // The wheel rig at 10 rad/s on a 3 m slab rolls off its end and falls.
    const scenario = JSON.parse(readFileSync(new URL('../../terrains/flat-wheel-rig.json', import.meta.url), 'utf8'));
    scenario.terrain.boxes[0].centre = [0.5, 0, -0.5];
    scenario.terrain.boxes[0].size = [3, 6, 1];
    scenario.control.wheel_speed = 10;
    await page.evaluate((s) => window.__roverlab.doc.replace('slab', s, { restart: true }), scenario);
    await waitFor(() => window.__roverlab.outcome === 'left_terrain');
    const s = await state();
    expect(s.error).toMatch(/^left the terrain at t = /);
    expect(s.banner.kind).toBe('error');
    expect(s.banner.text).toMatch(/^The robot left the terrain at t = \d+\.\d+ s/);
    expect(s.playing).toBe(false);
    // Play does not resume a stopped run; reset starts it again.
    await page.click('#play');
    expect((await state()).playing).toBe(false);
    await page.click('#reset');
    await waitFor(() => window.__roverlab.outcome === null && window.__roverlab.banner === null);
    expect(errors).toEqual([]);
  }, 120_000);

  test('a step far above the default runs with a warning banner', async () => {
    const scenario = JSON.parse(readFileSync(new URL('../../terrains/flat-wheel-rig.json', import.meta.url), 'utf8'));
    scenario.robot.params = { wheel_inertia: 1, tire_stiffness: 1e5, tread_stiffness: 4e4, tread_damping: 1500 };
    scenario.simulation.dt = 0.01;
    await page.evaluate((s) => window.__roverlab.doc.replace('soft rig at 10 ms', s, { restart: true }), scenario);
    await waitFor(() => window.__roverlab.warnings?.length === 1 && window.__roverlab.time > 0.2);
    const s = await state();
    expect(s.banner.kind).toBe('warning');
    expect(s.banner.text).toMatch(/simulation\.dt: 0\.01 s is 25× the default step/);
    expect(s.error).toBeNull();
    // Not an error: announced as a status, and it can be closed like every banner.
    expect(await page.locator('#banner').getAttribute('role')).toBe('status');
    await page.click('#banner-actions button:has-text("Close")');
    await waitFor(() => window.__roverlab.banner === null);
  }, 120_000);

  test('a steep section on purpose is shown as steep, not as tipping; a robot really going over is warned of', async () => {
    const scrubTo = (t) =>
      page.evaluate((v) => {
        const timeline = document.getElementById('timeline');
        timeline.value = String(v);
        timeline.dispatchEvent(new Event('input'));
      }, t);
    const statusAt = async (t) => {
      await scrubTo(t);
      await waitFor((v) => window.__roverlab.scrubbing && Math.abs(window.__roverlab.plots.cursorTime - v) < 1e-6, t);
      // The status line is rewritten with the plots every 250 ms (run.js PLOT_EVERY_MS), after the cursor moved.
      await page.waitForTimeout(400);
      await drawn(2);  // the status line is that time's
      return { ...(await state()), text: await page.textContent('#phase') };
    };
    // The step-climb controller rears a section past 70° (the middle one to 93°) on purpose,
    // its wheels holding it up: steep, not near tipping over.
    await choose('#scenario', 'climb-articulated6');
    await waitFor(() => window.__roverlab.time > 9.5, null, 180_000);
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    for (const t of [3.3, 3.66, 4.5, 7.3, 8.6]) {
      const s = await statusAt(t);
      expect(s.tipping, `t = ${t}: ${s.text}`).toBe(false);
      expect(s.text, `t = ${t}`).toMatch(/\nsteep but supported: .*\d+°/);
      expect(s.text).not.toMatch(/tipping/);
      if (t === 7.3) await page.screenshot({ path: path.join(resultsDir, 'status-steep.png') });
    }
    await page.click('#play');
    // rocker8 dropped rolled 63° onto two wheels of one side: it balances there, then rolls over onto its back.
    const scenario = JSON.parse(readFileSync(new URL('../../terrains/flat-rocker8.json', import.meta.url), 'utf8'));
    scenario.robot.pose = { position: [0, 0, 1], roll: 1.1 };
    scenario.control.wheel_speed = 0;
    await page.evaluate((s) => window.__roverlab.doc.replace('rolls over', s, { restart: true }), scenario);
    await waitFor(() => window.__roverlab.flipped === true && window.__roverlab.time > 2.6);
    await page.click('#play');  // pause
    await waitFor(() => !window.__roverlab.playing);
    for (const t of [0.8, 1.4]) {
      const s = await statusAt(t);
      expect(s.tipping, `t = ${t}: ${s.text}`).toBe(true);
      expect(s.text).toMatch(/⚠ near tipping over: its weight on the wheels of one edge, tilted \d+° from upright/);
      if (t === 1.4) await page.screenshot({ path: path.join(resultsDir, 'status-tipping.png') });
    }
    expect((await statusAt(2.5)).text).toMatch(/⚠ flipped over/);
    await page.click('#play');
    expect(errors).toEqual([]);
  }, 300_000);

  test('a robot on its back is reported as flipped over', async () => {
    // rocker8 upside down (pitch 180°) above the ground (body contact is on by
    // default): it falls onto its back and lies there, wheels up.
    const scenario = JSON.parse(readFileSync(new URL('../../terrains/flat-rocker8.json', import.meta.url), 'utf8'));
    scenario.name = 'rocker8 on its back';
    scenario.robot.pose = { position: [0, 0, 1], pitch: Math.PI };
    scenario.control.wheel_speed = 0;
    await page.evaluate((s) => window.__roverlab.doc.replace('on its back', s, { restart: true }), scenario);
    // This run's, not the one before's (which may have flipped too).
    await waitFor(() => window.__roverlab.scenario === 'rocker8 on its back' && window.__roverlab.flipped === true && window.__roverlab.time > 1);
    const s = await state();
    expect(s.tipping).toBe(false);  // flipped, not "near tipping"
    expect(s.shownContacts.box).toBeGreaterThan(0);  // it lies on its body box: those contacts are drawn
    expect(s.shownContacts.wheel).toBe(0);  // wheels up
    expect(await page.locator('#phase').textContent()).toMatch(/⚠ flipped over: upside down \(pitch 180°, roll 180°\)/);
    expect(s.error).toBeNull();
    expect(errors).toEqual([]);
  }, 120_000);
});
