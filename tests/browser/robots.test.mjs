// A robot of one's own in the app: the Clearpath Husky's URDF with its STL
// mesh (tests/data/robots/husky, BSD licence) dropped on the view stands on
// the terrain, drives with the keys, and travels in a share link, which a
// fresh browser opens to the same robot and the same scenario (so the same
// run: the core is deterministic). The same files as a .zip import alike; a
// URDF without the mesh it names is refused naming it, the work unchanged.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';

import { root } from '../js/support.mjs';
import { openAppPage, saveScreenshot, serveApp } from './support.mjs';

const husky = path.join(root, 'tests/data/robots/husky');
/** The Husky's files: [{ name, bytes (base64) }], the URDF first, its meshes by their file names. */
const huskyFiles = () => [
  { name: 'husky.urdf', bytes: readFileSync(path.join(husky, 'husky.urdf')).toString('base64') },
  ...readdirSync(path.join(husky, 'meshes')).map((n) => ({ name: n, bytes: readFileSync(path.join(husky, 'meshes', n)).toString('base64') })),
];

/** Drops the files ([{ name, bytes (base64) }]) on the 3-D view together, as a person dragging them there. */
async function dropFiles(page, files) {
  await page.evaluate((files) => {
    const transfer = new DataTransfer();
    for (const { name, bytes } of files) transfer.items.add(new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], name));
    const view = document.getElementById('view');
    view.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    view.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

const hooks = (page) => page.evaluate(() => ({ ...window.__roverlab, scenarioJson: JSON.stringify(window.__roverlab.doc.scenario) }));

const app = serveApp();

describe('robots of ones own', { timeout: 300_000 }, () => {
  test('a dropped URDF with its mesh drives with the keys and opens cold from a share link', async () => {
    const { page, errors } = await openAppPage(app.browser, `${app.url}?scenario=flat-rocker8`);
    await dropFiles(page, huskyFiles());
    await page.waitForFunction(() => window.__roverlab.robot === 'husky' && window.__roverlab.ready, null, { timeout: 60_000 });
    let h = await hooks(page);
    expect(h.preset).toBe(null);
    expect(h.banner?.text).toMatch(/Imported husky\.urdf: husky, \d+ links, 4 wheels/);
    const scenario = JSON.parse(h.scenarioJson);
    expect(scenario.robot.model.name).toBe('husky');
    expect(scenario.robot.preset).toBeUndefined();
    // The top plate's STL became a hull of points in the description.
    expect(JSON.stringify(scenario.robot.model)).toMatch(/"hull"/);
    expect(await page.inputValue('#preset')).toBe(':own');
    expect(await page.locator('#preset option[value=":own"]').textContent()).toBe('husky (own)');

    // Driven forwards with the keys: it moves off its start.
    if (h.playing) await page.click('#play');
    await page.focus('#view');
    await page.keyboard.down('ArrowUp');
    await page.click('#play');
    await page.waitForFunction(() => window.__roverlab.time > 2.5, null, { timeout: 60_000 });
    await page.keyboard.up('ArrowUp');
    h = await hooks(page);
    expect(h.base[0] - h.startBase[0], 'metres driven forwards').toBeGreaterThan(0.3);
    await page.waitForFunction(() => window.__roverlab.viewCurrent, null, { timeout: 30_000 });
    await saveScreenshot(page, 'robot-husky-imported.png');

    await page.click('#share');
    await page.waitForFunction(() => Boolean(window.__roverlab.shareUrl), null, { timeout: 30_000 });
    const shared = await hooks(page);
    await page.click('#play');  // paused, the sender's page leaves the processor to the receiver's
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const other = await context.newPage();
      await other.goto(shared.shareUrl, { waitUntil: 'load', timeout: 90_000 });
      await other.waitForFunction(() => window.__roverlab?.linkOpened && window.__roverlab.robot === 'husky' && window.__roverlab.ready, null, { timeout: 90_000 });
      const cold = await hooks(other);
      expect(cold.issues ?? []).toEqual([]);
      expect(JSON.parse(cold.scenarioJson)).toEqual(JSON.parse(shared.scenarioJson));
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a .zip of the robot imports; a URDF without its mesh is refused naming it, the work unchanged', async () => {
    const { page, errors } = await openAppPage(app.browser, `${app.url}?scenario=flat-rocker8`);
    const before = (await hooks(page)).scenarioJson;
    await dropFiles(page, huskyFiles().slice(0, 1));
    await page.waitForFunction(() => /was not imported/.test(window.__roverlab.banner?.text ?? ''), null, { timeout: 30_000 });
    let h = await hooks(page);
    expect(h.banner.text).toMatch(/meshes\/top_plate\.stl/);
    expect(h.scenarioJson).toBe(before);
    expect(h.robot).toBe('rocker8');

    const zip = zipSync(Object.fromEntries(
      huskyFiles().map(({ name, bytes }) => [name.endsWith('.urdf') ? `husky/${name}` : `husky/meshes/${name}`, Buffer.from(bytes, 'base64')]),
    ));
    await dropFiles(page, [{ name: 'husky.zip', bytes: Buffer.from(zip).toString('base64') }]);
    await page.waitForFunction(() => window.__roverlab.robot === 'husky' && window.__roverlab.ready, null, { timeout: 60_000 });
    h = await hooks(page);
    expect(h.issues ?? []).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
