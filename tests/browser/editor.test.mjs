// The terrain editor and share links in headless Chromium, as a person uses
// them: rebuild [KJ2025]'s 8-segment depression terrain through the "Add"
// form alone, set a Track1 coordinate, undo/redo by button and keyboard, drag
// a point in the 3-D view (one undo step), reload (autosave), save, share,
// open the link in a second browser and run the rover on it; broken links
// show a banner and leave the work alone; invalid entries are marked at the
// field and never reach the simulation. The rough-field generator: chosen,
// a value changed rebuilds the terrain (one undo step, undone), a value out
// of range is refused, and the rover drives on the field; quad rows and
// Track1 edited beside a heightmap, and the rover driving from the rows onto
// the field.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { rubblePatchObj } from '../../scripts/rubble_patch.mjs';
import { applyTemplate, defaultValues, getTemplate } from '../../web/src/editor/templates.js';
import { collectErrors, imageStats, launchBrowser, resultsDir, root, startDevServer } from './support.mjs';

let browser;
let server;
let url;
let page;
let errors;

const depression = JSON.parse(readFileSync(path.join(root, 'terrains/depression-rocker8.json'), 'utf8'));
const state = (p = page) => p.evaluate(() => ({ ...window.__roverlab, doc: undefined, screenOf: undefined, inView: undefined }));
const scenarioOf = (p = page) => p.evaluate(() => window.__roverlab.doc.scenario);
// Generous time limits: on a busy two-core machine a second page takes tens of seconds to start.
const waitFor = (fn, arg, p = page, timeout = 120_000) => p.waitForFunction(fn, arg, { timeout });
const point = (p) => p.join(' ');

async function openApp(p, href) {
  await p.goto(href, { waitUntil: 'load', timeout: 90_000 });
  await waitFor(() => window.__roverlab?.ready && window.__roverlab?.editorReady, null, p);
}

/** Types one segment into the Add form (a and b only for a row's first segment). */
async function addSegment(side, seg, first) {
  await page.selectOption('#add-side', side);
  if (first) {
    await page.fill('#add-a', point(seg.a));
    await page.fill('#add-b', point(seg.b));
  }
  await page.fill('#add-m', point(seg.m));
  await page.click('#add-segment');
}

beforeAll(async () => {
  browser = await launchBrowser();
  ({ server, url } = await startDevServer());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  errors = collectErrors(page);
  await openApp(page, url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 60_000);

describe('terrain editor', { timeout: 180_000 }, () => {
  test("rebuilds [KJ2025]'s depression terrain through the Add form, with planes and Track1", async () => {
    await page.selectOption('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.1);
    await page.click('#tab-edit');
    // Start empty: remove the ground boxes of flat-rocker8.
    while ((await page.locator('#blocks-boxes .blockrow').count()) > 0)
      await page.locator('#blocks-boxes .blockrow button.icon').first().click();
    const { left, right } = depression.terrain.quads;
    for (const [i, seg] of left.entries()) await addSegment('left', seg, i === 0);
    for (const [i, seg] of right.entries()) await addSegment('right', seg, i === 0);

    await page.fill('#pose-position', '1.2 0');
    await page.press('#pose-position', 'Enter');
    const quads = (await scenarioOf()).terrain.quads;
    expect((await scenarioOf()).robot.pose.position).toEqual(depression.robot.pose.position);
    expect(quads.left).toEqual(left);  // the shared points came from the editor, exactly
    expect(quads.right).toEqual(right);
    expect(await page.locator('#quads-left tr[data-path]').count()).toBe(8);
    expect(await page.locator('#quads-right tr[data-path]').count()).toBe(8);
    // Plane data as the core computes it: segment 3 of the right row slopes down by 0.13 m over 1 m.
    const eq = await page.locator('#quads-right tr[data-path="terrain.quads.right[3]"] + tr .eq').textContent();
    const n = [0.13, 0, 1].map((v) => v / Math.hypot(0.13, 1));
    expect(eq).toBe(`${n[0].toFixed(3)}x + 0.000y + ${n[2].toFixed(3)}z = ${(n[0] * 3 + n[2] * -0.12).toFixed(3)}`);
    expect(await page.locator('#quads-left tr[data-path="terrain.quads.left[0]"] + tr .eq').textContent()).toBe('0.000x + 0.000y + 1.000z = 0.000');
    // Track1: one node per edge of the left row, at its middle.
    const s = await state();
    expect(s.editor.valid).toBe(true);
    expect(s.editor.track1).toHaveLength(9);
    s.editor.track1.forEach((p, i) => expect(p).toEqual([i, 0.8, 0]));
    await page.screenshot({ path: path.join(resultsDir, 'editor-depression.png') });
    expect(errors).toEqual([]);
  }, 300_000);

  test('one Track1 coordinate moves the node along its line; leaving the left row is refused', async () => {
    // Tilt the left row's first edge so its line is not axis-aligned: a = (0, 0, 0.1).
    await page.fill('[data-path="terrain.quads.left[0].a"]', '0 0 0.1');
    await page.press('[data-path="terrain.quads.left[0].a"]', 'Enter');
    await waitFor(() => window.__roverlab.doc.scenario.terrain.quads.left[0].a[2] === 0.1);
    await page.locator('#track1-nodes input[type=radio]').nth(3).check();
    await page.selectOption('#node-axis', '1');  // y
    await page.fill('#node-value', '1.2');
    await page.click('#node-update');
    await waitFor(() => Math.abs(window.__roverlab.editor.track1[3][1] - 1.2) < 1e-12);
    // Node 3 lies on the far edge of quad 2: a' = m − (b − a)/2 = (3, 0, 0.05) to
    // b' = (3, 1.6, −0.05); at y = 1.2: x = 3 and z = 0.05 − 0.1·1.2/1.6.
    const node = (await state()).editor.track1[3];
    expect(node[0]).toBeCloseTo(3, 12);
    expect(node[2]).toBeCloseTo(0.05 - (0.1 * 1.2) / 1.6, 12);
    expect((await scenarioOf()).track1.nodes[3]).toEqual(node);
    await page.fill('#node-value', '2.5');
    await page.click('#node-update');
    expect(await page.locator('#node-message').textContent()).toMatch(/off the left row/);
    expect((await state()).editor.track1[3]).toEqual(node);
  });

  test('undo and redo by button and keyboard', async () => {
    const before = await scenarioOf();
    await page.fill('[data-path="terrain.quads.right[7].m"]', '8 -0.8 0.3');
    await page.press('[data-path="terrain.quads.right[7].m"]', 'Enter');
    await waitFor(() => window.__roverlab.doc.scenario.terrain.quads.right[7].m[2] === 0.3);
    const after = await scenarioOf();
    await page.click('#editor-undo');
    expect(await scenarioOf()).toEqual(before);
    await page.click('#editor-redo');
    expect(await scenarioOf()).toEqual(after);
    await page.locator('#view').click({ position: { x: 5, y: 5 } });  // focus out of the inputs
    await page.keyboard.press('Control+z');
    expect(await scenarioOf()).toEqual(before);
    await page.keyboard.press('Control+Shift+Z');
    expect(await scenarioOf()).toEqual(after);
  });

  test('dragging a point in the 3-D view edits the table live and is one undo step', async () => {
    if (await page.locator('#banner').isVisible()) await page.click('#banner-actions button:has-text("Close")');
    const before = await scenarioOf();
    const row = before.terrain.quads.right;
    const move = [0.4, -0.3];  // away from the left row
    // The run paused (by the first edit) and the orbit at rest, then the far midpoint m of the
    // right row's segments in sight, with where it goes, nearest the middle of the view. (The
    // camera follows the robot, which stopped wherever it was on this machine at the first edit.)
    const handle = await waitFor(
      ({ row, move }) => {
        const s = window.__roverlab;
        if (s.playing || !s.cameraSettled) return null;
        const r = document.getElementById('view').getBoundingClientRect();
        let best = null;
        for (let i = 0; i + 1 < row.length; i++) {
          const m = row[i].m;
          if (!s.inView(m) || !s.inView([m[0] + move[0], m[1] + move[1], m[2]])) continue;
          const [x, y] = s.screenOf(m);
          const d = Math.hypot(x - r.left - r.width / 2, y - r.top - r.height / 2);
          if (!best || d < best.d) best = { i, d };
        }
        return best;
      },
      { row, move },
    );
    const { i } = await handle.jsonValue();
    const m = row[i].m;
    const target = [m[0] + move[0], m[1] + move[1], m[2]];
    const [x, y] = await page.evaluate((p) => window.__roverlab.screenOf(p), m);
    const box = await page.locator('#view').boundingBox();
    expect(x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height).toBe(true);
    const [tx, ty] = await page.evaluate((p) => window.__roverlab.screenOf(p), target);
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(x + ((tx - x) * k) / 8, y + ((ty - y) * k) / 8);
    await page.mouse.up();
    const moved = (await scenarioOf()).terrain.quads.right[i].m;
    // Snapped to the 0.05 m grid, near the target; the height stays.
    expect(moved[0]).toBeCloseTo(target[0], 1);
    expect(moved[1]).toBeCloseTo(target[1], 1);
    expect(moved[2]).toBe(m[2]);
    expect(Math.abs(moved[0] / 0.05 - Math.round(moved[0] / 0.05))).toBeLessThan(1e-9);
    const cell = await page.inputValue(`[data-path="terrain.quads.right[${i}].m"]`);
    expect(cell).toBe(moved.map((v) => String(Math.round(v * 1e4) / 1e4)).join(' '));
    // The next segment starts at the moved far side (shared points).
    expect((await scenarioOf()).terrain.quads.right[i + 1].a[0]).toBeCloseTo(moved[0], 12);
    await page.click('#editor-undo');
    expect(await scenarioOf()).toEqual(before);
  });

  test('invalid entries are marked at the field and never reach the simulation', async () => {
    const field = '[data-path="terrain.quads.left[2].m"]';
    await page.fill(field, '3 0.8');
    await page.press(field, 'Enter');
    const cell = page.locator('#quads-left tr[data-path="terrain.quads.left[2]"] td').nth(3);
    expect(await cell.locator('.message').textContent()).toMatch(/needs three numbers/);
    // m on the line through a and b: no area; the core names the field.
    await page.fill(field, '2 0.8 0');
    await page.press(field, 'Enter');
    await waitFor(() => window.__roverlab.editor.valid === false);
    expect(await cell.locator('.message').textContent()).toMatch(/terrain\.quads\.left\[2\]\.m: .*no area/);
    expect(await page.locator('#editor-run').isDisabled()).toBe(true);
    await page.click('#editor-undo');
    await waitFor(() => window.__roverlab.editor.valid === true);
    expect(await page.locator('#editor-run').isDisabled()).toBe(false);
  });

  test('a reload keeps the work (autosave)', async () => {
    const before = await scenarioOf();
    // The autosave (debounced) holds the work.
    await waitFor(
      () => JSON.stringify(JSON.parse(localStorage.getItem('roverlab.autosave.v1'))?.scenario) === JSON.stringify(window.__roverlab.doc.scenario),
    );
    await page.reload({ waitUntil: 'load' });
    await waitFor(() => window.__roverlab?.ready && window.__roverlab?.editorReady);
    expect(await scenarioOf()).toEqual(before);
    expect((await state()).banner.text).toMatch(/Restored your work/);
  });

  test('save writes the scenario as JSON', async () => {
    await page.click('#tab-edit');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#editor-save')]);
    const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(saved).toEqual(await scenarioOf());
  });

  test('share: a second browser opens the link, gets the same scenario and the rover drives on it', async () => {
    await page.click('#editor-share');
    await waitFor(() => Boolean(window.__roverlab.shareUrl));
    const { shareUrl } = await state();
    expect(shareUrl.length).toBeLessThan(2000);
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const otherErrors = collectErrors(other);
    await openApp(other, shareUrl);
    await waitFor(() => window.__roverlab.linkOpened && window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 4, null, other);
    expect(await scenarioOf(other)).toEqual(await scenarioOf());
    const s = await state(other);
    expect(s.base[0]).toBeGreaterThan(1.2 + 0.5);  // started at x = 1.2, 1 rad/s wheels
    expect(s.error).toBeNull();
    await other.screenshot({ path: path.join(resultsDir, 'editor-shared.png') });
    expect(otherErrors).toEqual([]);
    await other.close();
  }, 300_000);

  test('broken links show what is wrong; the app and the autosaved work stay', async () => {
    const mine = await scenarioOf();
    const cases = [
      ['#s1.abc%def', /not a base64url|character/i],
      ['#s9.AAAA', /version 9/],
      ['#hello', /share/i],
    ];
    for (const [fragment, message] of cases) {
      // A tab of the same browser profile: the first page's autosave is there.
      const other = await page.context().newPage();
      await openApp(other, url + fragment);
      await waitFor(() => window.__roverlab.banner?.kind === 'error', null, other);
      expect((await state(other)).banner.text).toMatch(message);
      expect(await scenarioOf(other)).toEqual(mine);
      expect((await state(other)).time).toBeGreaterThan(0);  // still running
      await other.close();
    }
  }, 300_000);

  test('a link that would replace autosaved work asks first', async () => {
    const mine = await scenarioOf();
    // A link to another scenario, made with the page's own codec.
    // (A string, so that the test runner leaves the page's dynamic import alone.)
    const link = await page.evaluate(`(async () => {
      const { encodeShare } = await import('/src/share/share_link.js');
      const s = structuredClone(window.__roverlab.doc.scenario);
      s.name = 'a colleague’s terrain';
      s.terrain.quads.right[7].m[2] = 0.1;  // the last segment: no shared point follows
      return location.origin + location.pathname + '#' + (await encodeShare({ scenario: s }));
    })()`);
    const other = await page.context().newPage();
    await openApp(other, link);
    await waitFor(() => window.__roverlab.banner?.kind === 'warning', null, other);
    expect(await scenarioOf(other)).toEqual(mine);
    await other.click('#banner-actions button:has-text("Open the link")');
    await waitFor(() => window.__roverlab.linkOpened, null, other);
    expect((await scenarioOf(other)).name).toBe('a colleague’s terrain');
    await other.close();
  }, 180_000);
});

describe('the rough-field generator, and quad rows beside a heightmap', { timeout: 240_000 }, () => {
  let fresh;
  let freshErrors;
  const hooks = () => fresh.evaluate(() => ({ ...window.__roverlab, doc: undefined, screenOf: undefined, inView: undefined }));
  const docOf = () => fresh.evaluate(() => window.__roverlab.doc.scenario);
  const wait = (fn, arg) => waitFor(fn, arg, fresh);
  const lastLoad = () => fresh.evaluate(() => window.__roverlab.loadLog.at(-1)?.sentAt ?? 0);

  /** Restarts the robot on the edited terrain (the run stands paused, at time `shown`) and lets it run
   * `seconds` (simulated); then pauses it, the view drawn. */
  async function runFor(seconds) {
    const { time: shown, playing } = await hooks();
    expect(playing).toBe(false);  // an edit paused it
    const before = await lastLoad();
    await fresh.click('#editor-run');
    await wait((t) => (window.__roverlab.loadLog.at(-1)?.sentAt ?? 0) > t && !window.__roverlab.loading, before);
    expect((await hooks()).issues ?? []).toEqual([]);
    await wait((t) => window.__roverlab.time !== t, shown);  // the new run on show
    expect((await hooks()).playing).toBe(true);
    await wait((s) => window.__roverlab.time > s, seconds);
    await fresh.click('#play');  // pause: a still picture
    await wait(() => !window.__roverlab.playing && window.__roverlab.viewCurrent);
    return hooks();
  }

  beforeAll(async () => {
    // The page of the tests above (a second page beside it would share the machine's few cores with its
    // drawing), on flat-rocker8.
    fresh = page;
    freshErrors = collectErrors(fresh);
    await fresh.selectOption('#scenario', 'flat-rocker8');
    await wait(() => window.__roverlab.preset === 'rocker8' && window.__roverlab.doc.scenario.name === 'rocker8 on flat ground');
    await fresh.click('#tab-edit');
  }, 240_000);

  test('choose the generator, change a value: the terrain is rebuilt, one undo step; undo restores it; the rover drives on it', async () => {
    if (!(await fresh.evaluate(() => document.getElementById('templates').open))) await fresh.click('#templates summary');
    await fresh.selectOption('#template', 'rough-field');
    await fresh.click('#template-apply');
    const built = applyTemplate(await docOf(), 'rough-field', defaultValues('rough-field'));
    await wait((t) => JSON.stringify(window.__roverlab.doc.scenario.terrain) === t && window.__roverlab.heightmapChunks > 0, JSON.stringify(built.terrain));
    expect(await fresh.isVisible('#template-live')).toBe(true);
    const steps = await fresh.evaluate(() => window.__roverlab.doc.undoStack.length);
    await wait(() => window.__roverlab.viewCurrent);
    const before = await fresh.locator('#view').screenshot();

    // Amplitude 0.08 → 0.25 m: rebuilt at once, one more undo step, drawn anew.
    await fresh.fill('#templates input[data-key="amplitude"]', '0.25');
    await fresh.press('#templates input[data-key="amplitude"]', 'Enter');
    const higher = applyTemplate(built, 'rough-field', { ...defaultValues('rough-field'), amplitude: 0.25 });
    await wait((t) => JSON.stringify(window.__roverlab.doc.scenario.terrain) === t, JSON.stringify(higher.terrain));
    expect(await fresh.evaluate(() => window.__roverlab.doc.undoStack.length)).toBe(steps + 1);
    await wait(() => window.__roverlab.viewCurrent);
    const after = await fresh.locator('#view').screenshot();
    expect(after.equals(before), 'the view shows the rebuilt field').toBe(false);

    // Out of its range: refused at the field, nothing changes.
    await fresh.fill('#templates input[data-key="amplitude"]', '0.9');
    await fresh.press('#templates input[data-key="amplitude"]', 'Enter');
    await wait(() => document.querySelector('#templates input[data-key="amplitude"]').classList.contains('bad'));
    expect(await fresh.textContent('#template-message')).toMatch(/must be a number in \[0.01, 0.5\] m, got 0.9/);
    expect((await docOf()).terrain).toEqual(higher.terrain);

    // Undo: the field and the value shown as they were.
    await fresh.click('#editor-undo');
    await wait((t) => JSON.stringify(window.__roverlab.doc.scenario.terrain) === t, JSON.stringify(built.terrain));
    expect(await fresh.inputValue('#templates input[data-key="amplitude"]')).toBe('0.08');

    // The rover drives on it: forward, its base above the ±8 cm field.
    const h = await runFor(3);
    expect(h.error).toBeNull();
    expect(h.outcome ?? 'ok').toBe('ok');
    expect(h.base[0] - h.startBase[0]).toBeGreaterThan(0.5);  // 2 rad/s on 0.25 m wheels: about 1.5 m in 3 s
    expect(h.base[2]).toBeGreaterThan(0.3);
    const png = await fresh.screenshot({ path: path.join(resultsDir, 'editor-rough-field.png') });
    const stats = await imageStats(fresh, png, 0xdfe6ec);
    expect(stats.unlike, 'share of non-background pixels').toBeGreaterThan(0.3);
    expect(freshErrors, freshErrors.join('\n')).toEqual([]);
  });

  test('quad rows and Track1 beside a heightmap: typed edits and a Track1 node move keep the field; the rover drives from the rows onto it', async () => {
    // The paper's depression (rows and Track1) with the rough field beyond the rows, from x = 8 m.
    const scenario = applyTemplate(depression, 'depression', defaultValues('depression'));
    const { terrain: field } = getTemplate('rough-field').build(defaultValues('rough-field'));
    const [dx, dy] = [8 - field.heightmaps[0].origin[0], -1.5 - field.heightmaps[0].origin[1]];
    scenario.terrain.materials.field = field.materials.soil;  // the depression's own soil stays as it is
    scenario.terrain.heightmaps = [{ ...field.heightmaps[0], origin: [8, -1.5], material: 'field' }];
    scenario.terrain.hulls = field.hulls.map((h) => ({ ...h, points: h.points.map(([x, y, z]) => [x + dx, y + dy, z]) }));
    scenario.name = 'depression and a rough field';
    scenario.robot.pose.position = [7, 0];
    scenario.control.wheel_speed = 2;
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'roverlab-editor-')), 'depression-and-field.json');
    writeFileSync(file, JSON.stringify(scenario));
    await fresh.setInputFiles('#editor-file', file);
    await wait((name) => window.__roverlab.doc.scenario.name === name && window.__roverlab.heightmapChunks > 0, scenario.name);
    const chunks = (await hooks()).heightmapChunks;  // the field's chunks (64 × 64 cells each)
    expect(await fresh.locator('#quads-left tr[data-path]').count()).toBe(8);
    expect(await fresh.locator('#quads-right tr[data-path]').count()).toBe(8);
    expect(await fresh.isVisible('#template-live')).toBe(false);  // a loaded terrain, not the template's
    let h = await hooks();
    expect(h.editor.valid).toBe(true);
    expect(h.editor.large).toBeNull();
    expect(h.editor.track1).toHaveLength(9);

    // A typed far midpoint: the depression one step deeper; the field stays as it was, and drawn.
    const field0 = JSON.stringify(scenario.terrain.heightmaps);
    await fresh.fill('[data-path="terrain.quads.right[4].m"]', '5 -0.8 -0.35');
    await fresh.press('[data-path="terrain.quads.right[4].m"]', 'Enter');
    await wait(() => window.__roverlab.doc.scenario.terrain.quads.right[4].m[2] === -0.35);
    await fresh.locator('#track1-nodes input[type=radio]').nth(3).check();
    await fresh.selectOption('#node-axis', '1');  // y
    await fresh.fill('#node-value', '1.2');
    await fresh.click('#node-update');
    await wait(() => Math.abs(window.__roverlab.editor.track1[3][1] - 1.2) < 1e-12);
    h = await hooks();
    expect(h.editor.valid).toBe(true);
    expect(h.editor.track1[3]).toEqual([3, 1.2, 0]);
    expect(h.heightmapChunks).toBe(chunks);
    const edited = await docOf();
    expect(JSON.stringify(edited.terrain.heightmaps)).toBe(field0);
    expect(edited.terrain.hulls).toEqual(scenario.terrain.hulls);
    expect(edited.track1.nodes[3]).toEqual([3, 1.2, 0]);
    await fresh.click('#editor-undo');
    await fresh.click('#editor-undo');
    await wait((s) => JSON.stringify(window.__roverlab.doc.scenario) === s, JSON.stringify(scenario));
    await fresh.click('#editor-redo');
    await fresh.click('#editor-redo');
    await wait((s) => JSON.stringify(window.__roverlab.doc.scenario) === s, JSON.stringify(edited));
    expect(await fresh.isVisible('#template-live')).toBe(false);

    // The rover drives off the end of the rows onto the field (2 rad/s: about 1 m in 2 s).
    h = await runFor(2);
    expect(h.error).toBeNull();
    expect(h.base[0]).toBeGreaterThan(7.5);
    expect(h.base[2]).toBeGreaterThan(0.3);
    await fresh.screenshot({ path: path.join(resultsDir, 'editor-rows-beside-heightmap.png') });
    expect(freshErrors).toEqual([]);
  });
});

describe('a refused entry never locks the editor', { timeout: 180_000 }, () => {
  const field = '[data-path="terrain.quads.right[4].m"]';
  const message = () => page.locator('#quads-right tr[data-path="terrain.quads.right[4]"] td').nth(3).locator('.message');
  const depressionOf = (depth) => applyTemplate(depression, 'depression', { ...defaultValues('depression'), depth });

  /** Puts the depression template (of `depth`) in place, through the template section. */
  async function useDepression(depth = 0.25) {
    if (!(await page.evaluate(() => document.getElementById('templates').open))) await page.click('#templates summary');
    await page.selectOption('#template', 'depression');
    await page.fill('#templates input[data-key="depth"]', String(depth));
    await page.press('#templates input[data-key="depth"]', 'Enter');  // the value taken (the section drawn again) before Apply
    await page.click('#template-apply');
    await waitFor((t) => JSON.stringify(window.__roverlab.doc.scenario.terrain) === t, JSON.stringify(depressionOf(depth).terrain));
  }

  /** Types a typo into right[4].m: refused at the field, Run disabled, nothing changed. */
  async function typo() {
    const before = await scenarioOf();
    await page.fill(field, '5 -0.8 abc');
    await page.press(field, 'Enter');
    await waitFor((f) => document.querySelector(f).classList.contains('bad'), field);
    expect(await message().textContent()).toMatch(/z = 'abc' is not a number/);
    expect(await page.isDisabled('#editor-run')).toBe(true);
    expect.soft(await page.inputValue(field), 'what was typed stays beside its error').toBe('5 -0.8 abc');
    expect.soft((await state()).editor.valid).toBe(false);
    expect(await scenarioOf()).toEqual(before);
  }

  /** No error anywhere in the editor: the field shows the document's value, Run is enabled. */
  async function unlocked() {
    await waitFor(() => window.__roverlab.editor.valid === true);
    const m = (await scenarioOf()).terrain.quads?.right?.[4]?.m;
    if (m) {
      expect(await page.getAttribute(field, 'class')).not.toMatch(/\bbad\b/);
      expect(await page.inputValue(field)).toBe(point(m));
      expect(await message().textContent()).toBe('');
    }
    expect(await page.locator('#editor .bad').count()).toBe(0);
    expect(await page.isHidden('#editor-messages')).toBe(true);
    expect(await page.isDisabled('#editor-run')).toBe(false);
  }

  beforeAll(async () => {
    await page.click('#tab-edit');
    if (await page.evaluate(() => window.__roverlab.playing)) await page.click('#play');
    await useDepression();
  }, 180_000);

  test('typing the value back and pressing Enter clears the error', async () => {
    const shown = await page.inputValue(field);
    await typo();
    await page.$eval(field, (e) => e.scrollIntoView({ block: 'center' }));  // the field and its message in sight
    await page.screenshot({ path: path.join(resultsDir, 'editor-typo.png') });
    await page.fill(field, shown);
    await page.press(field, 'Enter');
    await unlocked();
    await page.screenshot({ path: path.join(resultsDir, 'editor-typo-cleared.png') });
  });

  test('Undo and Redo clear it: the error was about the document before', async () => {
    await page.fill(field, '5 -0.8 -0.3');
    await page.press(field, 'Enter');
    await waitFor(() => window.__roverlab.doc.scenario.terrain.quads.right[4].m[2] === -0.3);
    await typo();
    await page.click('#editor-undo');
    await waitFor(() => window.__roverlab.doc.scenario.terrain.quads.right[4].m[2] === -0.25);
    await unlocked();
    await typo();
    await page.click('#editor-redo');
    await waitFor(() => window.__roverlab.doc.scenario.terrain.quads.right[4].m[2] === -0.3);
    await unlocked();
  });

  test('a template replacing the terrain clears it, and no stale message stays above the new rows', async () => {
    await typo();
    await useDepression(0.4);
    await unlocked();
    // The rough field has no quad rows: the error's field is gone, and so is the error.
    await typo();
    await page.selectOption('#template', 'rough-field');
    await page.click('#template-apply');
    await waitFor(() => Boolean(window.__roverlab.doc.scenario.terrain.heightmaps) && !window.__roverlab.doc.scenario.terrain.quads);
    await unlocked();
    await page.screenshot({ path: path.join(resultsDir, 'editor-typo-template.png') });
  });

  test('an imported file replacing the terrain clears it', async () => {
    await useDepression();
    await typo();
    // A 5 × 4 m patch of 0.1 m cells with a few low stones, as an OBJ file: room for the rover.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'roverlab-editor-')), 'patch.obj');
    writeFileSync(file, rubblePatchObj({ length: 5, width: 4, cell: 0.1, stones: 4, height: 0.08, clear: 2, seed: 2 }));
    await page.setInputFiles('#editor-file', file);
    await waitFor(() => /patch\.obj/.test(window.__roverlab.banner?.text ?? '') && !window.__roverlab.loading);
    expect((await state()).banner.text).toMatch(/^Imported patch\.obj/);
    expect((await scenarioOf()).terrain.meshes).toHaveLength(1);
    await unlocked();
    expect(errors).toEqual([]);
  });
});
