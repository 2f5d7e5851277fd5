// The web app in headless Chromium (Debian's, driven by playwright-core): served
// by the Vite dev server (what `npm start` runs) and as a production build
// (`vite build` + `vite preview`). Each must load the default scenario without
// console errors, play it (the robot drives forward), and give a canvas that is
// not blank. Screenshots go to test-results/app.png (dev) and app-build.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { collectErrors, configFile, freePort, imageStats, launchBrowser, resultsDir, startDevServer } from './support.mjs';


let browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Loads the app at `url`, checks the default scenario plays, saves a screenshot as `name`. */
async function checkApp(url, name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = collectErrors(page);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__roverlab?.ready || window.__roverlab?.error, null, {
      timeout: 60_000,
    });
    const state = await page.evaluate(() => window.__roverlab);
    expect(state.error).toBeNull();
    expect(state.ready).toBe(true);
    expect(state.preset).toBe('articulated6');
    // The default scenario (the step climb) plays: after 3 s of simulated time the
    // controller has driven the robot towards the step (0.6 m natively; it slows
    // down as the front wheels reach the face).
    const x0 = state.startBase[0];  // where the run started (t = 0), whatever time the page shows first
    await page.waitForFunction(() => window.__roverlab.time >= 3, null, { timeout: 60_000 });
    const later = await page.evaluate(() => window.__roverlab);
    expect(later.base[0] - x0, 'distance driven in 3 s (m)').toBeGreaterThan(0.4);
    // The camera at rest (orbit damping settled) and the canvas drawn since its last change
    // (the frame-rate watch may have just turned shadows off and resized it), then capture.
    await page.waitForFunction(() => window.__roverlab.cameraSettled && window.__roverlab.viewCurrent, null, { timeout: 60_000 });
    const png = await page.screenshot();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, name), png);

    const stats = await imageStats(page, png, 0xdfe6ec);
    expect(stats.stddev, `screenshot luminance spread (${name})`).toBeGreaterThan(10);
    expect(stats.unlike, `share of non-background pixels (${name})`).toBeGreaterThan(0.1);
    expect(errors).toEqual([]);
    return stats;
  } finally {
    await page.close();
  }
}

describe('web app', () => {
  test('dev server (npm start) plays the default scenario', async () => {
    const { server, url } = await startDevServer();
    try {
      await checkApp(url, 'app.png');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('production build plays the default scenario', async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'roverlab-dist-'));
    try {
      await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
      const port = await freePort();
      const server = await preview({
        configFile,
        logLevel: 'warn',
        build: { outDir },
        preview: { host: 'localhost', port, strictPort: true },
      });
      try {
        await checkApp(server.resolvedUrls.local[0], 'app-build.png');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});
