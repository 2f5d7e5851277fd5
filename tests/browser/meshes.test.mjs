// Mesh terrains in the app: the rubble patch (an OBJ mesh) opens by its
// address, is drawn with its triangles in the terrain's one mesh, and the
// articulated robot drives over it, seen above the ground; an OBJ file from a
// y-up tool dropped on the view becomes the terrain, standing the right way;
// a folded one is refused at its triangle and the work is kept; the editor's
// mesh form places a loaded OBJ file (offset, scale, yaw, up) in the built
// model, one undo step.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

import { rubblePatchObj } from '../../scripts/rubble_patch.mjs';
import { imageStats, openAppPage, saveScreenshot, serveApp } from './support.mjs';

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

/** A plane at 45° as an OBJ file: vertices (x, t, −t), x in [0, 6], t in [0, 2] (0.5 and 0.25 m apart).
 * Read z up, it falls 2 m across +y; read y up, it rises 2 m across its ground y (the file's −z). */
function diagonalObj() {
  const lines = [];
  const [nx, nt] = [13, 9];
  for (let j = 0; j < nt; j++) for (let i = 0; i < nx; i++) lines.push(`v ${i * 0.5} ${j * 0.25} ${-j * 0.25}`);
  for (let j = 0; j + 1 < nt; j++)
    for (let i = 0; i + 1 < nx; i++) {
      const a = j * nx + i + 1;
      lines.push(`f ${a} ${a + 1} ${a + nx + 1}`, `f ${a} ${a + nx + 1} ${a + nx}`);
    }
  return `${lines.join('\n')}\n`;
}

/** The built terrain's bounds are x, y in [lo, hi] and its top at z = top (within 1e-6 m). */
function expectBox(box, [x0, y0], [x1, y1], top) {
  expect(box.min[0]).toBeCloseTo(x0, 6);
  expect(box.min[1]).toBeCloseTo(y0, 6);
  expect(box.max[0]).toBeCloseTo(x1, 6);
  expect(box.max[1]).toBeCloseTo(y1, 6);
  expect(box.max[2]).toBeCloseTo(top, 6);
}

/** A z-up OBJ text turned y-up, as modelling tools write it: (x, y, z) → (x, z, −y). */
const yUp = (obj) => obj.replace(/^v (\S+) (\S+) (\S+)$/gm, (_, x, y, z) => `v ${x} ${z} ${-Number(y) + 0}`);

const app = serveApp();

describe('mesh terrains', () => {
  test('the rubble patch is drawn and the articulated robot drives over it', async () => {
    const { page, errors } = await openAppPage(app.browser, `${app.url}?scenario=rubble-articulated6`);
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
    const { page, errors } = await openAppPage(app.browser, app.url);
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

  test("the editor's mesh form places a loaded OBJ file by offset, scale, yaw and up, one undo step; bad input is refused", async () => {
    const { page, errors } = await openAppPage(app.browser, app.url);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'roverlab-mesh-')), 'diagonal.obj');
    writeFileSync(file, diagonalObj());
    await page.click('#tab-edit');
    await page.setInputFiles('#editor-file', file);
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.meshes && !window.__roverlab.loading, null, { timeout: 60_000 });
    await page.waitForSelector('#mesh-fields:not([hidden])');
    const hooks = () => page.evaluate(() => ({ ...window.__roverlab, doc: undefined, scenario: window.__roverlab.doc.scenario }));
    let h = await hooks();
    const imported = h.scenario;
    const mesh = imported.terrain.meshes[0];
    // The y and z extents are equal: taken z up, as the import places it (no scale, no yaw).
    expect(mesh.up).toBe('z');
    expect(mesh.scale ?? 1).toBe(1);
    expect(mesh.yaw ?? 0).toBe(0);
    const [ox, oy, oz] = mesh.offset;
    expect(await page.inputValue('#mesh-offset')).toBe(mesh.offset.map((v) => String(Number(v.toPrecision(6)))).join(' '));
    expect(await page.inputValue('#mesh-scale')).toBe('1');
    expect(await page.inputValue('#mesh-yaw')).toBe('0');
    expect(await page.inputValue('#mesh-up')).toBe('z');
    // The built model's terrain: x in [0, 6], y in [0, 2], its top edge (t = 0) at z = 0, all moved by the offset.
    const importedBox = h.terrainBox;
    expectBox(importedBox, [ox, oy], [ox + 6, oy + 2], oz);
    const undoSteps = await page.evaluate(() => window.__roverlab.doc.undoStack.length);

    // Refused on the page, at its field: nothing built, nothing changed.
    const loads = h.loadLog.length;
    await page.fill('#mesh-scale', '0');
    await page.click('#mesh-apply');
    expect(await page.textContent('#mesh-message')).toBe('scale: must be in [0.000001, 1000000] m per file unit; got 0');
    expect(await page.getAttribute('#mesh-scale', 'class')).toMatch(/\bbad\b/);
    await page.fill('#mesh-scale', '1');
    await page.fill('#mesh-yaw', 'ninety');
    await page.press('#mesh-yaw', 'Enter');
    expect(await page.textContent('#mesh-message')).toBe('yaw: type one angle in degrees, as "90"; got "ninety"');
    h = await hooks();
    expect(h.scenario).toEqual(imported);
    expect(h.loadLog.length).toBe(loads);

    // Offset (2, 1, 0.5) m, twice the size, turned 90°, read y up: a file vertex (x, t, −t) is
    // (x, t) on the ground and t high, doubled, turned to (−2t, 2x), moved: x = 2 − 2t in [−2, 2],
    // y = 1 + 2x in [1, 13], z = 0.5 + 2t up to 4.5 m.
    await page.fill('#mesh-offset', '2 1 0.5');
    await page.fill('#mesh-scale', '2');
    await page.fill('#mesh-yaw', '90');
    await page.selectOption('#mesh-up', 'y');
    await page.click('#mesh-apply');
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.meshes[0].up === 'y' && !window.__roverlab.loading, null, { timeout: 60_000 });
    h = await hooks();
    expect(await page.textContent('#mesh-message')).toBe('');
    expect(h.loadLog.at(-1).built).toBe(true);
    expect(h.issues).toEqual([]);
    const placed = h.scenario.terrain.meshes[0];
    expect(placed).toEqual({ ...mesh, offset: [2, 1, 0.5], scale: 2, yaw: Math.PI / 2, up: 'y' });
    expectBox(h.terrainBox, [-2, 1], [2, 13], 4.5);
    // Another up axis, another ground plane: the robot is put 1 m inside the mesh's west end, half-way across.
    expect(h.scenario.robot.pose.position).toEqual([-1, 7]);
    expect(await page.evaluate(() => window.__roverlab.doc.undoStack.length)).toBe(undoSteps + 1);
    expect(await page.inputValue('#mesh-offset')).toBe('2 1 0.5');
    expect(await page.inputValue('#mesh-scale')).toBe('2');
    expect(await page.inputValue('#mesh-yaw')).toBe('90');
    expect(await page.inputValue('#mesh-up')).toBe('y');
    if (h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'mesh-placed.png');

    // Undo: the import's placement, in the document, the form and the rebuilt model.
    await page.click('#editor-undo');
    await page.waitForFunction(() => window.__roverlab.doc.scenario.terrain.meshes[0].up === 'z' && !window.__roverlab.loading, null, { timeout: 60_000 });
    await page.waitForFunction((top) => Math.abs(window.__roverlab.terrainBox.max[2] - top) < 1e-6, oz, { timeout: 60_000 });
    h = await hooks();
    expect(h.scenario).toEqual(imported);
    expectBox(h.terrainBox, [ox, oy], [ox + 6, oy + 2], oz);
    expect(await page.inputValue('#mesh-scale')).toBe('1');
    expect(await page.inputValue('#mesh-up')).toBe('z');

    // Moved 1 m along x alone: the robot moves with it, over the same point of the mesh.
    const [rx, ry] = imported.robot.pose.position;
    await page.fill('#mesh-offset', `${ox + 1} ${oy} ${oz}`);
    await page.press('#mesh-offset', 'Enter');
    await page.waitForFunction((x) => window.__roverlab.doc.scenario.terrain.meshes[0].offset[0] === x && !window.__roverlab.loading, Math.round((ox + 1) * 1e9) / 1e9, { timeout: 60_000 });
    h = await hooks();
    expectBox(h.terrainBox, [ox + 1, oy], [ox + 7, oy + 2], oz);
    expect(h.scenario.robot.pose.position[0]).toBeCloseTo(rx + 1, 9);
    expect(h.scenario.robot.pose.position[1]).toBeCloseTo(ry, 9);
    if (h.playing) await page.click('#play');
    await page.click('[data-preset="top"]');  // the placement seen from above
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'mesh-moved.png');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
