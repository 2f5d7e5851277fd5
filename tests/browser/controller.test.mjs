// The Controller tab in headless Chromium (docs/controllers.md#in-the-app): a
// program typed in the editor and applied drives the robot as it says, its
// plot values charted under the view and its console line logged; a syntax
// error is marked at its line and not applied; a throw stops the run with a
// banner naming the line and the app goes on (Remove); fetch,
// importScripts and the worker's postMessage are not there; an endless loop is stopped by the watchdog,
// the worker restarted, and the program survives a reload (held, not run);
// a share link with a program opens paused without it and runs it only
// after "Run it"; controllers/step_climber.mjs on
// terrains/step-articulated6.json ends in the app's worker with the summary
// and state_hash of `node tools/roverlab.mjs run` (run here as a child
// process); a program that runs out of memory takes its page with it
// (Chromium ends the page's process; or the page stops it first, past its
// time budget), and the app opened again holds it (kept in the editor, not
// run) and plays the next scenario. Screenshots: test-results/controller-*.png.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

import { encodeShare } from '../../web/src/share/share_link.js';
import { collectErrors, root, saveScreenshot, serveAppPage } from './support.mjs';

const app = serveAppPage();
const waitFor = (fn, arg, timeout = 60_000, p = app.page) => p.waitForFunction(fn, arg, { timeout });
const hooks = (p = app.page) => p.evaluate(() => ({ ...window.__roverlab, doc: undefined, screenOf: undefined, inView: undefined, timeDraws: undefined }));

// Drives backwards at 3 rad/s (the scenario says 2 forwards), plots the speed and the base's x.
const BACKWARDS = `export default {
  init(model) {
    console.log('backwards on', model.robot);
  },
  update(obs) {
    return { wheel_speed: -3, plot: { speed_rad_s: -3, x_m: obs.base.x_m } };
  },
};
`;

/** A program whose line 3 does `call` (at its first update). */
const calling = (call) => `export default {\n  update() {\n    ${call};\n  },\n};\n`;

/**
 * Types `text` into the Controller tab's editor (replacing what it holds). A
 * fill whose text has not reached the panel within 15 s is logged with what the
 * panel holds and made again, up to three times (on a loaded machine a fill
 * may not reach the editor's text).
 */
async function typeProgram(text, p = app.page) {
  for (let attempt = 1; ; attempt++) {
    await p.locator('#program-panel .cm-content').fill(text);
    try {
      await waitFor((t) => window.__roverlab.controller.text === t, text, 15_000, p);
      return;
    } catch (error) {
      const held = await p.evaluate(() => window.__roverlab.controller?.text);
      console.warn(`controller.test: fill ${attempt} of 3 not in the panel after 15 s; it holds ${JSON.stringify(held)?.slice(0, 300)}`);
      if (attempt === 3) throw error;
    }
  }
}

const apply = (p = app.page) => p.click('#program-panel .controller-apply');

// What a summary says of the wall time (and the Node tool's count of the program's updates): not the run's.
const WALL = ['wall_s', 'steps_per_s', 'real_time_factor', 'program'];
// The rest, as JSON (the command line prints JSON, where -0 is 0).
const ofTheRun = (summary) => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(summary).filter(([key]) => !WALL.includes(key)))));

describe('the Controller tab', { timeout: 120_000 }, () => {
  test('a program typed and applied drives the robot as it says; its plot values are charted, its log listed', async () => {
    const { page, errors } = app;
    await page.selectOption('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.scenarioId === 'flat-rocker8' && window.__roverlab.time > 0.05);
    await page.click('#tab-controller');
    await waitFor(() => window.__roverlab.controller?.ready);
    // The examples to start from are the repository's controllers/*.mjs, whatever they are.
    const files = readdirSync(path.join(root, 'controllers')).filter((f) => f.endsWith('.mjs')).map((f) => f.replace(/\.mjs$/, ''));
    expect((await hooks()).controller.examples).toEqual(files.sort());
    if (files.length) {
      await page.selectOption('#program-panel .controller-examples', files[0]);
      await waitFor((t) => window.__roverlab.controller.text === t, readFileSync(path.join(root, 'controllers', `${files[0]}.mjs`), 'utf8'));
    }
    await typeProgram(BACKWARDS);
    await apply();
    // Backwards, as the program says (the scenario drives forwards at 2 rad/s).
    await waitFor(() => window.__roverlab.program.running && window.__roverlab.base[0] < window.__roverlab.startBase[0] - 0.3);
    const s = await hooks();
    expect(s.program.source).toBe(BACKWARDS);
    const scenario = await page.evaluate(() => window.__roverlab.doc.scenario);
    expect(scenario.control.program).toEqual({ language: 'javascript', source: BACKWARDS });
    await waitFor(() => window.__roverlab.plots.charts.some((c) => c.key === 'plot_rad_s' && c.points > 50));
    const charts = (await hooks()).plots.charts;
    expect(charts.find((c) => c.key === 'plot_rad_s')).toMatchObject({ title: 'Controller program (rad/s)', columns: ['plot.speed_rad_s'], last: [-3] });
    expect(charts.find((c) => c.key === 'plot_m').last[0]).toBeLessThan(-0.3);
    expect(s.program.log[0]).toMatchObject({ t: 0, level: 'log', text: 'backwards on rocker8' });
    expect(await page.textContent('#program-panel .controller-log')).toMatch(/t = 0 s backwards on rocker8/);
    await saveScreenshot(page, 'controller-apply.png');
    expect(errors).toEqual([]);
  });

  test('a syntax error is marked at its line and not applied', async () => {
    const { page } = app;
    await typeProgram('export default {\n  update(obs) {\n    return { wheel_speed: 2 ;\n  },\n};\n');
    await waitFor(() => window.__roverlab.controller.syntax?.line === 3);
    expect(await page.locator('#program-panel .cm-lint-marker-error').count()).toBe(1);
    expect(await page.textContent('#program-panel .controller-problem')).toMatch(/^Syntax: line 3, column \d+: Unexpected token/);
    await apply();
    await page.waitForTimeout(300);
    expect((await hooks()).program.source).toBe(BACKWARDS);  // the scenario keeps the program that ran
  });

  test('a throw stops the run with a banner naming its line; the app goes on', async () => {
    const { page, errors } = app;
    await typeProgram('export default {\n  update(obs) {\n    if (obs.time_s > 0.3)\n      throw new Error("too far");\n    return { wheel_speed: 2 };\n  },\n};\n');
    await apply();
    await waitFor(() => window.__roverlab.program.error !== null && window.__roverlab.time < 0.4);
    const s = await hooks();
    expect(s.program.error).toMatchObject({ line: 4, message: expect.stringMatching(/^line 4: update at t = 0\.3\d* s: Error: too far$/) });
    expect(s.banner.text).toMatch(/^The controller program stopped the run: line 4: update at t = 0\.3/);
    expect(s.playing).toBe(false);
    expect(await page.textContent('#program-panel .controller-status')).toMatch(/Stopped the run at t = 0\.3/);
    await saveScreenshot(page, 'controller-throw.png');
    // Remove takes it out of the scenario: the run restarts and plays without it.
    await page.click('#program-panel .controller-remove');
    await waitFor(() => window.__roverlab.program.source === null && window.__roverlab.time > 0.6 && window.__roverlab.playing);
    expect((await hooks()).error).toBeNull();
    expect(errors).toEqual([]);
  });

  test('fetch, importScripts and the worker’s postMessage are not there: the run stops with a message', async () => {
    for (const [call, name] of [
      ['fetch("http://example.com/")', 'fetch'],
      ['importScripts("x.js")', 'importScripts'],
      ['Function("return this")().postMessage({ type: "frame" })', 'postMessage'],
    ]) {
      await typeProgram(calling(call));
      await apply();
      // This program's error, not the one before it (which stays on show until the new program runs).
      const shown = await waitFor((name) => window.__roverlab.program.error?.message.includes(name) && window.__roverlab.program.error, name);
      const error = await shown.jsonValue();
      expect(error.message, call).toMatch(/^line 3: update at t = 0 s: TypeError: /);
    }
  });

  test('an endless loop is stopped by the watchdog: the worker restarts, the program is kept (also over a reload) and not run', async () => {
    const { page } = app;
    const loop = 'export default {\n  update(obs) {\n    if (obs.time_s > 0.2)\n      for (;;) {}\n    return { wheel_speed: 2 };\n  },\n};\n';
    await typeProgram(loop);
    const restarts = (await hooks()).restarts ?? 0;
    await apply();
    await waitFor(() => window.__roverlab.program.held?.reason === 'stopped', null, 20_000);
    const s = await hooks();
    expect(s.restarts).toBe(restarts + 1);
    expect(s.program).toMatchObject({ source: loop, running: false });
    // The time is the last one the page heard of before the update at 0.2 s that never returned:
    // at most 0.2 s, and on a busy machine as early as the start (a slow tick steps past 0.2 s
    // before its frame reaches the page).
    const at = /^The controller program did not return within 2 s at t = ([\d.]+) s: stopped\. The scenario is open without it, paused/.exec(s.banner.text);
    expect(at, s.banner.text).not.toBeNull();
    expect(Number(at[1])).toBeGreaterThanOrEqual(0);
    expect(Number(at[1])).toBeLessThanOrEqual(0.21);
    await waitFor(() => window.__roverlab.ready && window.__roverlab.time === 0);
    expect((await hooks()).playing).toBe(false);
    expect((await hooks()).controller.text).toBe(loop);
    await saveScreenshot(page, 'controller-watchdog.png');
    // A reload: the autosave has the program, which does not run by itself any more.
    await page.evaluate(() => window.__roverlab.doc.saveNow());
    await page.reload({ waitUntil: 'load' });
    await waitFor(() => window.__roverlab?.ready && window.__roverlab.editorReady && window.__roverlab.program.held !== null, null, 90_000);
    expect((await hooks()).program).toMatchObject({ source: loop, running: false, held: { reason: 'stopped' } });
    await page.click('#tab-controller');
    await waitFor(() => window.__roverlab.controller?.ready);
    expect(await page.textContent('#program-panel .cm-content')).toContain('for (;;) {}');
  });

  test('a share link with a program opens paused without it, and runs it only after "Run it"', async () => {
    const { browser, url } = app;
    const scenario = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
    scenario.name = 'linked program';
    scenario.control.program = { language: 'javascript', source: `// sent by a colleague\n${BACKWARDS}` };
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(`${url}#${await encodeShare({ scenario })}`, { waitUntil: 'load', timeout: 90_000 });
      // The run's fields (scenario, time, ...) are a snapshot taken at each drawn frame: wait for
      // the first frame of the link's scenario, not only for the link to be opened.
      await waitFor(() => window.__roverlab?.ready && window.__roverlab.linkOpened && window.__roverlab.scenario === 'linked program' && /^This link contains a controller program/.test(window.__roverlab.banner?.text ?? ''), null, 90_000, page);
      let s = await hooks(page);
      expect(s.scenario).toBe('linked program');
      expect(s.program).toMatchObject({ running: false, held: { reason: 'consent', origin: 'link' } });
      expect(s.playing).toBe(false);
      await page.waitForTimeout(500);
      expect((await hooks(page)).time).toBe(0);
      await saveScreenshot(page, 'controller-link.png');
      // Show it: the program in the editor, still not running.
      await page.click('#banner-actions button:has-text("Show it")');
      await waitFor((text) => window.__roverlab.controller?.ready && window.__roverlab.controller.text === text, scenario.control.program.source, 60_000, page);
      expect((await hooks(page)).program.running).toBe(false);
      // Run it: now it runs, from t = 0, backwards.
      await page.click('#program-panel .controller-run');
      await waitFor(() => window.__roverlab.program.running && window.__roverlab.time > 1, null, 60_000, page);
      s = await hooks(page);
      expect(s.base[0]).toBeLessThan(s.startBase[0] - 0.2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the app’s worker runs a program to the bits of the command line: step_climber ends with its summary and state_hash', async () => {
    const { page, errors } = app;
    const scenarioFile = path.join(root, 'terrains/step-articulated6.json');
    const programFile = path.join(root, 'controllers/step_climber.mjs');
    const source = readFileSync(programFile, 'utf8');
    // The command line on the WASM core, a child process of this node: it prints the summary at the scenario's end (10 s).
    // (Before the app's run, not beside it: its watchdog counts its core's loading in the program's 2 s.)
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(root, 'tools/roverlab.mjs'), 'run', scenarioFile, '--controller', programFile], { cwd: root });
    const node = JSON.parse(stdout);
    // The app: the scenario picked, the example picked in the Controller tab and applied, played at full speed to its end.
    await page.selectOption('#speed', 'Infinity');
    await page.selectOption('#scenario', 'step-articulated6');
    await waitFor(() => window.__roverlab.scenarioId === 'step-articulated6' && window.__roverlab.ready && window.__roverlab.program.source === null);
    await page.click('#tab-controller');
    await waitFor(() => window.__roverlab.controller?.ready);
    await page.selectOption('#program-panel .controller-examples', 'step_climber');
    await waitFor((t) => window.__roverlab.controller.text === t, source);
    const started = performance.now();
    await apply();
    await waitFor((t) => window.__roverlab.program.source === t && window.__roverlab.program.running, source);
    await waitFor(() => window.__roverlab.summary !== null && window.__roverlab.finishedAt !== null, null, 90_000);
    const wall = (performance.now() - started) / 1000;
    const s = await hooks();
    const scenario = await page.evaluate(() => window.__roverlab.doc.scenario);
    const file = JSON.parse(readFileSync(scenarioFile, 'utf8'));
    expect(scenario).toEqual({ ...file, control: { ...file.control, program: { language: 'javascript', source } } });
    console.log(`controller.test: step_climber, 10 s: state_hash ${s.summary.state_hash} in the app (${wall.toFixed(1)} s), ${node.state_hash} from the command line`);
    expect(node).toMatchObject({ ok: true, time_s: 10, steps: 25000 });
    expect(s.finishedAt).toBeCloseTo(10, 9);
    expect(s.summary.state_hash).toBe(node.state_hash);
    expect(ofTheRun(s.summary)).toEqual(ofTheRun(node));
    // The program's log lines (the phases it entered) at the same times.
    const lines = s.program.log.map((l) => `roverlab: controller: t = ${Number(l.t.toFixed(6))} s: ${l.text}`);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual(stderr.split('\n').filter((l) => l.startsWith('roverlab: controller: ')));
    expect(s.program.error).toBeNull();
    await saveScreenshot(page, 'controller-step-climber.png');
    expect(errors).toEqual([]);
  });

  // Last: it may end the suite's page.
  test('a program that runs out of memory is stopped, or ends its page (Chromium) and is held when the app opens again; kept in the editor, the app plays on', async () => {
    const { browser, page: first, errors: firstErrors } = app;
    // 0.8 MB more at every update (1 ms of simulated time), never freed: about 1.5 ms each, far within the
    // 50 ms an update may take, so the worker's heap reaches V8's limit (about 4 GB) within seconds.
    const hog = 'export default {\n  period: 0.001,\n  init() {\n    this.kept = [];\n  },\n  update() {\n    this.kept.push(new Array(1e5).fill(1.5));\n    return { wheel_speed: 2 };\n  },\n};\n';
    let crashed = false;
    first.on('crash', () => (crashed = true));
    await first.selectOption('#speed', 'Infinity');
    await first.click('#tab-controller');
    await waitFor(() => window.__roverlab.controller?.ready);
    await typeProgram(hog);
    await apply();
    const started = performance.now();
    // Chromium does not stop a worker out of memory alone: the page's whole process ends with it (a crashed
    // tab: no onerror, no watchdog left). Unless the page stops the program before: its update past the
    // budget twice in a row (long pauses of the garbage collector), or no answer for 2 s (the watchdog).
    try {
      await waitFor((t) => window.__roverlab.program.source === t && (window.__roverlab.program.error !== null || window.__roverlab.program.held?.reason === 'stopped'), hog);
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 200));  // the crash event, if it is one
      if (!crashed) throw error;
    }
    console.log(`controller.test: ${crashed ? 'the page crashed (out of memory)' : 'the page stopped the program'} ${((performance.now() - started) / 1000).toFixed(1)} s after it started`);
    let page = first;
    let errors = firstErrors;
    let context = null;
    try {
      if (crashed) {
        // The app opened again with this browser's storage (the autosave has the program): the program is held.
        // (The suite's page has a context of its own, which opens no other page: its storage goes to a new one.)
        context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await first.context().storageState() });
        page = await context.newPage();
        errors = collectErrors(page);
        await page.goto(app.url, { waitUntil: 'load', timeout: 90_000 });
        await waitFor(() => window.__roverlab?.ready && window.__roverlab.editorReady && window.__roverlab.program.held !== null, null, 90_000, page);
        const s = await hooks(page);
        expect(s.program).toMatchObject({ source: hog, running: false, held: { reason: 'stopped' } });
        expect(s.banner.text).toMatch(/^The page ended while the controller program ran \(one that runs out of memory takes its page with it\): stopped\. The scenario is open without it, paused/);
        expect(s.playing).toBe(false);
        await page.waitForTimeout(500);
        expect((await hooks(page)).time).toBe(0);
        await page.click('#tab-controller');
        await waitFor(() => window.__roverlab.controller?.ready, null, 60_000, page);
        expect(await page.textContent('#program-panel .controller-status')).toMatch(/^Not running: The page ended while the controller program ran/);
      } else {
        const s = await hooks(page);
        expect(s.program).toMatchObject({ source: hog, running: false });
        expect(s.banner.text).toMatch(/^The controller program (stopped the run: update took \d+ ms|did not return within 2 s)/);
      }
      await waitFor((text) => window.__roverlab.controller.text === text, hog, 60_000, page);
      await saveScreenshot(page, 'controller-out-of-memory.png');
      // The app goes on: the next scenario plays.
      await page.selectOption('#scenario', 'flat-rocker8');
      await waitFor(() => window.__roverlab.scenarioId === 'flat-rocker8' && window.__roverlab.playing && window.__roverlab.time > 0.3, null, 60_000, page);
      expect((await hooks(page)).program.running).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context?.close();
    }
  });
});
