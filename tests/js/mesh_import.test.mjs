// OBJ import (web/src/mesh_import.js): the bounds of a file's vertices, and the
// scenario it makes: the mesh embedded, its up axis the thinner of y and z,
// placed with its lowest point at z = 0 and its west edge 1 m behind the robot.
import { describe, expect, test } from 'vitest';

import { objBounds, scenarioWithMesh } from '../../web/src/mesh_import.js';

const base = { format: 'roverlab-scenario', version: 1, terrain: { boxes: [] }, robot: { preset: 'rocker8', pose: { position: [2, 1] } }, track1: { nodes: [] } };

describe('OBJ import', () => {
  test('bounds over v records only, skipping what is not a number', () => {
    const b = objBounds('# c\nv 1 2 3\nvn 0 0 1\nv -1 5 0.5\nv x y z\nf 1 2 3\n');
    expect(b).toEqual({ min: [-1, 2, 0.5], max: [1, 5, 3], count: 2 });
    expect(objBounds('f 1 2 3\n')).toBeNull();
  });

  test('a z-up patch: lowest point at 0, west edge 1 m behind the robot, centred across', () => {
    const s = scenarioWithMesh(base, { min: [10, -3, 0.2], max: [14, 1, 0.5], count: 4 }, 'OBJ', 'a.obj');
    expect(s.terrain).toEqual({ meshes: [{ obj: 'OBJ', offset: [2 - 1 - 10, 1 - -1, -0.2], up: 'z' }] });
    expect(s.name).toBe('rocker8 on a.obj');
    expect(s.track1).toBeUndefined();
    expect(s.robot).toEqual(base.robot);
  });

  test('a y-up patch (thin in y): ground y is the file’s −z', () => {
    const s = scenarioWithMesh(base, { min: [0, -0.1, -2], max: [4, 0.3, 0], count: 4 }, 'OBJ', 'b.obj');
    // Ground y spans [0, 2], height from −0.1.
    expect(s.terrain.meshes[0]).toEqual({ obj: 'OBJ', offset: [1, 0, 0.1], up: 'y' });
  });
});
