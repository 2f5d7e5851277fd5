// Addresses, share links and autosaved work opened cold, as a colleague (or
// the user after a reload) does: `?scenario=ID` opens that scenario, picking
// one puts it in the address (Back returns); a share link opened in a fresh
// browser restores the scenario, its parameters and the camera (a view
// following the robot as the same view of the robot, a still view as the same
// world points); a mesh terrain (the rubble patch) shares by a version-3 link;
// a terrain too big for a link is offered as a file instead;
// autosaved work the core rejects is no dead end.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { encodeShare } from '../../web/src/share/share_link.js';
import { collectErrors, launchBrowser, resultsDir, root, saveScreenshot, startDevServer } from './support.mjs';

let browser;
let server;
let url;

const VIEWPORT = { width: 1280, height: 800 };
const state = (p) => p.evaluate(() => ({ ...window.__roverlab, doc: undefined, screenOf: undefined, inView: undefined }));
// Generous time limits: on a busy two-core machine a fresh page takes tens of seconds to start.
const waitFor = (p, fn, arg, timeout = 120_000) => p.waitForFunction(fn, arg, { timeout });
const sub = (a, b) => a.map((x, i) => x - b[i]);
const length = (v) => Math.hypot(...v);

// The contexts a test opened: closed after it, passed or not (a page left running slows the next).
const contexts = [];
async function newContext() {
  const context = await browser.newContext({ viewport: VIEWPORT });
  contexts.push(context);
  return context;
}

/** A page in a browser context of its own (no autosave, nothing shared): a cold open. */
async function coldPage(href) {
  const context = await newContext();
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(href, { waitUntil: 'load', timeout: 90_000 });
  await waitFor(page, () => window.__roverlab?.ready && window.__roverlab?.editorReady);
  return { page, errors };
}

beforeAll(async () => {
  browser = await launchBrowser();
  ({ server, url } = await startDevServer());
}, 120_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 60_000);

describe('addresses and share links', { timeout: 300_000 }, () => {
  test('?scenario=ID opens that scenario; picking one puts it in the address and Back returns', async () => {
    const { page, errors } = await coldPage(`${url}?scenario=flat-articulated6`);
    await waitFor(page, () => window.__roverlab.scenarioId === 'flat-articulated6' && window.__roverlab.time > 0.1);
    expect((await state(page)).preset).toBe('articulated6');
    await page.selectOption('#scenario', 'slope-rocker8');
    await waitFor(page, () => window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.1);
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('slope-rocker8');
    await page.goBack();
    await waitFor(page, () => window.__roverlab.scenarioId === 'flat-articulated6' && window.__roverlab.preset === 'articulated6');
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('flat-articulated6');
    // An edit makes it the user's own: the address names no scenario any more.
    await page.evaluate(() => {
      const { doc } = window.__roverlab;
      doc.replace('name', { ...doc.scenario, name: 'mine' });
    });
    await waitFor(page, () => !new URL(location.href).searchParams.has('scenario'));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('a share link stays in the address while its scenario is on show: a reload reopens it, an edit drops it', async () => {
    const scenario = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
    scenario.name = 'linked rocker';
    const link = `${url}#${await encodeShare({ scenario })}`;
    const { page, errors } = await coldPage(link);
    await waitFor(page, () => window.__roverlab.linkOpened && window.__roverlab.scenario === 'linked rocker' && window.__roverlab.time > 0.1);
    expect(new URL(page.url()).hash.length).toBeGreaterThan(10);
    // The page's autosave now holds the link's scenario: a reload opens the link again, without asking.
    await page.evaluate(() => window.__roverlab.doc.saveNow());
    await page.reload({ waitUntil: 'load' });
    await waitFor(page, () => window.__roverlab?.ready && window.__roverlab.linkOpened && window.__roverlab.time > 0.1);
    const s = await state(page);
    expect(s.scenario).toBe('linked rocker');
    expect(s.banner?.kind ?? null).not.toBe('warning');
    expect(new URL(page.url()).hash).toBe(new URL(link).hash);
    // An edit makes the scenario the user's own: the link leaves the address.
    await page.evaluate(() => {
      const { doc } = window.__roverlab;
      doc.replace('name', { ...doc.scenario, name: 'mine now' });
    });
    await waitFor(page, () => location.hash === '');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('?scenario= over autosaved work stays in the address until the user answers; Keep my work drops it', async () => {
    const mine = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
    mine.name = 'my own work';
    const context = await newContext();
    await context.addInitScript((text) => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('roverlab.autosave.v1', text);
    }, JSON.stringify({ savedAt: Date.now(), scenario: mine, history: { undo: [], redo: [] } }));
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${url}?scenario=slope-rocker8`, { waitUntil: 'load', timeout: 90_000 });
    await waitFor(page, () => window.__roverlab?.ready && /The address opens “slope-rocker8”/.test(window.__roverlab.banner?.text ?? ''));
    await page.waitForTimeout(500);
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('slope-rocker8');  // not rewritten before the answer
    expect((await state(page)).scenario).toBe('my own work');
    await page.click('#banner-actions button:has-text("Keep my work")');
    await waitFor(page, () => !new URL(location.href).searchParams.has('scenario'));
    expect((await state(page)).scenario).toBe('my own work');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an unknown ?scenario= says so and the default runs', async () => {
    const { page, errors } = await coldPage(`${url}?scenario=no-such-thing`);
    await waitFor(page, () => window.__roverlab.banner?.kind === 'warning');
    expect((await state(page)).banner.text).toContain('no-such-thing');
    expect((await state(page)).scenarioId).toBe('climb-articulated6');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('a share link opened cold restores the scenario, a parameter and the view of the robot it followed', async () => {
    const { page } = await coldPage(`${url}?scenario=flat-rocker8`);
    // A parameter changed, the robot driven away from its start, the camera set from the robot's side.
    await page.fill('#params input[data-name="wheel_radius"]', '0.2');
    await page.dispatchEvent('#params input[data-name="wheel_radius"]', 'change');
    await waitFor(page, () => Math.abs(window.__roverlab.wheelRadius - 0.2) < 1e-9 && window.__roverlab.time > 1);
    await waitFor(page, () => window.__roverlab.base[0] - window.__roverlab.startBase[0] > 0.3);  // it drives at 2 rad/s
    await page.click('#camera-presets button[data-preset="side"]');
    await page.click('#share');
    await waitFor(page, () => Boolean(window.__roverlab.shareUrl));
    const a = await state(page);
    const orbitA = sub(a.camera.position, a.camera.target);
    expect(a.camera.follow).toBe(true);

    await page.click('#play');  // paused, the sender's page leaves the processor to the receiver's
    const { page: other, errors } = await coldPage(a.shareUrl);
    // The link's run on show (its first frame placed the camera), not the default one before it.
    await waitFor(other, () => window.__roverlab.linkOpened && window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.1);
    const b = await state(other);
    expect(Math.abs(b.wheelRadius - 0.2)).toBeLessThan(1e-9);
    expect(b.camera.follow).toBe(true);
    expect(await other.isChecked('#follow')).toBe(true);
    // The same orbit (direction and distance from the target) ...
    expect(length(sub(sub(b.camera.position, b.camera.target), orbitA))).toBeLessThan(1e-6);
    // ... around the robot where it is now: the target is on its base (a frame
    // of motion behind at most, the view is drawn between frames) and it is in view.
    expect(length(sub(b.camera.target, b.base))).toBeLessThan(0.3);
    expect(await other.evaluate(() => window.__roverlab.inView(window.__roverlab.base))).toBe(true);
    await other.screenshot({ path: path.join(resultsDir, 'link-follow.png') });
    expect(errors).toEqual([]);
    await other.context().close();

    // A still camera (follow off) is shared as world points and opens still.
    await page.click('#follow');
    await page.click('#share');
    await waitFor(page, (previous) => window.__roverlab.shareUrl !== previous, a.shareUrl);
    const still = await state(page);
    expect(still.camera.follow).toBe(false);
    const { page: third } = await coldPage(still.shareUrl);
    await waitFor(third, () => window.__roverlab.linkOpened && window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.5);
    const c = await state(third);
    expect(c.camera.follow).toBe(false);
    expect(await third.isChecked('#follow')).toBe(false);
    expect(length(sub(c.camera.position, still.camera.position))).toBeLessThan(1e-6);
    expect(length(sub(c.camera.target, still.camera.target))).toBeLessThan(1e-6);
    await third.context().close();
    await page.context().close();
  });

  test('a link with packed heightmaps (version 2: samples and a PNG as binary blocks) opens cold with the exact terrain', async () => {
    const scenario = JSON.parse(readFileSync(path.join(root, 'terrains/rough-field-rocker8.json'), 'utf8'));
    const png = `data:image/png;base64,${readFileSync(path.join(root, 'tests/data/grey8.png')).toString('base64')}`;
    scenario.terrain.heightmaps.push({ origin: [20, 0], cell: 0.5, png, height_scale: 0.001, material: 'soil' });
    const fragment = await encodeShare({ scenario, camera: { position: [-4, -9, 4], target: [2, 0, 0] } });
    expect(fragment.startsWith('s2.')).toBe(true);
    const { page, errors } = await coldPage(`${url}#${fragment}`);
    await waitFor(page, () => window.__roverlab.linkOpened && window.__roverlab.scenario === 'rocker8 across a rough field' && window.__roverlab.time > 0.1);
    // Decoded in the browser's worker (its own inflate, atob and btoa): the same JSON text.
    expect(await page.evaluate(() => JSON.stringify(window.__roverlab.doc.scenario))).toBe(JSON.stringify(scenario));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('the rubble patch (an OBJ mesh) shares: Share makes a version-3 link, which opens cold with the exact mesh', async () => {
    const { page } = await coldPage(`${url}?scenario=rubble-articulated6`);
    await waitFor(page, () => window.__roverlab.scenarioId === 'rubble-articulated6' && window.__roverlab.time > 0.1);
    await page.click('#share');
    await waitFor(page, () => Boolean(window.__roverlab.shareUrl) || /link/.test(window.__roverlab.banner?.text ?? ''));
    const a = await state(page);
    expect(a.shareUrl, a.banner?.text).toMatch(/#s3\.[A-Za-z0-9_-]+$/);
    expect(a.shareUrl.length).toBeLessThan(65_536 + 100);
    await page.click('#play');  // paused, the sender's page leaves the processor to the receiver's
    const { page: other, errors } = await coldPage(a.shareUrl);
    await waitFor(other, () => window.__roverlab.linkOpened && window.__roverlab.preset === 'articulated6' && window.__roverlab.time > 0.5);
    // Decoded in the browser's worker: the scenario's JSON text, OBJ and all.
    const sent = await page.evaluate(() => JSON.stringify(window.__roverlab.doc.scenario));
    expect(await other.evaluate(() => JSON.stringify(window.__roverlab.doc.scenario))).toBe(sent);
    expect((await state(other)).terrainTriangles).toBe(12_500 + 2 * 2 * (125 + 50));
    await waitFor(other, () => window.__roverlab.viewCurrent);
    await saveScreenshot(other, 'link-rubble-opened.png');
    expect(errors).toEqual([]);
    await page.context().close();
    await other.context().close();
  });

  test('a terrain too big for a link: Share says so and its button saves the scenario as a file', async () => {
    const { page, errors } = await coldPage(`${url}?scenario=flat-rocker8`);
    await page.evaluate(() => {
      const { doc } = window.__roverlab;
      // 150 × 150 heights of full double precision (seeded): they cannot be packed,
      // and as JSON they deflate to a link of ~4 times the 64 KiB limit.
      let seed = 5;
      const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      const heights = Array.from({ length: 150 }, () => Array.from({ length: 150 }, () => 0.05 * random()));
      const terrain = { ...doc.scenario.terrain, heightmaps: [{ origin: [-2, -7.5], cell: 0.1, heights, material: 'asphalt' }] };
      doc.replace('rough terrain', { ...doc.scenario, name: 'too big to link', terrain }, { restart: true });
    });
    await waitFor(page, () => window.__roverlab.scenario === 'too big to link' && !window.__roverlab.loading && window.__roverlab.time > 0.1);
    // Paused, so that the run cannot reach its end (5 s) and put its own banner up meanwhile.
    await page.click('#play');
    await waitFor(page, () => !window.__roverlab.playing);
    await page.click('#share');
    await waitFor(page, () => /too big for a link/.test(window.__roverlab.banner?.text ?? ''));
    const { banner, shareUrl } = await state(page);
    expect(banner.kind).toBe('warning');
    expect(banner.text).toMatch(/^No link was made: the terrain is too big for a link\. The share link would be \d+ characters long; the limit is 65536\./);
    expect(shareUrl ?? null).toBeNull();  // no link was made
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#banner-actions button:has-text("Save as file")')]);
    expect(download.suggestedFilename()).toBe('too-big-to-link.json');
    const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(saved).toEqual(await page.evaluate(() => window.__roverlab.doc.scenario));
    expect(await page.isVisible('#banner')).toBe(false);  // the button closed the message
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('autosaved work the core rejects: the default runs, the work and its history stay, Undo brings back a valid one', async () => {
    // The autosave of a session whose last change (a wheel radius past its range) is not valid.
    const valid = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
    const invalid = { ...valid, robot: { ...valid.robot, params: { wheel_radius: 5 } } };
    const history = { undo: [{ label: 'wheel_radius = 5', before: valid, after: invalid, restart: true }], redo: [] };
    const context = await newContext();
    await context.addInitScript((text) => {
      if (sessionStorage.getItem('seeded')) return;  // once: the page's own autosave counts after that
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('roverlab.autosave.v1', text);
    }, JSON.stringify({ savedAt: Date.now(), scenario: invalid, history }));
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(url, { waitUntil: 'load', timeout: 90_000 });
    await waitFor(page, () => window.__roverlab?.ready && window.__roverlab.banner?.kind === 'warning' && window.__roverlab.time > 0.2);
    const s = await state(page);
    expect(s.banner.text).toMatch(/Your saved work is not valid, so climb-articulated6 runs instead/);
    expect(s.banner.text).toMatch(/robot\.params\.wheel_radius/);
    expect(s.preset).toBe('articulated6');  // the default runs: view, parameters and plots are there
    expect(await page.locator('#params input').count()).toBeGreaterThan(5);
    await waitFor(page, () => document.querySelectorAll('#plots canvas').length > 0);  // the charts load after the first frame
    expect(await page.evaluate(() => window.__roverlab.doc.scenario.robot.params.wheel_radius)).toBe(5);  // the work is kept
    await page.screenshot({ path: path.join(resultsDir, 'autosave-rejected.png') });
    await page.click('#banner-actions button:has-text("Undo")');
    await waitFor(page, () => window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.2 && window.__roverlab.issues.length === 0);
    expect(await page.evaluate(() => window.__roverlab.doc.scenario.robot.params)).toBeUndefined();
    expect(await page.evaluate(() => window.__roverlab.doc.canRedo)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('while the core loads, a note says so with its progress; Play waits for the first run', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    // A slow network: the core's .wasm arrives 3 s late (the worker's request included).
    await context.route(/\.wasm(\?|$)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.goto(url, { waitUntil: 'load', timeout: 90_000 });
    await waitFor(page, () => /Loading the simulation core/.test(window.__roverlab?.progress ?? ''));
    expect(await page.isVisible('#progress')).toBe(true);
    expect(await page.isDisabled('#play')).toBe(true);
    await waitFor(page, () => /Loading the simulation core \(\d[\d,]* of \d[\d,]* kB\)/.test(window.__roverlab?.progress ?? '') || window.__roverlab?.ready);
    await waitFor(page, () => window.__roverlab.ready);
    expect(await page.isDisabled('#play')).toBe(false);
    expect(await page.isVisible('#progress')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
