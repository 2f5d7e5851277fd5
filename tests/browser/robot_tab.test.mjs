// The Robot tab in headless Chromium: rocker8's links and joints as a tree
// with the rockers' angles live; its Try this opens articulated6 with its
// front fold posed, whose slider moved by the mouse sets the scenario's
// initial target (the core drives the joint there, read back live) and Ctrl+Z
// takes it back; rocker8 made its own description (robot.model) has a wheel
// radius changed in its field (the model runs with it), and a negative mass
// is refused by the core and marked at its field until undone. Screenshots go
// to test-results/ (tab-robot-posed.png, tab-robot-own.png).
import { describe, expect, test } from 'vitest';

import { openAppPage, saveScreenshot, serveApp } from './support.mjs';

const app = serveApp();

const hooks = (page) => page.evaluate(() => ({ ...window.__roverlab, scenario: structuredClone(window.__roverlab.doc.scenario) }));
/** The number in a live value's text ("now 0.123 rad"), or NaN. */
const liveNumber = (text) => Number(/now (-?[\d.]+)/.exec(text ?? '')?.[1]);

describe('the Robot tab', { timeout: 300_000 }, () => {
  test('tree, live joints, drive sliders with undo, and an own description edited field by field', async () => {
    const { page, errors } = await openAppPage(app.browser, `${app.url}?scenario=flat-rocker8`);
    const waitFor = (fn, arg, timeout = 90_000) => page.waitForFunction(fn, arg, { timeout });
    const text = async (selector) => (await page.textContent(selector)).replaceAll('\u00a0', ' ');  // units follow numbers by a no-break space
    await page.click('#tab-robot');
    await page.waitForSelector('#robot', { state: 'visible' });  // the tab's module is loaded when it is first opened
    await page.waitForSelector('#robot li[data-link="rocker_1"]');

    // rocker8: its name and source, then every link under its parent through its joint.
    expect(await text('#robot .robot-name')).toMatch(/rocker8\s+from the preset rocker8/);
    expect(await text('#robot .robot-facts')).toMatch(/^\d+ kg in all · 8 wheels · 13 links, 12 joints · free base$/);
    expect(await text('#robot .note')).toMatch(/Simulate tab’s Parameters panel/);
    for (let r = 1; r <= 4; r++) {
      const rocker = `#robot li[data-link="base"] > ul > li[data-link="rocker_${r}"]`;
      expect(await text(`${rocker} > .joint-line`)).toMatch(new RegExp(`^revolute joint rocker_${r} · about y · -0\\.7 … 0\\.7 rad`));
      for (const w of [2 * r - 1, 2 * r]) {
        const wheel = `${rocker} > ul > li[data-link="wheel_${w}"]`;
        expect(await text(`${wheel} > .joint-line`)).toMatch(`continuous joint wheel_${w} · about y · no limit`);
        expect(await text(`${wheel} > .wheel-line`)).toMatch(/^wheel: radius 0\.25 m, width 0\.2 m/);
        expect(await text(`${wheel} > .drive-line`)).toBe(`drive wheel_${w}: speed, gain 300 N·m·s/rad, limit 150 N·m`);
      }
    }
    expect(await text('#robot .robot-drives')).toMatch(/no named joint drives/);
    // The rockers' angles and the wheels' speeds as the run plays.
    await waitFor(() => window.__roverlab.time > 0.5 && /now -?\d/.test(document.querySelector('#robot li[data-link="rocker_1"] > .joint-line .live')?.textContent));
    await waitFor(() => Number(/now (-?[\d.]+)/.exec(document.querySelector('#robot li[data-link="wheel_1"] .wheel-line .live')?.textContent)?.[1]) > 1);

    // Try this: articulated6 before the step, its front fold's target 0.6 rad from the start.
    expect(await page.evaluate(() => document.getElementById('tab-help').open)).toBe(true);
    await page.click('#tab-help-try');
    await waitFor(() => window.__roverlab.robot === 'articulated6' && window.__roverlab.ready && document.querySelector('#robot [data-drive="fold_front"]'));
    let h = await hooks(page);
    expect(h.scenario.control.joints).toEqual({ fold_front: 0.6 });
    const fold = '#robot [data-drive="fold_front"]';
    expect(Number(await page.inputValue(`${fold} input[type="range"]`))).toBeCloseTo(0.6, 1);
    expect(await page.locator('#robot [data-drive]').count()).toBe(4);
    expect(await text('#robot li[data-link="section_front"] > .joint-line')).toMatch(/^prismatic joint section_front · along x · 0 … 0\.18 m/);
    expect(await text('#robot li[data-link="fold_front"] > .drive-line')).toBe('drive fold_front: position, gain 5000 N·m/rad, limit 800 N·m');

    // The slider moved with the mouse: the scenario's initial target changes (one undo step), the run restarts
    // and the core drives the fold there (its live value; the servo sags by a few hundredths under the section).
    const undoSteps = await page.evaluate(() => window.__roverlab.doc.undoStack.length);
    const slider = page.locator(`${fold} input[type="range"]`);
    const box = await slider.boundingBox();
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
    await waitFor(() => window.__roverlab.doc.scenario.control.joints.fold_front < 0);
    h = await hooks(page);
    const target = h.scenario.control.joints.fold_front;
    expect(target).toBeCloseTo(Number(await page.inputValue(`${fold} input[type="range"]`)), 3);
    expect(target).toBeLessThan(-0.5);
    expect(h.doc.undoStack.length).toBe(undoSteps + 1);
    await waitFor(
      (t) => Math.abs(Number(/now (-?[\d.]+)/.exec(document.querySelector('#robot li[data-link="fold_front"] > .joint-line .live')?.textContent)?.[1]) - t) < 0.08,
      target,
    );
    // The tree may be drawn anew as the run restarts, its live values blank until the next frame's.
    await waitFor(() => /now -?\d/.test(document.querySelector('#robot li[data-link="section_front"] > .joint-line .live')?.textContent));
    expect(liveNumber(await text('#robot li[data-link="section_front"] > .joint-line .live'))).toBeCloseTo(0, 1);
    await waitFor(() => window.__roverlab.viewCurrent);
    await saveScreenshot(page, 'tab-robot-posed.png');

    // Ctrl+Z: the target the Try this set, back in the scenario and on the slider.
    await page.keyboard.press('Control+z');
    await waitFor(() => window.__roverlab.doc.scenario.control.joints.fold_front === 0.6);
    await waitFor(() => Number(document.querySelector('#robot [data-drive="fold_front"] input[type="range"]').value) > 0.5);

    // rocker8 again, made its own description: its numbers become fields.
    await page.selectOption('#scenario', 'flat-rocker8');
    await waitFor(() => window.__roverlab.robot === 'rocker8' && window.__roverlab.ready && document.querySelector('#robot button.robot-own'));
    await page.click('#robot button.robot-own');
    await waitFor(() => window.__roverlab.preset === null && window.__roverlab.robot === 'rocker8' && document.querySelector('#robot input[data-path="wheels[0].radius"]'));
    h = await hooks(page);
    expect(h.scenario.robot.model.name).toBe('rocker8');
    expect(h.scenario.robot.preset).toBeUndefined();
    expect(await text('#robot .robot-name')).toMatch(/from its own description \(robot\.model\)/);
    expect(await page.inputValue('#robot input[data-path="wheels[0].radius"]')).toBe('0.25');
    expect(await page.locator('#robot input[data-path]').count()).toBe(13 + 8 * 2 + 8 * 2);  // masses; radii, widths; gains, limits

    // A wheel radius: the model runs with it.
    await page.fill('#robot input[data-path="wheels[0].radius"]', '0.3');
    await page.press('#robot input[data-path="wheels[0].radius"]', 'Tab');
    await waitFor(() => window.__roverlab.wheelRadius === 0.3 && window.__roverlab.ready);
    h = await hooks(page);
    expect(h.scenario.robot.model.wheels.map((w) => w.radius)).toEqual([0.3, ...Array(7).fill(0.25)]);
    expect(h.issues).toEqual([]);

    // A negative mass: refused by the core, marked at its field with the core's message; Ctrl+Z takes it back.
    const mass = '#robot li[data-link="rocker_1"] > .link-line';
    await page.fill(`${mass} input`, '-1');
    await page.press(`${mass} input`, 'Tab');
    await waitFor(() => window.__roverlab.issues.some((i) => /^robot\.model\.links\[\d+\]\.mass$/.test(i.path)));
    await waitFor(() => document.querySelector('#robot li[data-link="rocker_1"] > .link-line .robot-field.invalid'));
    expect(await text(`${mass} .message`)).toMatch(/must be in \[0, 1e6\] kg, got -1/);
    expect(await page.locator('#robot .invalid').count()).toBe(1);
    await waitFor(() => window.__roverlab.viewCurrent);
    await saveScreenshot(page, 'tab-robot-own.png');
    await page.keyboard.press('Control+z');
    await waitFor(() => window.__roverlab.issues.length === 0 && !window.__roverlab.loading && window.__roverlab.ready);
    await waitFor(() => document.querySelector('#robot li[data-link="rocker_1"] > .link-line input')?.value === '15' && !document.querySelector('#robot .invalid'));
    expect((await hooks(page)).scenario.robot.model.wheels[0].radius).toBe(0.3);
    expect(errors).toEqual([]);
  });
});
