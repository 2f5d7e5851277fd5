// The README's picture of the app: starts the Vite dev server and Debian's
// Chromium as the browser tests do (tests/browser/support.mjs), opens the app
// at 1280×800 on its default scenario, waits until the robot has driven for a
// few seconds of simulated time, and saves the page as docs/images/app.png
// (or docs/images/app.jpg, JPEG quality 85, when the PNG is over MAX_BYTES).
//
//   node scripts/readme_screenshot.mjs [--time=S]     (S: simulated seconds to wait for, default 3.5)
//
// Needs node_modules and the WASM core (npm run build:wasm). The functions handed to
// the page read its window.__roverlab (web/src/app/test_hooks.js) as globalThis.__roverlab.
import console from 'node:console';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { collectErrors, launchBrowser, root, startDevServer } from '../tests/browser/support.mjs';

const MAX_BYTES = 400 * 1024;
const arg = process.argv.find((a) => a.startsWith('--time='));
const time = arg ? Number(arg.slice('--time='.length)) : 3.5;
if (!(time > 0)) throw new Error(`--time must be a positive number of seconds, got ${arg}`);

const wasm = path.join(root, 'web/src/wasm/roverlab_core.wasm');
if (!existsSync(wasm)) throw new Error(`${wasm} is missing: build it with \`npm run build:wasm\``);

const outDir = path.join(root, 'docs/images');
const browser = await launchBrowser();
const { server, url } = await startDevServer();
try {
  // As support.mjs's openAppPage, with more patience: the first load compiles the core.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = collectErrors(page);
  await page.goto(url, { waitUntil: 'load', timeout: 300_000 });
  await page.waitForFunction(() => globalThis.__roverlab?.ready && globalThis.__roverlab?.editorReady, null, { timeout: 300_000 });
  // The robot on the move, a few seconds into its run; the plots have something to draw.
  await page.waitForFunction((t) => globalThis.__roverlab.time > t, time, { timeout: 300_000 });
  // Pause so that the picture is of one instant, then let the view and the plots catch up.
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !globalThis.__roverlab.playing && globalThis.__roverlab.viewCurrent, null, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  if (errors.length) throw new Error(`the page reported errors:\n${errors.join('\n')}`);

  mkdirSync(outDir, { recursive: true });
  const png = await page.screenshot({ type: 'png' });
  const pngPath = path.join(outDir, 'app.png');
  const jpgPath = path.join(outDir, 'app.jpg');
  if (png.length <= MAX_BYTES) {
    writeFileSync(pngPath, png);
    rmSync(jpgPath, { force: true });
    console.log(`${path.relative(root, pngPath)}: ${png.length} bytes, t = ${await page.evaluate(() => globalThis.__roverlab.time)} s`);
  } else {
    const jpg = await page.screenshot({ type: 'jpeg', quality: 85 });
    writeFileSync(jpgPath, jpg);
    rmSync(pngPath, { force: true });
    console.log(`${path.relative(root, jpgPath)}: ${jpg.length} bytes (the PNG would be ${png.length})`);
  }
} finally {
  await browser.close();
  await server.close();
}
