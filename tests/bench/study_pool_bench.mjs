// The browser's study pool: the Study tab runs studies/block-height-planar-vehicle.json
// (36 threshold searches, 261 runs) with one worker and with one per core, in
// headless Chromium, alternately, ROUNDS times each; the medians and their
// ratio go to docs/benchmarks/study_pool.json. The time is the page's own,
// from Run to the last row (the tab's status line).
//
//   node tests/bench/study_pool_bench.mjs [--rounds=3] [--out=FILE]
//        (after npm run build:wasm; on an idle machine: it uses every core)
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser, root, startDevServer } from '../browser/support.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Number(arg('rounds') ?? 3);
const outFile = path.resolve(arg('out') ?? path.join(root, 'docs/benchmarks/study_pool.json'));
const cores = os.availableParallelism?.() ?? os.cpus().length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await launchBrowser();
const { server, url } = await startDevServer();
const times = { 1: [], [cores]: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url, { waitUntil: 'load', timeout: 300_000 });
  await page.waitForFunction(() => globalThis.__roverlab?.ready, null, { timeout: 300_000 });
  // The scenario on show paused, so that only the study's workers compute.
  if (await page.evaluate(() => globalThis.__roverlab.playing)) await page.keyboard.press('Space');
  await page.click('#tab-study');
  const options = await page.$$eval('#study .study-ready option', (os) => os.map((o) => o.value));
  const id = options.find((v) => v === 'block-height-planar-vehicle');
  if (!id) throw new Error(`no ready study block-height-planar-vehicle among ${options}`);
  await page.selectOption('#study .study-ready', id);
  for (let k = 0; k < ROUNDS; k++) {
    for (const workers of [1, cores]) {
      await page.fill('#study .study-workers', String(workers));
      await page.waitForTimeout(300);
      const t0 = Date.now();
      await page.click('#study .study-run');  // Run, then Run again: every row anew
      await page.waitForFunction(() => document.getElementById('study').dataset.status === 'running', null, { timeout: 60_000 });
      await page.waitForFunction(() => document.getElementById('study').dataset.status === 'done', null, { timeout: 600_000 });
      const words = await page.textContent('#study .study-status');
      const seconds = (Date.now() - t0) / 1000;
      times[workers].push(seconds);
      console.log(`${workers} worker(s): ${seconds.toFixed(2)} s (${words})`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
const result = {
  machine: { cores, cpu: os.cpus()[0]?.model, node: process.version, browser: "Debian's Chromium, headless" },
  command: 'node tests/bench/study_pool_bench.mjs',
  date: new Date().toISOString(),
  study: 'studies/block-height-planar-vehicle.json: 36 threshold searches, 261 runs',
  one_worker_s: Number(median(times[1]).toPrecision(3)),
  [`workers${cores}_s`]: Number(median(times[cores]).toPrecision(3)),
  speedup: Number((median(times[1]) / median(times[cores])).toPrecision(3)),
  rounds: times,
};
writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(result);
