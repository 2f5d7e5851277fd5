// Heightmaps in the app: a generated rough field opens by its address, is
// drawn as a few chunk meshes (not a mesh per cell), and the rover drives on
// it, seen above the ground.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { imageStats, launchBrowser, openAppPage, resultsDir, startDevServer } from './support.mjs';

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
});
