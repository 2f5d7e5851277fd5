// Heightmaps in the app: a generated rough field opens by its address, is
// drawn as a few chunk meshes (not a mesh per cell), and the rover drives on
// it, seen above the ground.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { imageStats, launchBrowser, openAppPage, resultsDir, startDevServer } from './support.mjs';

/** An 8-bit grey PNG of w × h pixels, value(i, j) per pixel (row 0 the top). */
function greyPng(w, h, value) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = 8;  // bits per sample, grey (colour type 0), the rest 0
  const raw = Buffer.alloc(h * (w + 1));
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) raw[j * (w + 1) + 1 + i] = value(i, j);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

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

describe('heightmaps', () => {
  test('the rough field is drawn in chunks and the rover drives on it', async () => {
    const { page, errors } = await openAppPage(browser, `${url}?scenario=rough-field-rocker8`);
    const hooks = () => page.evaluate(() => ({ ...window.__roverlab }));
    let h = await hooks();
    expect(h.scenarioId).toBe('rough-field-rocker8');
    expect(h.issues ?? []).toEqual([]);
    // 160 × 160 cells in chunks of 128 × 128: 4 meshes.
    expect(h.heightmapChunks).toBe(4);
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 2, null, { timeout: 60_000 });
    h = await hooks();
    // Driven forwards at about 0.5 m/s, the base well above the ±6 cm field.
    expect(h.base[0] - h.startBase[0]).toBeGreaterThan(0.5);
    expect(h.base[2]).toBeGreaterThan(0.2);
    expect(h.outcome ?? 'ok').not.toMatch(/left_terrain|blew_up/);
    await page.click('#play');  // pause, so the picture is of a still scene
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    const png = await page.screenshot();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'heightmap-rough-field.png'), png);
    const stats = await imageStats(page, png, 0xdfe6ec);
    expect(stats.unlike, 'share of non-background pixels').toBeGreaterThan(0.3);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test('a grey PNG dropped on the view becomes the terrain and the robot drives on it', async () => {
    const { page, errors } = await openAppPage(browser, url);
    // 200 × 120 pixels (10 × 6 m at 0.05 m): gentle waves, 0.5 m from black to white.
    const png = greyPng(200, 120, (i, j) => Math.round(60 + 40 * Math.sin(i / 9) * Math.cos(j / 11)));
    await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'waves.png', { type: 'image/png' }));
      const view = document.getElementById('view');
      view.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      view.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, png.toString('base64'));
    await page.waitForFunction(() => window.__roverlab.heightmapChunks > 0, null, { timeout: 60_000 });
    const h = await page.evaluate(() => ({ ...window.__roverlab }));
    expect(h.banner.text).toMatch(/Imported waves\.png as a 200 × 120 heightmap/);
    const field = h.doc.scenario.terrain.heightmaps[0];
    expect(field.png.startsWith('data:image/png;base64,')).toBe(true);
    expect(field.cell).toBe(0.05);
    // 199 × 119 cells in chunks of 128: 2 × 1 meshes.
    expect(h.heightmapChunks).toBe(2);
    if (!h.playing) await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 1.5, null, { timeout: 60_000 });
    const later = await page.evaluate(() => ({ ...window.__roverlab }));
    // Above the field (grey 20–100 of 255 at 0.5 m per 255: 0.04–0.20 m high), not through it, and moving.
    expect(later.base[2]).toBeGreaterThan(0.2);
    expect(Math.abs(later.base[0] - later.startBase[0])).toBeGreaterThan(0.05);
    await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    const shot = await page.screenshot();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'heightmap-dropped.png'), shot);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
