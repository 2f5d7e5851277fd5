// The app's first frame, measured on the production build (`dist/`, what
// `npm run build` makes) in Debian's headless Chromium (software WebGL:
// SwiftShader, 1280×800) on this machine, written to
// docs/benchmarks/first_frame.json:
//   - navigation to the first frame with the robot drawn: the app marks the
//     end of its first draw of the view with a built scenario's robot on the
//     stage (window.__roverlab.firstFrameMs, the page's clock from the
//     navigation's start: first_frame_issued_ms); right after that animation
//     frame a pixel of the view is read back, which returns once the GPU has
//     drawn it (first_frame_ms: the robot's pixels are in the view). The first
//     run keeps that frame's picture (test-results/first_frame_view.png) and a
//     screenshot of the page a moment later (test-results/first_frame.png);
//   - the page's performance marks (roverlab:script, roverlab:view,
//     roverlab:worker-ready, roverlab:model, roverlab:first-frame);
//   - every JavaScript, WebAssembly and CSS request the page and its workers
//     started before that moment, with its size as served and gzipped (zlib,
//     level 9), and the requests started in the 3 s after it (what loads
//     later: the charts, the editor, …);
//   - medians over fresh browser contexts (cold cache), one per run; the load
//     average before and after.
// It builds nothing: it serves dist/ as it is from a small static server
// (from memory, no compression, `application/wasm` for the core) on localhost.
// Command: node tests/bench/first_frame_bench.mjs [--runs=7] [--dist=dist] [--out=docs/benchmarks/first_frame.json]
//          [--trace=test-results/first_frame_trace.json] (a Chromium performance trace of one more run)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { launchBrowser, resultsDir, root } from '../browser/support.mjs';
import { serve } from './static_server.mjs';

const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const RUNS = Number(option('runs', 7));
const DIST = path.resolve(root, option('dist', 'dist'));
const OUT = path.resolve(root, option('out', 'docs/benchmarks/first_frame.json'));
const TRACE = option('trace', null);
const TIMEOUT_MS = 60_000;

const sizes = new Map();
/** The file's bytes as served and gzipped (level 9), from dist/. */
function sizeOf(url) {
  const name = decodeURIComponent(new URL(url).pathname);
  if (!sizes.has(name)) {
    const bytes = readFileSync(path.join(DIST, name));
    sizes.set(name, { bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: 9 }).length });
  }
  return sizes.get(name);
}

const kindOf = (url) => {
  const ext = path.extname(new URL(url).pathname);
  return ext === '.js' ? 'js' : ext === '.wasm' ? 'wasm' : ext === '.css' ? 'css' : null;
};

/** One cold run in a fresh context: the first frame's time and the requests before and after it. */
async function measure(browser, url, { trace = null, screenshot = null } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const requests = [];
  context.on('request', (request) => requests.push({ url: request.url(), at: Date.now() }));
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Right after the animation frame that first drew the robot (the app's own first-frame time is
  // set in it), a pixel is read back from the view: that returns once the GPU has drawn the frame.
  // The view's picture then is kept when asked for (the drawing buffer is preserved).
  await page.addInitScript((keepImage) => {
    const raf = window.requestAnimationFrame.bind(window);
    let done = false;
    window.requestAnimationFrame = (callback) =>
      raf((now) => {
        callback(now);
        if (done || window.__roverlab?.firstFrameMs == null) return;
        done = true;
        const canvas = document.getElementById('view');
        const gl = canvas.getContext('webgl2');
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        window.__firstFrameDrawn = { at: performance.now(), image: keepImage ? canvas.toDataURL('image/png') : null };
      });
  }, Boolean(screenshot));
  if (trace) {
    const categories = ['devtools.timeline', 'v8', 'v8.execute', 'v8.wasm', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-devtools.timeline'];
    await browser.startTracing(page, { path: trace, screenshots: false, categories });
  }
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstFrameDrawn, null, { timeout: TIMEOUT_MS });
  const page0 = await page.evaluate(() => {
    const hooks = window.__roverlab;
    return {
      timeOrigin: performance.timeOrigin,
      drawnMs: window.__firstFrameDrawn.at,
      image: window.__firstFrameDrawn.image,
      firstFrameMs: hooks.firstFrameMs,
      drawn: hooks.drawn,
      robot: hooks.robot,
      scenarioId: hooks.scenarioId,
      drawnTriangles: hooks.drawnTriangles,
      nav: performance.getEntriesByType('navigation')[0]?.toJSON(),
      marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
    };
  });
  if (screenshot) {
    // The view's first frame, and the page as it is now.
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(screenshot.replace(/\.png$/, '_view.png'), Buffer.from(page0.image.split(',')[1], 'base64'));
    await page.screenshot({ path: screenshot });
  }
  // The requests of what loads after the first frame (the plots, the editor): give them a moment.
  await page.waitForTimeout(3000);
  if (trace) await browser.stopTracing();
  await context.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  const firstFrameAt = page0.timeOrigin + page0.drawnMs;
  const listed = requests
    .filter((r) => kindOf(r.url))
    .map((r) => ({ path: new URL(r.url).pathname, kind: kindOf(r.url), started_ms: Math.round(r.at - page0.timeOrigin), ...sizeOf(r.url) }));
  const before = listed.filter((r) => r.started_ms <= page0.drawnMs);
  const after = listed.filter((r) => r.started_ms > page0.drawnMs);
  const sum = (list, kind, key) => list.filter((r) => r.kind === kind).reduce((n, r) => n + r[key], 0);
  return {
    first_frame_ms: Math.round(page0.drawnMs),
    first_frame_issued_ms: Math.round(page0.firstFrameMs),
    first_frame_at_epoch_ms: Math.round(firstFrameAt),
    dom_content_loaded_ms: Math.round(page0.nav?.domContentLoadedEventEnd ?? NaN),
    load_event_ms: Math.round(page0.nav?.loadEventEnd ?? NaN),
    marks: page0.marks.map((m) => ({ name: m.name, at_ms: Math.round(m.at) })),
    robot: page0.robot,
    drawn_then: page0.drawnTriangles,
    scenario: page0.scenarioId,
    js_bytes_before: sum(before, 'js', 'bytes'),
    js_gzip_bytes_before: sum(before, 'js', 'gzip_bytes'),
    wasm_bytes_before: sum(before, 'wasm', 'bytes'),
    wasm_gzip_bytes_before: sum(before, 'wasm', 'gzip_bytes'),
    css_gzip_bytes_before: sum(before, 'css', 'gzip_bytes'),
    requests_before: before,
    requests_after: after,
  };
}

if (!existsSync(path.join(DIST, 'index.html'))) throw new Error(`no production build in ${DIST}: run \`npm run build\` first`);
const loadBefore = os.loadavg();
const browser = await launchBrowser();
const { server, url } = await serve(DIST);
const runs = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const screenshot = run === 0 ? path.join(resultsDir, 'first_frame.png') : null;
    const r = await measure(browser, url, { screenshot });
    console.log(`run ${run + 1}: first frame ${r.first_frame_ms} ms, JS before it ${r.js_gzip_bytes_before} B gzipped (${r.requests_before.length} requests)`);
    runs.push(r);
  }
  if (TRACE) await measure(browser, url, { trace: path.resolve(root, TRACE) });
} finally {
  await browser.close();
  server.close();
}
const median = (key) => {
  const values = runs.map((r) => r[key]).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
};
const command = `node tests/bench/first_frame_bench.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`;
const result = {
  date: new Date().toISOString(),
  command,
  browser: `Chromium ${browser.version()} (${process.env.ROVERLAB_CHROMIUM ?? '/usr/bin/chromium'}), headless, software WebGL (SwiftShader), 1280×800, a fresh context (cold cache) per run`,
  build: path.relative(root, DIST) || '.',
  scenario: 'the default (terrains/climb-articulated6.json: articulated6 before the 0.65 m step)',
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, load_average_before: loadBefore, load_average_after: os.loadavg() },
  median: {
    first_frame_ms: median('first_frame_ms'),
    first_frame_issued_ms: median('first_frame_issued_ms'),
    dom_content_loaded_ms: median('dom_content_loaded_ms'),
    js_gzip_bytes_before_first_frame: median('js_gzip_bytes_before'),
    js_bytes_before_first_frame: median('js_bytes_before'),
    wasm_gzip_bytes_before_first_frame: median('wasm_gzip_bytes_before'),
    wasm_bytes_before_first_frame: median('wasm_bytes_before'),
  },
  targets: {
    first_frame_ms: { target: 1000, met: median('first_frame_ms') <= 1000 },
    js_gzip_bytes_before_first_frame: { target: 250_000, met: median('js_gzip_bytes_before') <= 250_000 },
  },
  runs,
  notes:
    'first_frame_ms: from the navigation\'s start to the first frame with the robot drawn: the end of the animation frame in which ' +
    'the app first drew the view with the robot of the built scenario on the stage, and a pixel of the view read back then (it returns ' +
    'once the GPU has drawn the frame). first_frame_issued_ms: the app\'s own time of that draw (window.__roverlab.firstFrameMs), ' +
    'its commands issued. requests_before: JavaScript, WebAssembly and CSS requests of the page and its workers started up to ' +
    'first_frame_ms (started_ms on the page\'s clock); bytes as served (dist/, uncompressed), gzip_bytes gzipped at level 9. ' +
    'requests_after: those started in the 3 s after it. marks: the page\'s performance marks (ms).',
};
writeFileSync(OUT, JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result.median));
