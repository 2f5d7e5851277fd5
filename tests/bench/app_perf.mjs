// Browser performance of the app, measured in Debian's headless Chromium
// (software WebGL: SwiftShader) on this machine, written to
// docs/benchmarks/app.json:
//   - time from navigation to the first rendered frame of the default scenario,
//   - the real-time factor sustained with rendering on, for articulated6 at the
//     0.65 m step, and the simulation's share of each frame,
//   - frames per second, and the size of the WASM core (raw and gzipped),
//   - a share link of 9 000 boxes opened on the running page: the time from the
//     address change to the built scenario's answer, and the worker's build.
// Command: node tests/bench/app_perf.mjs   (builds nothing: run `npm run build:wasm` first)
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { encodeShare } from '../../web/src/share/share_link.js';
import { launchBrowser, root, startDevServer } from '../browser/support.mjs';

const SECONDS = 20;
const wasm = readFileSync(path.join(root, 'web/src/wasm/roverlab_core.wasm'));
const glue = readFileSync(path.join(root, 'web/src/wasm/roverlab_core.js'));
const loadBefore = os.loadavg();
const browser = await launchBrowser();
const { server, url } = await startDevServer();
// The 9 000-box link of tests/browser/large_scenarios.test.mjs: 0.3 × 0.3 × 0.2 m boxes, 0.2 m
// apart, in a 90 × 100 grid beyond flat-rocker8's ground slab.
const flat = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
const boxes = Array.from({ length: 9000 }, (_, k) => ({ centre: [14 + Math.floor(k / 100) * 0.5, -25 + (k % 100) * 0.5, 0.1], size: [0.3, 0.3, 0.2] }));
const gridLink = await encodeShare({
  scenario: { ...flat, name: '9 000 boxes', terrain: { boxes: [{ centre: [5, 0, -0.5], size: [14, 6, 1] }, ...boxes] } },
});
const runs = [];
try {
  for (let run = 0; run < 3; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const start = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__roverlab?.ready, null, { timeout: 60_000 });
    const firstFrameMs = Date.now() - start;
    // Sustained: after the frame-rate check has settled the quality (3 s), measure SECONDS of wall time.
    await page.waitForTimeout(4000);
    const r = await page.evaluate(async (seconds) => {
      const s = window.__roverlab;
      const t0 = performance.now();
      const sim0 = s.time;
      let frames = 0;
      let stepMs = 0;
      await new Promise((resolve) => {
        const tick = () => {
          frames++;
          stepMs += window.__roverlab.stepMs ?? 0;
          if (performance.now() - t0 < seconds * 1000) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      const wall = (performance.now() - t0) / 1000;
      return {
        realTimeFactor: (window.__roverlab.time - sim0) / wall,
        framesPerSecond: frames / wall,
        simulationShareOfFrame: stepMs / frames / ((wall * 1000) / frames),
        shadows: document.getElementById('shadows').checked,
        simulatedSeconds: window.__roverlab.time - sim0,
      };
    }, SECONDS);
    // Speed "max": the worker steps between frames; what share of the core's own speed the page gets.
    await page.selectOption('#speed', 'Infinity');
    await page.waitForTimeout(2000);
    const max = await page.evaluate(async (seconds) => {
      const t0 = performance.now();
      const sim0 = window.__roverlab.time;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      const wall = (performance.now() - t0) / 1000;
      const rtf = (window.__roverlab.time - sim0) / wall;
      const dt = 4e-4;  // the scenario's time step (s)
      const core = Number(document.getElementById('rate').textContent.match(/core ([\d,]+)/)[1].replaceAll(',', ''));
      return { maxRealTimeFactor: rtf, maxStepsPerSecond: rtf / dt, maxShareOfCore: rtf / dt / core, maxFramesPerSecond: window.__roverlab.fps };
    }, SECONDS / 2);
    // The 9 000-box link, opened on this page (its worker warmed up by the run).
    await page.selectOption('#speed', '1');
    const kept = await page.evaluate(() => window.__roverlab.loadLog.filter((l) => l.keep).length);
    const openedAt = await page.evaluate((fragment) => {
      location.hash = fragment;
      return performance.now();
    }, gridLink);
    await page.waitForFunction((n) => window.__roverlab.loadLog.filter((l) => l.keep).length > n, kept, { timeout: 60_000 });
    const link = await page.evaluate(() => window.__roverlab.loadLog.filter((l) => l.keep).at(-1));
    if (!link.built) throw new Error('the 9 000-box link was not built');
    const linkOpenMs = link.sentAt + link.ms - openedAt;
    runs.push({ firstFrameMs, ...r, ...max, linkOpenMs, linkBuildMs: link.buildMs });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
const chromium = execSync('/usr/bin/chromium --version 2>/dev/null').toString().trim();
const result = {
  date: new Date().toISOString(),
  command: 'node tests/bench/app_perf.mjs',
  browser: `${chromium}, headless, software WebGL (SwiftShader), 1280×800`,
  scenario: 'terrains/climb-articulated6.json (the default: articulated6 climbs the 0.65 m step), speed 1×, then max',
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load_average_before: loadBefore, load_average_after: os.loadavg() },
  wasm_bytes: wasm.length,
  wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length,
  js_glue_gzip_bytes: gzipSync(glue, { level: 9 }).length,
  median: {
    first_frame_ms: median('firstFrameMs'),
    real_time_factor: median('realTimeFactor'),
    frames_per_second: median('framesPerSecond'),
    simulation_share_of_frame: median('simulationShareOfFrame'),
    max_real_time_factor: median('maxRealTimeFactor'),
    max_steps_per_second: median('maxStepsPerSecond'),
    max_share_of_core: median('maxShareOfCore'),
    link_9000_boxes_open_ms: median('linkOpenMs'),
    link_9000_boxes_build_ms: median('linkBuildMs'),
  },
  runs,
  notes:
    'first_frame_ms: navigation to the first frame drawn, on the Vite dev server (localhost). ' +
    'simulation_share_of_frame: time spent stepping per frame over the frame interval. ' +
    'max_*: at speed max over 10 s (the worker steps between frames); max_share_of_core: steps taken per second over the core\'s own speed while it steps, as the page shows it. ' +
    'The page turns shadows off by itself below 20 frames/s, as it does here with software WebGL. ' +
    'link_9000_boxes_*: a share link of 9 000 boxes opened on the running page: from the address change to the answer with the built scenario (open), and the World build in the worker (build).',
};
writeFileSync(path.join(root, 'docs/benchmarks/app.json'), JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result.median));
