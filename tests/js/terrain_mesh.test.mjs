// JS unit tests of the web app's terrain → three.js conversion (no WebGL needed).
import * as THREE from 'three';
import { describe, expect, test } from 'vitest';

import { pieceGeometry, terrainObject, viewFor } from '../../web/src/view/terrain_mesh.js';

/** A unit cube as the core returns it: 8 vertices, 12 triangles CCW from outside. */
function unitCube(color = 0x336699) {
  const vertices = new Float32Array(24);
  for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) vertices[3 * i + k] = (i >> k) & 1 ? 0.5 : -0.5;
  // Faces as quads (vertex bit k = coordinate k), CCW seen from outside, fan-triangulated.
  const quads = [
    [0, 2, 3, 1], [4, 5, 7, 6], // z-, z+
    [0, 1, 5, 4], [2, 6, 7, 3], // y-, y+
    [0, 4, 6, 2], [1, 3, 7, 5], // x-, x+
  ];
  const indices = new Uint32Array(quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]));
  return { kind: 'box', color, vertices, indices };
}

describe('pieceGeometry', () => {
  test('un-indexed triangles with flat outward normals', () => {
    const geometry = pieceGeometry(unitCube());
    expect(geometry.index).toBeNull();
    const position = geometry.getAttribute('position');
    const normal = geometry.getAttribute('normal');
    expect(position.count).toBe(36);
    const p = new THREE.Vector3();
    const n = new THREE.Vector3();
    for (let i = 0; i < position.count; i++) {
      p.fromBufferAttribute(position, i);
      n.fromBufferAttribute(normal, i);
      expect(n.length()).toBeCloseTo(1, 6);
      // Outward: the normal is the axis of the face the vertex lies on, pointing away from the centre.
      expect(n.dot(p)).toBeCloseTo(0.5, 6);
    }
    expect(geometry.boundingBox.min.toArray()).toEqual([-0.5, -0.5, -0.5]);
  });
});

describe('terrainObject', () => {
  test('one coloured mesh with an outline per piece', () => {
    const group = terrainObject([unitCube(0xff0000), unitCube(0x00ff00)]);
    expect(group.children).toHaveLength(2);
    const [first, second] = group.children;
    expect(first.name).toBe('box[0]');
    expect(first.material.color.getHex()).toBe(0xff0000);
    expect(second.material.color.getHex()).toBe(0x00ff00);
    expect(first.children[0]).toBeInstanceOf(THREE.LineSegments);
  });
});

describe('viewFor', () => {
  test('looks at the centre of the box from outside it', () => {
    const view = viewFor({ min: [0, -2, -0.3], max: [10, 2, 0.7] });
    expect(view.target.toArray()).toEqual([5, 0, expect.closeTo(0.2, 12)]);
    expect(view.size).toBe(10);
    expect(view.position.z).toBeGreaterThan(0.7);
    expect(view.position.distanceTo(view.target)).toBeGreaterThan(5);
    expect(view.near).toBeLessThan(view.far);
  });
});
