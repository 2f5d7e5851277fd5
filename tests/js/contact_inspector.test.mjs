// The contact inspector's words for a terrain feature id (web/src/panels/contact_inspector.js),
// against the id ranges the core gives (core/bindings/js_values.cpp, terrainToJs).
import { describe, expect, test } from 'vitest';

import { featureName } from '../../web/src/panels/contact_inspector.js';

describe('featureName', () => {
  // 3 pieces, a heightmap of 4 × 2 cells (16 triangles, 12 walls), a mesh of 10 triangles and 6 walls.
  const features = [
    { kind: 'piece', index: 0, first: 0, triangles: 3, walls: 0 },
    { kind: 'heightmap', index: 0, first: 3, triangles: 16, walls: 12, cellsX: 4 },
    { kind: 'mesh', index: 0, first: 31, triangles: 10, walls: 6 },
  ];
  test('pieces, heightmap cells and walls, mesh triangles and walls', () => {
    expect(featureName(features, 2)).toBe('piece 2');
    expect(featureName(features, 3)).toBe('heightmap 0, cell (0, 0), lower triangle');
    expect(featureName(features, 3 + 2 * (1 * 4 + 3) + 1)).toBe('heightmap 0, cell (3, 1), upper triangle');
    expect(featureName(features, 3 + 16)).toBe('heightmap 0, wall 0');
    expect(featureName(features, 31 + 9)).toBe('mesh 0, triangle 9');
    expect(featureName(features, 31 + 10 + 5)).toBe('mesh 0, wall 5');
    expect(featureName(features, 47)).toBe('feature 47');  // past every range
    expect(featureName(undefined, 1)).toBe('feature 1');
  });
});
