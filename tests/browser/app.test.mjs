// The web app in headless Chromium (Debian's, driven by playwright-core): served
// by the Vite dev server (what `npm start` runs) and as a production build
// (`vite build` + `vite preview`). Each must load the default scenario without
// console errors, play it (the robot drives forward), and give a canvas that is
// not blank. Screenshots go to test-results/app.png (dev) and app-build.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, createServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const configFile = path.join(root, 'web/vite.config.js');
const resultsDir = path.join(root, 'test-results');

const CHROMIUM = process.env.ROVERLAB_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
];

/** A free TCP port on localhost. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, 'localhost', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Mean and spread of the screenshot's luminance, and the share of pixels unlike the background. */
async function imageStats(page, png, background) {
  return page.evaluate(
    async ({ base64, background }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const bg = [(background >> 16) & 255, (background >> 8) & 255, background & 255];
      let sum = 0;
      let sumSquares = 0;
      let unlike = 0;
      const n = data.length / 4;
      for (let i = 0; i < data.length; i += 4) {
        const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
        sum += y;
        sumSquares += y * y;
        const diff = Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]);
        if (diff > 30) unlike++;
      }
      const mean = sum / n;
      return { mean, stddev: Math.sqrt(Math.max(0, sumSquares / n - mean * mean)), unlike: unlike / n };
    },
    { base64: png.toString('base64'), background },
  );
}

/** Loads the app at `url`, checks the default scenario plays, saves a screenshot as `name`. */
async function checkApp(url, name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request: ${request.url()} ${request.failure()?.errorText}`));
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__roverlab?.ready || window.__roverlab?.error, null, {
      timeout: 60_000,
    });
    const state = await page.evaluate(() => window.__roverlab);
    expect(state.error).toBeNull();
    expect(state.ready).toBe(true);
    expect(state.preset).toBe('articulated6');
    // The default scenario plays: after 3 s of simulated time the robot has driven forward.
    const x0 = state.base[0];
    await page.waitForFunction(() => window.__roverlab.time >= 3, null, { timeout: 60_000 });
    const later = await page.evaluate(() => window.__roverlab);
    expect(later.base[0] - x0, 'distance driven in 3 s (m)').toBeGreaterThan(0.5);
    // Let a few more frames render (orbit damping settles), then capture.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
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
    const port = await freePort();
    const server = await createServer({
      configFile,
      logLevel: 'warn',
      server: { host: 'localhost', port, strictPort: true },
    });
    try {
      await server.listen();
      await checkApp(server.resolvedUrls.local[0], 'app.png');
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
