// JS unit tests of heightmaps in the app: the chunked three.js meshes (no
// WebGL needed) and the PNG import's header and scenario.
import { describe, expect, test } from 'vitest';

import { CHUNK, heightmapObject, heightRange } from '../../web/src/heightmap_mesh.js';
import { IMPORT_CELL, IMPORT_RISE, pngHeader, scenarioWithHeightmap } from '../../web/src/heightmap_import.js';

/** A field as the core returns it: nx × ny samples, z = f(i, j). */
function field(nx, ny, f, cell = [0.5, 0.25]) {
  const heights = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) heights[j * nx + i] = f(i, j);
  return { origin: [1, 2], cell, nx, ny, base: -1, color: 0x8a8a80, heights };
}

describe('heightmapObject', () => {
  test('one mesh per chunk of at most CHUNK × CHUNK cells, plus the sides', () => {
    const f = field(CHUNK * 2 + 2, 3, (i) => i * 0.01);  // 2·CHUNK + 1 cells along x: 3 chunks
    const group = heightmapObject([f]);
    const chunks = group.children.filter((m) => m.userData.kind === 'heightmap');
    expect(chunks.length).toBe(3);
    const cells = chunks.reduce((n, m) => n + m.geometry.index.count / 6, 0);
    expect(cells).toBe((f.nx - 1) * (f.ny - 1));
    expect(group.children.length).toBe(4);  // and the sides
  });

  test('vertices at the samples, triangles along the core\'s diagonal, facing up', () => {
    const f = field(3, 3, (i, j) => i + 10 * j);
    const [mesh] = heightmapObject([f]).children;
    const p = mesh.geometry.getAttribute('position');
    expect([p.getX(4), p.getY(4), p.getZ(4)]).toEqual([1.5, 2.25, 11]);
    const index = Array.from(mesh.geometry.index.array.slice(0, 6));
    expect(index).toEqual([0, 1, 4, 0, 4, 3]);  // lower (i,j)(i+1,j)(i+1,j+1), upper (i,j)(i+1,j+1)(i,j+1)
    const n = mesh.geometry.getAttribute('normal');
    for (let k = 0; k < n.count; k++) expect(n.getZ(k)).toBeGreaterThan(0);
  });

  test('coloured by height: the lowest sample darker than the highest; by slope on request', () => {
    const f = field(4, 4, (i) => (i < 2 ? 0 : 3 * (i - 1)));
    expect(heightRange(f)).toEqual([0, 6]);
    const colour = (mode, k) => {
      const c = heightmapObject([f], mode).children[0].geometry.getAttribute('color');
      return c.getX(k) + c.getY(k) + c.getZ(k);
    };
    expect(colour('height', 0)).toBeLessThan(colour('height', 3));
    const red = (k) => heightmapObject([f], 'slope').children[0].geometry.getAttribute('color').getX(k);
    expect(red(0)).toBeLessThan(red(3));  // flat corner greener, steep edge redder
  });
});

describe('PNG import', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 200, 0, 0, 0, 120, 16, 0]);

  test('pngHeader reads width, height and bit depth, and refuses other bytes', () => {
    expect(pngHeader(png)).toEqual({ width: 200, height: 120, bits: 16 });
    expect(pngHeader(Uint8Array.from([1, 2, 3]))).toBeNull();
    expect(pngHeader(new TextEncoder().encode('{"format": "roverlab-scenario"} padding'))).toBeNull();
  });

  test('the image replaces the terrain under the robot; robot, control and materials stay', () => {
    const scenario = {
      name: 'x',
      terrain: { materials: { soil: { phi_max: 0.6 } }, boxes: [{ centre: [0, 0, -0.5], size: [4, 4, 1] }] },
      track1: { lateral: 0.5 },
      robot: { preset: 'rocker8', pose: { position: [2, 3] } },
      control: { wheel_speed: 1 },
    };
    const out = scenarioWithHeightmap(scenario, { width: 200, height: 120, bits: 16 }, 'data:image/png;base64,AAAA', 'scan.png');
    expect(out.terrain.boxes).toBeUndefined();
    expect(out.track1).toBeUndefined();
    expect(out.robot).toEqual(scenario.robot);
    expect(out.control).toEqual(scenario.control);
    expect(out.name).toBe('rocker8 on scan.png');
    const [f] = out.terrain.heightmaps;
    expect(f.cell).toBe(IMPORT_CELL);
    expect(f.origin).toEqual([1, 3 - (119 * IMPORT_CELL) / 2]);
    expect(f.height_scale).toBeCloseTo(IMPORT_RISE / 65535, 12);
    expect(f.material).toBe('soil');
    expect(scenario.terrain.boxes).toBeDefined();  // the input is not changed
  });
});
