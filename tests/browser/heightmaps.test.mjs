// Heightmaps in the app: a generated rough field opens by its address, is
// drawn as a few chunk meshes (not a mesh per cell), and the rover drives on
// it, seen above the ground; a dropped PNG becomes the terrain (a large one
// drawn from the chunks in view first); the View
// panel colours heightmaps by height or slope in place; the editor's
// heightmap form changes origin, cell and height scale as one undo step.
import { describe, expect, test } from 'vitest';

import { greyPng, imageStats, openAppPage, saveScreenshot, serveApp } from './support.mjs';

/** Drops `png` (a Buffer) on the 3-D view as the file `name`, as a person dragging it there. */
async function dropPng(page, png, name) {
  await page.evaluate(
    async ({ base64, name }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'image/png' }));
      const view = document.getElementById('view');
      view.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      view.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { base64: png.toString('base64'), name },
  );
}

/** 240 × 160 pixels (12 × 8 m at 0.05 m, white 0.5 m up): a plain, a gentle mound and a plateau with steep sides. */
const featurePng = () =>
  greyPng(240, 160, (i, j) => {
    const mound = 120 * Math.exp(-((i - 120) ** 2 + (j - 45) ** 2) / (2 * 14 ** 2));
    const plateau = i >= 70 && i < 110 && j >= 100 && j < 135 ? 150 : 0;
    return Math.round(20 + Math.max(mound, plateau));
  });

const app = serveApp();

describe('heightmaps', () => {
  test('the rough field is drawn in chunks and the rover drives on it', async () => {
    const { page, errors } = await openAppPage(app.browser, `${app.url}?scenario=rough-field-rocker8`);
    const hooks = () => page.evaluate(() => ({ ...window.__roverlab }));
    let h = await hooks();
    expect(h.scenarioId).toBe('rough-field-rocker8');
    expect(h.issues ?? []).toEqual([]);
    // 160 × 160 cells in chunks of 64 × 64: 3 × 3, drawn as one mesh; with the robot's, fewer
    // triangles than the field's 51 200 (the chunks afar at coarser levels).
    expect(h.heightmapChunks).toBe(9);
    expect(h.drawnTriangles.triangles).toBeLessThan(2 * 160 * 160);
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 2, null, { timeout: 60_000 });
    h = await hooks();
    // Driven forwards at about 0.5 m/s, the base well above the ±6 cm field.
    expect(h.base[0] - h.startBase[0]).toBeGreaterThan(0.5);
    expect(h.base[2]).toBeGreaterThan(0.2);
    expect(h.outcome ?? 'ok').not.toMatch(/left_terrain|blew_up/);
    await page.click('#play');  // pause, so the picture is of a still scene
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    const png = await saveScreenshot(page, 'heightmap-rough-field.png');
    const stats = await imageStats(page, png, 0xdfe6ec);
    expect(stats.unlike, 'share of non-background pixels').toBeGreaterThan(0.3);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('a grey PNG dropped on the view becomes the terrain and the robot drives on it', async () => {
    const { page, errors } = await openAppPage(app.browser, app.url);
    // 200 × 120 pixels (10 × 6 m at 0.05 m): gentle waves, 0.5 m from black to white.
    const png = greyPng(200, 120, (i, j) => Math.round(60 + 40 * Math.sin(i / 9) * Math.cos(j / 11)));
    const loadedBefore = await page.evaluate(() => window.__roverlab.loadLog.at(-1)?.sentAt ?? 0);
    await dropPng(page, png, 'waves.png');
    await page.waitForFunction(() => window.__roverlab.heightmapChunks > 0, null, { timeout: 60_000 });
    // The field's run, not the scenario's before it (its chunks are drawn before the worker's model comes).
    await page.waitForFunction((t) => (window.__roverlab.loadLog.at(-1)?.sentAt ?? 0) > t && !window.__roverlab.loading, loadedBefore, { timeout: 60_000 });
    const h = await page.evaluate(() => ({ ...window.__roverlab }));
    expect(h.banner.text).toMatch(/Imported waves\.png as a 200 × 120 heightmap/);
    const field = h.doc.scenario.terrain.heightmaps[0];
    expect(field.png.startsWith('data:image/png;base64,')).toBe(true);
    expect(field.cell).toBe(0.05);
    // 199 × 119 cells in chunks of 64: 4 × 2.
    expect(h.heightmapChunks).toBe(8);
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 1.5, null, { timeout: 60_000 });
    const later = await page.evaluate(() => ({ ...window.__roverlab }));
    // Above the field (grey 20–100 of 255 at 0.5 m per 255: 0.04–0.20 m high), not through it, and moving.
    expect(later.base[2]).toBeGreaterThan(0.2);
    expect(Math.abs(later.base[0] - later.startBase[0])).toBeGreaterThan(0.05);
    await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'heightmap-dropped.png');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('a large PNG dropped is drawn from the chunks in view first, then becomes the work; a view from above is whole', async () => {
    const { page, errors } = await openAppPage(app.browser, app.url);
    // 801 × 801 16-bit pixels (40 × 40 m at 0.05 m): more than 513² samples, so its chunks are made
    // as they come into view (heightmap_mesh.js), and the work is replaced after the first view.
    const png = greyPng(801, 801, (i, j) => Math.round(30000 + 12000 * Math.sin(i / 40) * Math.cos(j / 55)), { bits: 16 });
    await dropPng(page, png, 'large.png');
    await page.waitForFunction(() => window.__roverlab.heightmapChunks > 0 && window.__roverlab.viewCurrent, null, { timeout: 60_000 });
    const h = await page.evaluate(() => ({ ...window.__roverlab }));
    // 800 × 800 cells in chunks of 64: 13 × 13, drawn with far fewer triangles than the field's 1.28 M.
    expect(h.heightmapChunks).toBe(169);
    expect(h.drawnTriangles.triangles).toBeLessThan(200_000);
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.heightmaps?.[0]?.png?.startsWith('data:image/png;base64,'), null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.__roverlab.banner.text)).toMatch(/Imported large\.png as a 801 × 801 heightmap/);
    // From above (chunks not in the first view among them): the ground fills the picture.
    if (await page.evaluate(() => window.__roverlab.playing)) await page.click('#play');
    await page.click('[data-preset="top"]');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    const shot = await saveScreenshot(page, 'heightmap-large-top.png');
    const stats = await imageStats(page, shot, 0xdfe6ec);
    expect(stats.unlike, 'share of non-background pixels').toBeGreaterThan(0.5);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('the View panel colours a heightmap by slope or height at once, without rebuilding, for later terrains too', async () => {
    const { page, errors } = await openAppPage(app.browser, app.url);
    const colour = () => page.evaluate(() => window.__roverlab.heightmapColour);
    // The default scenario has no heightmap: the control is there, disabled.
    expect(await page.isDisabled('#terrain-colour')).toBe(true);
    await dropPng(page, featurePng(), 'features.png');
    await page.waitForFunction(() => window.__roverlab.heightmapChunks > 0 && !window.__roverlab.loading, null, { timeout: 60_000 });
    expect(await page.isDisabled('#terrain-colour')).toBe(false);
    if (await page.evaluate(() => window.__roverlab.playing)) await page.click('#play');  // a still scene for the pictures
    await page.click('#banner-actions button:last-child');  // Close the import's note
    const byHeight = await colour();
    expect(byHeight.mode).toBe('height');
    const loads = await page.evaluate(() => window.__roverlab.loadLog.length);
    const shoot = async (name) => {
      await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
      return saveScreenshot(page, name);
    };
    const heightShot = await shoot('heightmap-colour-height.png');

    await page.selectOption('#terrain-colour', 'slope');
    const bySlope = await colour();
    expect(bySlope.mode).toBe('slope');
    expect(bySlope.vertices).toBe(byHeight.vertices);  // the same meshes, coloured again
    const moved = Math.hypot(...bySlope.mean.map((v, k) => v - byHeight.mean[k]));
    expect(moved, 'mean vertex colour moved').toBeGreaterThan(0.02);
    // The plain is green, the plateau's sides (0.29 m over one 0.05 m pixel) red.
    expect(bySlope.redder).toBeGreaterThan(0.005);
    expect(bySlope.redder).toBeLessThan(0.2);
    const h = await page.evaluate(() => ({ loads: window.__roverlab.loadLog.length, chunks: window.__roverlab.heightmapChunks }));
    expect(h.loads, 'no scenario was built again').toBe(loads);
    expect(h.chunks).toBe(12);  // 239 × 159 cells in chunks of 64: 4 × 3
    const slopeShot = await shoot('heightmap-colour-slope.png');
    const [a, b] = [await imageStats(page, heightShot, 0xdfe6ec), await imageStats(page, slopeShot, 0xdfe6ec)];
    expect(Math.abs(a.mean - b.mean) + Math.abs(a.stddev - b.stddev), 'the pictures differ').toBeGreaterThan(1);

    // The setting holds for the next terrain with a heightmap; one without disables the control.
    await page.selectOption('#scenario', 'rough-field-rocker8');
    await page.waitForFunction(() => window.__roverlab.scenarioId === 'rough-field-rocker8' && window.__roverlab.heightmapChunks === 9, null, { timeout: 60_000 });
    expect((await colour()).mode).toBe('slope');
    await page.selectOption('#scenario', 'flat-rocker8');
    await page.waitForFunction(() => window.__roverlab.scenarioId === 'flat-rocker8' && window.__roverlab.heightmapChunks === 0, null, { timeout: 60_000 });
    expect(await page.isDisabled('#terrain-colour')).toBe(true);
    expect(await page.inputValue('#terrain-colour')).toBe('slope');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('the editor\'s heightmap form sets cell and height scale as one undo step, refuses bad input', async () => {
    const { page, errors } = await openAppPage(app.browser, app.url);
    await dropPng(page, featurePng(), 'features.png');
    await page.waitForFunction(() => window.__roverlab.heightmapChunks > 0 && !window.__roverlab.loading, null, { timeout: 60_000 });
    await page.click('#tab-edit');
    await page.waitForSelector('#heightmap-fields:not([hidden])');
    const fields = () =>
      page.evaluate(() => {
        const { doc } = window.__roverlab;
        const f = doc.scenario.terrain.heightmaps[0];
        return { origin: f.origin, cell: f.cell, heightScale: f.height_scale, robot: doc.scenario.robot.pose.position, undo: doc.undoStack.length };
      });
    const before = await fields();
    expect(before.cell).toBe(0.05);
    expect(before.heightScale).toBeCloseTo(0.5 / 255, 12);
    expect(await page.inputValue('#hm-cell')).toBe('0.05');
    expect(await page.inputValue('#hm-height')).toBe('0.5');
    expect(await page.inputValue('#hm-origin')).toBe(before.origin.map((v) => String(Number(v.toPrecision(6)))).join(' '));

    // Bad input: a precise message at the field, nothing built, the app goes on.
    await page.fill('#hm-cell', '0');
    await page.click('#hm-apply');
    expect(await page.textContent('#hm-message')).toBe('cell: must be in [0.001, 1000] m; got 0');
    expect(await page.getAttribute('#hm-cell', 'class')).toMatch(/\bbad\b/);
    await page.fill('#hm-cell', 'abc');
    await page.click('#hm-apply');
    expect(await page.textContent('#hm-message')).toMatch(/^cell: type the cell size in metres/);
    await page.fill('#hm-height', 'NaN');
    await page.fill('#hm-cell', '0.1');
    await page.click('#hm-apply');
    expect(await page.textContent('#hm-message')).toMatch(/^white above black: type one number of metres/);
    expect(await fields()).toEqual(before);

    // cell 0.05 → 0.1 m, white 0.5 → 1.2 m above black: one undo step, the robot over the same pixel.
    const loads = await page.evaluate(() => window.__roverlab.loadLog.length);
    await page.fill('#hm-height', '1.2');
    await page.click('#hm-apply');
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.heightmaps[0].cell === 0.1, null, { timeout: 60_000 });
    const after = await fields();
    expect(await page.textContent('#hm-message')).toBe('');
    expect(after.origin).toEqual(before.origin);
    expect(after.heightScale).toBeCloseTo(1.2 / 255, 12);
    expect(after.undo).toBe(before.undo + 1);
    const pixel = (f) => [(f.robot[0] - f.origin[0]) / f.cell, (f.robot[1] - f.origin[1]) / f.cell];
    expect(pixel(after)[0]).toBeCloseTo(pixel(before)[0], 6);
    expect(pixel(after)[1]).toBeCloseTo(pixel(before)[1], 6);
    // Built in the worker once and running: the robot on the field twice the size, above its 0.09 m plain.
    await page.waitForFunction((n) => window.__roverlab.loadLog.length > n && !window.__roverlab.loading && window.__roverlab.ready, loads, { timeout: 60_000 });
    const run = await page.evaluate(() => ({ log: window.__roverlab.loadLog.at(-1), issues: window.__roverlab.issues, base: window.__roverlab.startBase }));
    expect(run.log.built).toBe(true);
    expect(run.issues).toEqual([]);
    expect(await page.inputValue('#hm-cell')).toBe('0.1');
    expect(await page.inputValue('#hm-height')).toBe('1.2');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'heightmap-fields.png');

    // Undo brings the previous values back, in the document and the form.
    await page.click('#editor-undo');
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.heightmaps[0].cell === 0.05, null, { timeout: 30_000 });
    expect(await fields()).toEqual(before);
    expect(await page.inputValue('#hm-cell')).toBe('0.05');
    expect(await page.inputValue('#hm-height')).toBe('0.5');
    // A height the core refuses (heights beyond 1e5 m) is refused on the page, with the bound.
    await page.fill('#hm-height', '2e5');
    await page.click('#hm-apply');
    expect(await page.textContent('#hm-message')).toBe('white above black: 200000 makes heights up to 200000 m; they must lie in [-1e5, 1e5] m');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
