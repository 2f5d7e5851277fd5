// Guidance and layout in headless Chromium: each side-panel tab's help and
// its "Try this" button, the stance tab's hint on a terrain without quad rows,
// the crawler link's introduction and the names in its figure (its panel
// inert until its module is there), the editor's tables inside their panel at
// 1280×800 (the template section staying open), and the stacked layout at
// 390×844 with its drive buttons. One page; the narrow layout is the same
// page resized. Screenshots of every tab and of the
// narrow layout go to test-results/.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { applyTemplate, defaultValues } from '../../web/src/editor/templates.js';
import { resultsDir, startApp } from './support.mjs';

let browser;
let server;
let page;
let errors;

const waitFor = (fn, arg, timeout = 90_000) => page.waitForFunction(fn, arg, { timeout });
const helpOpen = () => page.evaluate(() => document.getElementById('tab-help').open);

/** A screenshot once the view holds the scene as it is now. */
async function screenshot(name) {
  await waitFor(() => window.__roverlab.viewCurrent);
  await page.screenshot({ path: path.join(resultsDir, name) });
}

/** Boxes of what sticks out of the side panel's inside (its scroll bar excluded), as "what: right edge". */
function outsideSidePanel(selector) {
  return page.evaluate((selector) => {
    const side = document.getElementById('side');
    const right = side.getBoundingClientRect().left + side.clientLeft + side.clientWidth;
    return [...document.querySelectorAll(selector)]
      .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > right + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}${e.closest('[id]') ? ' in #' + e.closest('[id]').id : ''}: ${Math.round(e.getBoundingClientRect().right)} > ${Math.round(right)}`);
  }, selector);
}

beforeAll(async () => {
  ({ browser, server, page, errors } = await startApp());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 60_000);

describe('guidance and layout', { timeout: 120_000 }, () => {
  test("Simulate: the help is open on the first visit and its button starts articulated6's climb", async () => {
    await page.selectOption('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.scenarioId === 'flat-rocker8' && window.__roverlab.time > 0.1);
    expect(await helpOpen()).toBe(true);
    expect(await page.textContent('#tab-help-text')).toMatch(/arrow keys/);
    await page.click('#tab-help-try');
    await waitFor(() => {
      const s = window.__roverlab;
      return s.scenarioId === 'climb-articulated6' && s.preset === 'articulated6' && s.playing && s.time > 0.2 && s.phase;
    });
    await screenshot('tab-sim.png');
  });

  test('Rover stance: on a terrain without quad rows a hint offers one; its Try this places the rover on the depression', async () => {
    await page.click('#tab-stance');
    await page.waitForSelector('#stance-hint', { state: 'visible' });  // the tab's module is loaded when it is first opened
    expect(await page.textContent('#stance-hint')).toMatch(/two quad rows with Track1/);
    expect(await helpOpen()).toBe(true);
    await page.click('#tab-help-try');
    await waitFor(() => window.__roverlab.stancePose?.stance && window.__roverlab.scenarioId === 'depression-rocker8');
    expect(await page.isVisible('#stance-hint')).toBe(false);
    expect(await page.textContent('#stance-info')).toMatch(/wheels touching/);
    await screenshot('tab-stance.png');
  });

  test("Edit terrain: every table's last column and each × lie inside the panel at 1280×800", async () => {
    await page.click('#tab-edit');
    await page.click('#add-boxes');  // a block row with its × too
    await waitFor(() => window.__roverlab.doc.scenario.terrain.boxes?.length === 1);
    expect(await page.locator('#quads-left tr[data-path]').count()).toBe(8);
    const lastCells = await page.evaluate(() => [...document.querySelectorAll('#editor table tr')].map((tr) => tr.lastElementChild).filter(Boolean).length);
    expect(lastCells).toBeGreaterThan(30);
    expect(await outsideSidePanel('#editor table tr > :last-child, #editor table .planeinfo > span, #editor button.icon, #editor input')).toEqual([]);
    expect(await page.evaluate(() => document.getElementById('side').scrollWidth <= document.getElementById('side').clientWidth)).toBe(true);
    await screenshot('tab-edit.png');
  });

  test('Edit terrain: choosing a template leaves its section open; Try this runs on the stairs', async () => {
    await page.click('#templates summary');
    await page.selectOption('#template', 'step');
    expect(await page.evaluate(() => document.getElementById('templates').open)).toBe(true);
    await page.click('#template-apply');
    const step = applyTemplate(await page.evaluate(() => window.__roverlab.doc.scenario), 'step', defaultValues('step')).terrain;
    await waitFor((t) => JSON.stringify(window.__roverlab.doc.scenario.terrain) === t, JSON.stringify(step));
    expect(await page.evaluate(() => document.getElementById('templates').open)).toBe(true);
    expect(await helpOpen()).toBe(true);
    const loads = await page.evaluate(() => window.__roverlab.loadLog.length);
    await page.click('#tab-help-try');
    const scenario = await page.evaluate(() => window.__roverlab.doc.scenario);
    expect(scenario.terrain).toEqual(applyTemplate(scenario, 'stairs', defaultValues('stairs')).terrain);
    expect(await page.inputValue('#template')).toBe('stairs');
    expect(await page.evaluate(() => document.getElementById('templates').open)).toBe(true);
    // The robot runs on it: a new load, built without issues.
    await waitFor((n) => window.__roverlab.loadLog.length > n && !window.__roverlab.loading && window.__roverlab.issues.length === 0, loads);
  });

  test("Crawler link: inert until its module is there, Try this at once shows an example; an introduction to every symbol; the figure's names do not overlap", async () => {
    // The tab's module held back a second: its panel is inert meanwhile, and Try this, clicked
    // at once, waits for the module instead of being lost.
    const crawlerModule = (url) => url.pathname.includes('crawler_panel');
    await page.route(crawlerModule, (route) => setTimeout(() => route.continue(), 1000));
    await page.click('#tab-crawler');
    expect(await page.evaluate(() => document.getElementById('crawler').inert)).toBe(true);
    expect(await helpOpen()).toBe(true);
    await page.click('#tab-help-try');
    await waitFor(() => window.__roverlab.crawler?.result?.kind === 7);
    await page.unroute(crawlerModule);
    expect(await page.evaluate(() => document.getElementById('crawler').inert)).toBe(false);
    expect(await page.inputValue('#crawler-example')).toBe('vertex-a');
    expect(await page.isVisible('#crawler-intro')).toBe(true);
    const intro = await page.textContent('#crawler-intro');
    for (const symbol of ['n', 'v', 'L', 'φn', 'φk', 'xA', 'l, b', 'α']) expect(intro).toContain(symbol);
    expect(intro).toMatch(/\(m\)/);
    expect(intro).toMatch(/\(°\)/);
    // Every example: no two names overlap, and O1(φk) stays clear of B (they met in the first one).
    const examples = await page.$$eval('#crawler-example option', (options) => options.map((o) => o.value).filter(Boolean));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const id of examples) {
      await page.selectOption('#crawler-example', id);
      const labels = await page.evaluate(() => window.__roverlab.crawler.labels.map((l) => ({ ...l })));
      expect(labels.map((l) => l.text)).toEqual(expect.arrayContaining(['O', 'A', 'B', 'D', 'E', 'O1(φn)', 'O1(φk)']));
      for (const [i, a] of labels.entries())
        for (const b of labels.slice(i + 1)) {
          const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
          expect(overlap, `${id}: ${a.text} and ${b.text}`).toBe(false);
        }
    }
    await page.selectOption('#crawler-example', 'side-ae');
    await screenshot('tab-crawler.png');
  });

  test('a tab shown before has its help folded; it opens again on a click', async () => {
    await page.click('#tab-sim');
    expect(await helpOpen()).toBe(false);
    await page.click('#tab-help summary');
    expect(await helpOpen()).toBe(true);
    expect(await page.isVisible('#tab-help-try')).toBe(true);
  });

  test('at 390×844 the page stacks: a wide view, nothing cut, and drive buttons that drive', async () => {
    // rocker8 standing still on flat ground: only the buttons move it.
    await page.selectOption('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.scenarioId === 'flat-rocker8' && window.__roverlab.time > 0.1);
    const still = await page.evaluate(() => {
      const s = structuredClone(window.__roverlab.doc.scenario);
      s.name = 'standing still';
      s.control.wheel_speed = 0;
      return s;
    });
    await page.evaluate((s) => window.__roverlab.doc.replace('standing still', s, { restart: true }), still);
    await page.setViewportSize({ width: 390, height: 844 });
    await waitFor(() => window.__roverlab.scenario === 'standing still' && window.__roverlab.time > 0.5);
    const layout = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getClientRects().length && (e.getBoundingClientRect().right > width + 0.5 || e.getBoundingClientRect().left < -0.5))
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}`);
      const view = document.getElementById('view').getBoundingClientRect();
      return { width, scrollWidth: document.documentElement.scrollWidth, view: view.width, wide, touch: getComputedStyle(document.getElementById('view')).touchAction };
    });
    expect(layout.width).toBe(390);
    expect(layout.view).toBeGreaterThanOrEqual(360);
    expect(layout.wide).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    expect(layout.touch).toBe('none');  // one finger orbits the view instead of scrolling the page
    const forward = page.locator('#drive-arrows button[data-key="ArrowUp"]');
    expect(await forward.isVisible()).toBe(true);
    expect(await page.locator('#drive-arrows button').count()).toBe(4);
    expect(await page.isVisible('#help')).toBe(false);
    // The camera presets and the drive buttons share the view without covering each other.
    const [presets, pad] = await Promise.all([page.locator('#camera-presets').boundingBox(), page.locator('#drive-pad').boundingBox()]);
    const apart = presets.x + presets.width <= pad.x || pad.x + pad.width <= presets.x || presets.y + presets.height <= pad.y || pad.y + pad.height <= presets.y;
    expect(apart).toBe(true);
    await screenshot('narrow-390.png');
    // Held down, ▲ drives forward as the ↑ key does; released, the wheels stop.
    const x0 = await page.evaluate(() => window.__roverlab.base[0]);
    const box = await forward.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await waitFor((x) => window.__roverlab.base[0] > x + 0.1, x0);
    expect(await forward.getAttribute('class')).toBe('held');
    await page.mouse.up();
    expect(await forward.getAttribute('class')).toBe('');
    expect(errors).toEqual([]);
  });
});
