// OBJ import (web/src/mesh_import.js): the bounds of a file's vertices, and the
// scenario it makes: the mesh embedded, its up axis the thinner of y and z,
// placed with its lowest point at z = 0 and its vertices starting 1 m behind
// the robot (the westmost 0.5 % aside: a far ground plane keeps the robot at the patch).
import { describe, expect, test } from 'vitest';

import { objBounds, scenarioWithMesh } from '../../web/src/mesh_import.js';

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
