// Shared by the browser tests: Debian's Chromium through playwright-core, a
// free port, the Vite dev server on it, screenshot statistics, and grey PNG
// images to import as heightmaps, screenshots saved to test-results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const configFile = path.join(root, 'web/vite.config.js');
export const resultsDir = path.join(root, 'test-results');

export const CHROMIUM = process.env.ROVERLAB_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
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
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, 'localhost', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Mean and spread of the screenshot's luminance, and the share of pixels unlike the background. */
export async function imageStats(page, png, background) {
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

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The Vite dev server (what `npm start` runs) on a free port; returns { server, url }. */
export async function startDevServer() {
  const port = await freePort();
  // No file watching and no hot reload: a test's page is never reloaded by a file changed under it.
  const server = await createServer({
    configFile,
    logLevel: 'warn',
    server: { host: 'localhost', port, strictPort: true, hmr: false, watch: null },
  });
  await server.listen();
  return { server, url: server.resolvedUrls.local[0] };
}

/** Collects console errors, page errors and failed requests of a page. */
export function collectErrors(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request: ${request.url()} ${request.failure()?.errorText}`));
  return errors;
}

/** A new page at `url` (1280×800 unless told; `pageOptions` as Playwright's newPage takes them), once the app
 * shows a run and its editor is ready; returns { page, errors }. */
export async function openAppPage(browser, url, { viewport = { width: 1280, height: 800 }, ...pageOptions } = {}) {
  const page = await browser.newPage({ viewport, ...pageOptions });
  const errors = collectErrors(page);
  await page.goto(url, { waitUntil: 'load', timeout: 90_000 });
  await page.waitForFunction(() => window.__roverlab?.ready && window.__roverlab?.editorReady, null, { timeout: 90_000 });
  return { page, errors };
}

/** Chromium, the dev server and a page with the app ready: { browser, server, url, page, errors }. */
export async function startApp(options) {
  const browser = await launchBrowser();
  const { server, url } = await startDevServer();
  return { browser, server, url, ...(await openAppPage(browser, url, options)) };
}

/** Chromium and the dev server for one test file, started before its tests and closed after
 * them: returns { browser, server, url }, filled in once started. */
export function serveApp() {
  const app = {};
  beforeAll(async () => {
    app.browser = await launchBrowser();
    Object.assign(app, await startDevServer());
  }, 120_000);
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}

/** serveApp, and one page (1280×800, downloads accepted) with the app ready, shared by the
 * file's tests: returns { browser, server, url, page, errors }, filled in once ready. */
export function serveAppPage() {
  const app = serveApp();
  beforeAll(async () => Object.assign(app, await openAppPage(app.browser, app.url, { acceptDownloads: true })), 120_000);
  return app;
}

export { greyPng } from '../support/grey_png.mjs';

/** Saves a screenshot of `page` as test-results/`name` (to be looked at); resolves with its PNG bytes. */
export async function saveScreenshot(page, name) {
  const png = await page.screenshot();
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, name), png);
  return png;
}
