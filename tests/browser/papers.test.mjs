// The papers' algorithms in the browser: the rocker rover placed along Track1
// by [KJ2025]'s geometric algorithm (kinematic playback), and [BSTU2019]'s
// crawler-link contact modes in their 2-D panel.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { imageStats, resultsDir, startApp } from './support.mjs';

let browser;
let server;
let page;
let errors;

const waitFor = (fn, arg, timeout = 90_000) => page.waitForFunction(fn, arg, { timeout });

beforeAll(async () => {
  ({ browser, server, page, errors } = await startApp());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 60_000);

describe("the papers' algorithms", { timeout: 120_000 }, () => {
  test('[GKS2025]: the step-climb controller shows its phases and brings articulated6 onto the 0.65 m step', async () => {
    await page.selectOption('#scenario', 'climb-articulated6');
    await waitFor(() => window.__roverlab.preset === 'articulated6' && window.__roverlab.phase);
    expect(await page.isVisible('#controller-box')).toBe(true);
    // 5× real time: the status line shows the phase of the newest telemetry every 250 ms of wall
    // time, 1.25 s of simulated time at this speed, so a climb done by 28 s is seen by 30 s.
    await page.selectOption('#speed', '5');
    // Every phase shown on the way (noted at each animation frame) until the climb is done or 30 s passed.
    await page.evaluate(() => (window.__phases = []));
    await waitFor(() => {
      const { phase, time } = window.__roverlab;
      if (window.__phases.at(-1) !== phase) window.__phases.push(phase);
      return phase?.startsWith('done') || time > 30;
    }, null, 100_000);
    const phases = new Set(await page.evaluate(() => window.__phases));
    const s = await page.evaluate(() => ({ ...window.__roverlab, doc: undefined, screenOf: undefined, inView: undefined, crawler: undefined }));
    expect(s.phase).toMatch(/^done/);
    expect(s.time).toBeLessThan(30);
    expect(s.base[2]).toBeGreaterThan(0.65);  // the middle section on the top
    expect(phases.size).toBeGreaterThanOrEqual(3);
    expect(await page.textContent('#phase')).toMatch(/step-climb: done/);
    // At speed "max" the worker steps between the page's frames: far faster than real time.
    await page.selectOption('#speed', 'Infinity');
    await waitFor((t) => window.__roverlab.time > t + 2, s.time);
    await page.waitForFunction((n) => window.__roverlab.drawn >= n, (await page.evaluate(() => window.__roverlab.drawn)) + 3);
    expect((await page.evaluate(() => window.__roverlab.realTimeFactor))).toBeGreaterThan(1);
    await page.screenshot({ path: path.join(resultsDir, 'climb.png') });
    // Operator mode: a driving key takes over from the controller.
    await page.selectOption('#speed', '1');
    await page.locator('#view').click({ position: { x: 5, y: 5 } });
    await page.keyboard.down('ArrowUp');
    await page.keyboard.up('ArrowUp');
    expect(await page.isChecked('#controller')).toBe(false);
    await waitFor(() => /operator mode/.test(document.querySelector('#phase').textContent));
    expect(errors).toEqual([]);
  });

  test('[KJ2025]: the rover is placed along Track1 of the depression terrain, all right wheels down in the middle', async () => {
    await page.selectOption('#scenario', 'depression-rocker8');
    await waitFor(() => window.__roverlab.preset === 'rocker8' && window.__roverlab.time > 0.2);
    await page.click('#tab-stance');
    await page.click('#stance-compute');
    await waitFor(() => window.__roverlab.stancePose);
    const count = Number(await page.getAttribute('#stance-s', 'max')) + 1;
    expect(count).toBeGreaterThan(20);
    // Step through every pose: each has a stance, and somewhere the rover sits in the
    // depression with all four right wheels (5-8) on the ground and rolled towards it.
    // (Roll is positive with the left side up: the depression is in the right row.)
    let inDepression = null;
    let stances = 0;
    for (let i = 0; i < count; i++) {
      await page.fill('#stance-s', String(i));
      await page.dispatchEvent('#stance-s', 'input');
      const pose = await page.evaluate(() => window.__roverlab.stancePose);
      if (pose.stance) stances++;
      if (pose.stance && [5, 6, 7, 8].every((w) => pose.touching.includes(w)) && pose.roll > 0.05) inDepression ??= pose;
    }
    // Near the end of the terrain the rover's rear wheels leave the rows: no stance there.
    expect(stances / count).toBeGreaterThan(0.6);
    expect(inDepression, 'a pose with wheels 5-8 touching and the body rolled right').not.toBeNull();
    await page.fill('#stance-s', String(count - 1 - Math.floor(count / 2)));
    await page.dispatchEvent('#stance-s', 'input');
    expect(await page.textContent('#stance-info')).toMatch(/wheels touching/);
    const png = await page.screenshot({ path: path.join(resultsDir, 'stance.png') });
    expect((await imageStats(page, png, 0xdfe6ec)).stddev).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  });

  test('[BSTU2019]: the crawler panel shows the mode, kind and correction, and refuses bad input with a message', async () => {
    await page.click('#tab-crawler');
    await waitFor(() => window.__roverlab.crawler?.result);
    const text = await page.textContent('#crawler');
    expect(text).toMatch(/n = 1/);
    expect(text).toMatch(/v = 4/);
    expect(text).toMatch(/correction/);
    await page.screenshot({ path: path.join(resultsDir, 'crawler.png') });
    // α = 120° is outside the paper's (−90°, 90°]: the panel says so and keeps working.
    await page.fill('#crawler input[name=alpha]', '120');
    await page.dispatchEvent('#crawler input[name=alpha]', 'input');
    expect(await page.textContent('#crawler')).toMatch(/alpha/);
    await page.fill('#crawler input[name=alpha]', '20');
    await page.dispatchEvent('#crawler input[name=alpha]', 'input');
    expect(await page.textContent('#crawler')).toMatch(/v = 4/);
    expect(errors).toEqual([]);
  });
});
