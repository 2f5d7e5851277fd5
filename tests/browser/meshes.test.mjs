// Mesh terrains in the app: the rubble patch (an OBJ mesh) opens by its
// address, is drawn with its triangles in the terrain's one mesh, and the
// articulated robot drives over it, seen above the ground; an OBJ file from a
// y-up tool dropped on the view becomes the terrain, standing the right way;
// a folded one is refused at its triangle and the work is kept.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { rubblePatchObj } from '../../scripts/rubble_patch.mjs';
import { imageStats, launchBrowser, openAppPage, saveScreenshot, startDevServer } from './support.mjs';

/** Drops `text` on the 3-D view as the file `name`, as a person dragging it there. */
async function dropText(page, text, name) {
  await page.evaluate(
    ({ text, name }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'model/obj' }));
      const view = document.getElementById('view');
      view.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      view.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { text, name },
  );
}

/** A z-up OBJ text turned y-up, as modelling tools write it: (x, y, z) → (x, z, −y). */
const yUp = (obj) => obj.replace(/^v (\S+) (\S+) (\S+)$/gm, (_, x, y, z) => `v ${x} ${z} ${-Number(y) + 0}`);

let browser;
let server;
let url;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ server, url } = await startDevServer());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('mesh terrains', () => {
  test('the rubble patch is drawn and the articulated robot drives over it', async () => {
    const { page, errors } = await openAppPage(browser, `${url}?scenario=rubble-articulated6`);
    const hooks = () => page.evaluate(() => ({ ...window.__roverlab }));
    let h = await hooks();
    expect(h.scenarioId).toBe('rubble-articulated6');
    expect(h.issues ?? []).toEqual([]);
    // 125 × 50 cells of two triangles, plus the walls of its outline (2 per edge).
    expect(h.terrainTriangles).toBe(12_500 + 2 * 2 * (125 + 50));
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 3, null, { timeout: 90_000 });
    h = await hooks();
    // Driven forwards into the stones (about 0.5 m/s), the base above the ground.
    expect(h.base[0] - h.startBase[0]).toBeGreaterThan(0.8);
    expect(h.base[2]).toBeGreaterThan(0.15);
    expect(h.outcome ?? 'ok').not.toMatch(/left_terrain|blew_up/);
    await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    const png = await saveScreenshot(page, 'mesh-rubble.png');
    const stats = await imageStats(page, png, 0xdfe6ec);
    expect(stats.unlike, 'share of non-background pixels').toBeGreaterThan(0.3);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  test('an OBJ file dropped on the view becomes the terrain, y-up files standing the right way', async () => {
    const { page, errors } = await openAppPage(browser, url);
    // 3 × 2 m of 0.1 m cells, 8 stones up to 0.12 m: 1 200 triangles.
    const obj = yUp(rubblePatchObj({ length: 3, width: 2, cell: 0.1, stones: 8, height: 0.12, clear: 1.2, seed: 3 }));
    await dropText(page, obj, 'patch.obj');
    await page.waitForFunction(() => window.__roverlab.doc?.scenario?.terrain?.meshes && !window.__roverlab.loading, null, { timeout: 60_000 });
    const h = await page.evaluate(() => ({ ...window.__roverlab }));
    expect(h.banner.text).toMatch(/Imported patch\.obj as a mesh of 651 vertices, y up/);
    const mesh = h.doc.scenario.terrain.meshes[0];
    expect(mesh.up).toBe('y');
    expect(mesh.obj).toBe(obj);
    expect(h.terrainTriangles).toBeGreaterThanOrEqual(1200);
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 1.5, null, { timeout: 60_000 });
    const later = await page.evaluate(() => ({ ...window.__roverlab }));
    // Standing on the patch (its ground at z ≈ 0), not under it, and moving.
    expect(later.base[2]).toBeGreaterThan(0.1);
    expect(Math.abs(later.base[0] - later.startBase[0])).toBeGreaterThan(0.05);
    await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'mesh-dropped.png');

    // A folded mesh is refused at its triangle; the imported terrain stays.
    await dropText(page, 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.2 0.2 0.3\nf 1 2 3\nf 1 3 4\nf 2 3 5\n', 'folded.obj');
    await page.waitForFunction(() => /folded\.obj was not imported/.test(window.__roverlab.banner?.text ?? ''), null, { timeout: 30_000 });
    const refused = await page.evaluate(() => ({ ...window.__roverlab }));
    expect(refused.banner.text).toMatch(/terrain\.meshes\[0\]\.obj: triangle 2 overlaps triangle 0 in plan/);
    expect(refused.doc.scenario.terrain.meshes[0].obj).toBe(obj);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
