// OBJ import (web/src/import/mesh_import.js): the bounds of a file's vertices, and the
// scenario it makes: the mesh embedded, its up axis the thinner of y and z,
// placed with its lowest point at z = 0 and its vertices starting 1 m behind
// the robot (the westmost 0.5 % aside: a far ground plane keeps the robot at the patch).
// The editor's mesh form (web/src/editor/mesh_fields.js): its placement as the
// core places the vertices, its texts read back exactly, and the robot moved
// with the mesh.
import { beforeAll, describe, expect, test } from 'vitest';

import { meshTexts, placeVertex, readMeshTexts, scenarioWithPlacement } from '../../web/src/editor/mesh_fields.js';
import { objBounds, scenarioWithMesh } from '../../web/src/import/mesh_import.js';
import { loadWasmCore } from './support.mjs';

const base = { format: 'roverlab-scenario', version: 1, terrain: { boxes: [] }, robot: { preset: 'rocker8', pose: { position: [2, 1] } }, track1: { nodes: [] } };

describe('OBJ import', () => {
  test('bounds over v records only, skipping what is not a number', () => {
    const b = objBounds('# c\nv 1 2 3\nvn 0 0 1\nv -1 5 0.5\nv x y z\nf 1 2 3\n');
    expect(b).toEqual({ min: [-1, 2, 0.5], max: [1, 5, 3], count: 2, low: [-1, 2, 0.5], high: [1, 5, 3] });
    expect(objBounds('f 1 2 3\n')).toBeNull();
  });

  test('a z-up patch: lowest point at 0, west edge 1 m behind the robot, centred across', () => {
    const s = scenarioWithMesh(base, { min: [10, -3, 0.2], max: [14, 1, 0.5], count: 4 }, 'OBJ', 'a.obj');
    expect(s.terrain).toEqual({ meshes: [{ obj: 'OBJ', offset: [2 - 1 - 10, 1 - -1, -0.2], up: 'z' }] });
    expect(s.name).toBe('rocker8 on a.obj');
    expect(s.track1).toBeUndefined();
    expect(s.robot).toEqual(base.robot);
  });

  test('a patch in a far-reaching ground plane: the robot starts at the patch, not at the plane’s edge', () => {
    // A 2 × 1 m grid of 0.05 m (41 × 21 vertices) and 8 vertices of a plane 100 m around it.
    const lines = [];
    for (let j = 0; j <= 20; j++) for (let i = 0; i <= 40; i++) lines.push(`v ${i / 20} ${j / 20} ${(i * j) % 3 / 100}`);
    for (const [x, y] of [[-100, -100], [102, -100], [102, 101], [-100, 101], [-0.01, -0.01], [2.01, -0.01], [2.01, 1.01], [-0.01, 1.01]]) lines.push(`v ${x} ${y} 0`);
    const b = objBounds(lines.join('\n'));
    expect(b.min[0]).toBe(-100);
    expect(b.low[0]).toBe(0);  // the patch's west column
    const s = scenarioWithMesh(base, b, 'OBJ', 'c.obj');
    // The patch's west edge 1 m behind the robot (x = 2), the patch centred on it across (y = 1).
    expect(s.terrain.meshes[0].offset).toEqual([1, 0.5, 0]);
  });

  test('a y-up patch (thin in y): ground y is the file’s −z', () => {
    const s = scenarioWithMesh(base, { min: [0, -0.1, -2], max: [4, 0.3, 0], count: 4 }, 'OBJ', 'b.obj');
    // Ground y spans [0, 2], height from −0.1.
    expect(s.terrain.meshes[0]).toEqual({ obj: 'OBJ', offset: [1, 0, 0.1], up: 'y' });
  });
});

describe('the mesh form', () => {
  let core;
  beforeAll(async () => {
    core = await loadWasmCore();
  });

  // A bumpy 3 × 2 patch, written z up and (the same surface) y up: (x, y, z) → (x, z, −y).
  const heightAt = (i, j) => 0.1 * Math.sin(i) * Math.cos(j);
  const patch = (yUp) => {
    const lines = [];
    for (let j = 0; j <= 4; j++)
      for (let i = 0; i <= 6; i++) {
        const [x, y, z] = [i / 2, j / 2, heightAt(i, j)];
        lines.push(yUp ? `v ${x} ${z} ${-y}` : `v ${x} ${y} ${z}`);
      }
    for (let j = 0; j < 4; j++)
      for (let i = 0; i < 6; i++) {
        const a = j * 7 + i + 1;
        lines.push(`f ${a} ${a + 1} ${a + 8}`, `f ${a} ${a + 8} ${a + 7}`);
      }
    return lines.join('\n');
  };
  const scenarioOf = (mesh) => ({ ...base, terrain: { meshes: [mesh] }, track1: undefined });

  test('placeVertex puts the vertices where the core does (offset, scale, yaw, either up axis)', () => {
    for (const mesh of [
      { obj: patch(false), offset: [1, -2, 0.3], scale: 2, yaw: 0.7 },
      { obj: patch(true), offset: [-4, 1, -0.2], scale: [1.5, 1.5, 1.5], yaw: -2, up: 'y' },
    ]) {
      const box = core.inspectTerrain(JSON.stringify(scenarioOf(mesh))).terrain.box;
      const placed = objBounds(mesh.obj, placeVertex(mesh));
      for (let k = 0; k < 2; k++) {
        expect(placed.min[k]).toBeCloseTo(box.min[k], 9);
        expect(placed.max[k]).toBeCloseTo(box.max[k], 9);
      }
      expect(placed.max[2]).toBeCloseTo(box.max[2], 9);
    }
  });

  test('texts left as shown keep their exact values; degrees become radians; bad texts are refused at their field', () => {
    const mesh = { obj: 'OBJ', offset: [0.1 + 0.2, 1, 2], scale: [1, 2, 3], yaw: 1 };
    const shown = meshTexts(mesh);
    expect(shown).toEqual({ offset: '0.3 1 2', scale: '1 2 3', yaw: '57.2958', up: 'z' });
    expect(readMeshTexts(shown, shown, mesh)).toEqual({ ok: true, offset: [0.1 + 0.2, 1, 2], scale: [1, 2, 3], yaw: 1, up: 'z' });
    const typed = readMeshTexts({ ...shown, offset: '1 2', scale: '0.01', yaw: '-90', up: 'y' }, shown, mesh);
    expect(typed).toEqual({ ok: true, offset: [1, 2, 0], scale: [0.01, 0.01, 0.01], yaw: -Math.PI / 2, up: 'y' });
    expect(readMeshTexts({ ...shown, offset: '1' }, shown, mesh)).toMatchObject({ ok: false, key: 'offset' });
    expect(readMeshTexts({ ...shown, offset: '0 0 2e5' }, shown, mesh)).toMatchObject({ ok: false, key: 'offset', message: 'offset: z must lie in [-1e5, 1e5] m; got 200000' });
    expect(readMeshTexts({ ...shown, scale: '2 2 2' }, shown, mesh)).toMatchObject({ ok: false, key: 'scale' });
    expect(readMeshTexts({ ...shown, scale: '-1' }, shown, mesh)).toMatchObject({ ok: false, key: 'scale' });
    expect(readMeshTexts({ ...shown, yaw: '400' }, shown, mesh)).toMatchObject({ ok: false, key: 'yaw', message: 'yaw: must be in [-360, 360]°; got 400' });
  });

  test('the robot keeps its place over the same point of the mesh; another up axis puts it where an import does', () => {
    const mesh = { obj: patch(false), offset: [1, -2, 0.3], up: 'z' };
    const scenario = { ...scenarioOf(mesh), robot: { preset: 'rocker8', pose: { position: [2, -1, 0.5], yaw: 0.2 } } };
    // The robot stands over the file's point (1, 1) of the ground plane.
    const moved = scenarioWithPlacement(scenario, 0, { offset: [3, 0, 0], scale: [2, 2, 2], yaw: Math.PI / 2, up: 'z' });
    expect(moved.terrain.meshes[0]).toEqual({ ...mesh, offset: [3, 0, 0], scale: 2, yaw: Math.PI / 2 });
    const over = placeVertex(moved.terrain.meshes[0])([1, 1, 0]);
    expect(moved.robot.pose).toEqual({ position: [over[0], over[1]], yaw: 0.2 });
    expect(moved.robot.pose.position).toEqual([1, 2]);  // (1, 1) doubled, turned to (−2, 2), moved by (3, 0)
    expect(scenario.terrain.meshes[0].offset).toEqual([1, -2, 0.3]);  // the input unchanged
    // Read y up, the file's ground plane is its (x, −z): the robot 1 m inside its west end, half-way across.
    const turned = scenarioWithPlacement(scenario, 0, { offset: [0, 0, 0], scale: [1, 1, 1], yaw: 0, up: 'y' });
    const { low, high } = objBounds(mesh.obj, placeVertex(turned.terrain.meshes[0]));
    expect(turned.robot.pose.position[0]).toBeCloseTo(low[0] + 1, 9);
    expect(turned.robot.pose.position[1]).toBeCloseTo((low[1] + high[1]) / 2, 9);
  });

  test("the import's own description follows the up axis; the user's own stays", () => {
    const mesh = { obj: patch(false), up: 'z' };
    const imported = { ...scenarioOf(mesh), description: 'Terrain imported from rocks.obj: an OBJ mesh in metres, z up.' };
    const place = (scenario, up) => scenarioWithPlacement(scenario, 0, { offset: [0, 0, 0], scale: [1, 1, 1], yaw: 0, up });
    expect(place(imported, 'y').description).toBe('Terrain imported from rocks.obj: an OBJ mesh in metres, y up.');
    expect(place(place(imported, 'y'), 'z').description).toBe(imported.description);
    const mine = { ...imported, description: 'My rubble, z up as scanned.' };
    expect(place(mine, 'y').description).toBe('My rubble, z up as scanned.');
  });
});
