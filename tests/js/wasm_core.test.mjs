// The WASM build of the core, loaded in Node: what it describes (presets, a
// World's model) comes from the core's describers (core/sim/describe.h), so
// it uses the command-line tool's keys; terrain meshes are closed convex
// surfaces; the demo API is gone.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadWasmCore, root } from './support.mjs';

const cli = path.join(root, 'build/native/roverlab');
let core;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with scripts/build-native.sh`);
  core = await loadWasmCore();
});

const scenario = (name) => readFileSync(path.join(root, 'terrains', name), 'utf8');

describe('presets', () => {
  test('presets() is what `roverlab presets` prints, key for key', () => {
    const native = JSON.parse(spawnSync(cli, ['presets'], { encoding: 'utf8' }).stdout);
    expect(core.presets()).toEqual(native);
    expect(native.map((p) => p.preset).sort()).toEqual(
      ['articulated6', 'planar-vehicle', 'rocker8', 'wheel-rig', 'wheel-walker'],
    );
    for (const preset of native) {
      expect(preset.description).toMatch(/\S/);
      for (const p of preset.params) {
        expect(Object.keys(p).sort()).toEqual(['description', 'max', 'min', 'name', 'unit', 'value']);
        expect(p.min).toBeLessThanOrEqual(p.value);
        expect(p.value).toBeLessThanOrEqual(p.max);
      }
    }
  });
});

describe('World.model()', () => {
  test('describes bodies, wheels, joints, the frame layout and the columns consistently', () => {
    const world = new core.World(scenario('climb-articulated6.json'));
    expect(world.ok()).toBe(true);
    const m = world.model();
    expect(m.preset).toBe('articulated6');
    expect(m.controller).toBe('step-climb');
    expect(m.phases.length).toBeGreaterThan(1);
    expect(m.columns.at(-1)).toBe(m.phaseColumn);
    expect(m.layout.bodies).toBe(m.bodies.length);
    expect(m.layout.wheels).toBe(m.wheels.length);
    expect(m.layout.size - m.layout.row).toBe(m.columns.length);
    expect(m.layout.size).toBe(world.frame().length);
    expect(m.layout.wheel).toBe(1 + m.layout.slots * m.layout.slot);
    for (const w of m.wheels) expect(m.bodies[w.body].name).toBe(w.name);
    const boxes = m.bodies.flatMap((b) => b.boxes);
    expect(boxes.length).toBe(m.layout.boxes);
    for (const b of boxes) expect(b.size.every((s) => s > 0)).toBe(true);
    const fold = m.joints.find((j) => j.name === 'fold_front');
    expect(fold.prismatic).toBe(false);
    expect(fold.lower).toBeLessThan(fold.upper);
    expect(m.mass).toBeGreaterThan(100);
    expect(m.dt).toBe(world.dt());
    expect(m.warnings).toEqual([]);
    expect(m.name).toMatch(/\S/);
    world.delete();
  });

  test('terrain meshes are closed convex surfaces in typed arrays', () => {
    const world = new core.World(scenario('depression-rocker8.json'));
    const { terrain, track1 } = world.model();
    expect(track1.length).toBeGreaterThan(2);
    expect(terrain.pieces.length).toBeGreaterThanOrEqual(16);
    for (const piece of terrain.pieces) {
      expect(piece.vertices).toBeInstanceOf(Float32Array);
      expect(piece.indices).toBeInstanceOf(Uint32Array);
      const n = piece.vertices.length / 3;
      expect(n).toBeGreaterThanOrEqual(4);
      expect(piece.indices.length % 3).toBe(0);
      // A closed convex surface: V - E + F = 2 with E = 3F/2 → F = 2V - 4 triangles.
      expect(piece.indices.length / 3).toBe(2 * n - 4);
      expect(Math.max(...piece.indices)).toBeLessThan(n);
      expect(Number.isInteger(piece.color) && piece.color >= 0 && piece.color <= 0xffffff).toBe(true);
    }
    for (let k = 0; k < 3; k++) expect(terrain.box.min[k]).toBeLessThan(terrain.box.max[k]);
    world.delete();
  });

  test('a rejected scenario has an empty model', () => {
    const world = new core.World('{}');
    expect(world.ok()).toBe(false);
    expect(world.model()).toEqual({});
    world.delete();
  });
});

test('the demo API the app never called is gone', () => {
  expect(core.buildDemoTerrain).toBeUndefined();
  expect(core.pointDistance).toBeUndefined();
  expect(core.version()).toMatch(/^\d+\.\d+\.\d+$/);
});
