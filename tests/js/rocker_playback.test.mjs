// Kinematic playback of the rocker rover ([KJ2025]) through the WASM core:
// core.rockerPlayback on the paper's depression and slope terrains, and the
// three.js view module drawing its poses.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { beforeAll, describe, expect, test } from 'vitest';

import { RockerPlayback } from '../../web/src/panels/rocker_playback.js';
import { loadWasmCore } from './support.mjs';

const terrain = (name) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../terrains/${name}`, import.meta.url)), 'utf8'));
let core;

beforeAll(async () => {
  core = await loadWasmCore();
});

/** The pose whose arc length is nearest to s. */
function poseNear(result, s) {
  return result.poses.reduce((a, b) => (Math.abs(b.s - s) < Math.abs(a.s - s) ? b : a));
}

describe('core.rockerPlayback', () => {
  test('depression: the body rolls into it with all right wheels touching in the middle', () => {
    const result = core.rockerPlayback(JSON.stringify(terrain('depression-rocker8.json')), 0.1);
    expect(result.ok).toBe(true);
    expect(result.length).toBeCloseTo(8, 9);
    expect(result.poses).toHaveLength(81);
    // Body over the deepest part (x = 4.5) when wheel 1 touches at s = 5.4.
    const middle = poseNear(result, 5.4);
    expect(middle.stance).toBe(true);
    for (const wheel of middle.wheels) expect(wheel.contact).not.toBeNull();
    expect(middle.roll).toBeGreaterThan(0.1);  // left side up: rolled towards the depression
    expect(Math.abs(middle.pitch)).toBeLessThan(1e-9);
    // Each contact point lies at the wheel radius from its wheel centre.
    for (const wheel of middle.wheels) {
      const d = Math.hypot(...wheel.centre.map((c, k) => c - wheel.contact[k]));
      expect(d).toBeCloseTo(result.geometry.wheelRadius, 6);
    }
    expect(middle.pivots).toHaveLength(4);
    expect(middle.centreLines.right.length).toBeGreaterThan(10);
    // Near the start the rear wheels would stand behind the terrain.
    expect(result.poses[0].stance).toBe(false);
    expect(result.poses[0].reason).toMatch(/no ground/);
  });

  test('slope: wheels 7-8 hang in the air while the right side climbs', () => {
    const result = core.rockerPlayback(JSON.stringify(terrain('slope-rocker8.json')), 0.1);
    expect(result.ok).toBe(true);
    const hanging = result.poses.filter(
      (p) => p.stance && p.wheels[6].contact === null && p.wheels[7].contact === null,
    );
    expect(hanging.length).toBeGreaterThan(10);
    for (const p of hanging) {
      for (let w = 0; w < 6; w++) expect(p.wheels[w].contact).not.toBeNull();
      expect(p.roll).toBeLessThan(0);  // right side up
    }
    // On the top, all eight touch again.
    expect(poseNear(result, 7).wheels.every((w) => w.contact !== null)).toBe(true);
  });

  test('bad input comes back as issues', () => {
    const other = terrain('depression-rocker8.json');
    other.robot.preset = 'articulated6';
    const result = core.rockerPlayback(JSON.stringify(other), 0.1);
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => i.path)).toContain('robot.preset');
    const noStep = core.rockerPlayback(JSON.stringify(terrain('slope-rocker8.json')), 0);
    expect(noStep.ok).toBe(false);
    expect(noStep.issues[0].path).toBe('step');
    expect(core.rockerPlayback('{', 0.1).ok).toBe(false);
  });
});

describe('RockerPlayback view', () => {
  test('draws a pose: wheels green in contact, red in the air, pivots and centre lines', () => {
    const group = new THREE.Group();
    const view = new RockerPlayback(group, core);
    expect(view.length).toBe(0);
    expect(view.load(terrain('slope-rocker8.json'), { step: 0.25 })).toEqual({ ok: true });
    expect(view.length).toBe(33);
    expect(group.children).toContain(view.object);
    // Wheel 1 at s = 4: body at x = 3.1, right rear rocker hanging.
    const pose = view.show(16);
    expect(pose.s).toBeCloseTo(4, 9);
    expect(view.object.visible).toBe(true);
    const green = view.wheels.filter((w) => w.material.color.getHex() === 0x2e9e44).length;
    expect(green).toBe(6);
    expect(view.wheels[6].material.color.getHex()).toBe(0xd1401f);
    expect(view.wheels[0].position.toArray()).toEqual(pose.wheels[0].centre);
    expect(view.pivots[3].material).toBe(view.materials.aboveLine);
    expect(view.pivots[2].material).toBe(view.materials.onLine);
    expect(view.centreLines[1].geometry.getAttribute('position').count).toBe(pose.centreLines.right.length);
    // A pose without a stance hides the rover.
    view.show(0);
    expect(view.object.visible).toBe(false);
    view.dispose();
    expect(group.children).not.toContain(view.object);
  });

  test('load reports issues and keeps nothing', () => {
    const view = new RockerPlayback(new THREE.Group(), core);
    const bad = terrain('slope-rocker8.json');
    delete bad.terrain.quads.right;
    const result = view.load(bad);
    expect(result.ok).toBe(false);
    expect(result.issues.length).toBeGreaterThan(0);
    expect(view.length).toBe(0);
    expect(view.show(0)).toBeUndefined();
  });
});
