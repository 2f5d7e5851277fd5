// The WASM build of the core, loaded in Node: the demo terrain, point distance
// against analytic answers, and input errors coming back as data.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadWasmCore } from './support.mjs';

let core;

beforeAll(async () => {
  core = await loadWasmCore();
});

/** Flat [x, y, z, ...] corners of an axis-aligned box. */
function boxPoints(centre, size) {
  const points = [];
  for (let i = 0; i < 8; i++) {
    for (let k = 0; k < 3; k++) points.push(centre[k] + ((i >> k) & 1 ? 0.5 : -0.5) * size[k]);
  }
  return points;
}

describe('demo terrain', () => {
  test('has the expected pieces with consistent mesh data', () => {
    const terrain = core.buildDemoTerrain();
    expect(terrain.ok).toBe(true);
    // Default parameters: 2 rows × 8 quads, 3 blocks, 1 wedge, a 3-piece profile.
    const kinds = terrain.pieces.map((p) => p.kind);
    expect(kinds.filter((k) => k === 'quad')).toHaveLength(16);
    expect(kinds.filter((k) => k === 'box')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'wedge')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'profile').length).toBeGreaterThanOrEqual(2);
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
    expect(terrain.box.min[2]).toBeCloseTo(-0.3, 6);
  });

  test('segments parameter sets the quads per row', () => {
    const terrain = core.buildDemoTerrain({ segments: 3 });
    expect(terrain.ok).toBe(true);
    expect(terrain.pieces.filter((p) => p.kind === 'quad')).toHaveLength(6);
  });

  test('bad parameters come back as issues, not exceptions', () => {
    const result = core.buildDemoTerrain({ segments: 0.5, laneWidth: 'wide', base: 2 });
    expect(result.ok).toBe(false);
    const paths = result.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['params.segments', 'params.laneWidth', 'params.base']));
    for (const issue of result.issues) expect(issue.message).toMatch(/\S/);
  });
});

describe('pointDistance', () => {
  test('0.5 m above the top face of a unit box is 0.5 m away', () => {
    const r = core.pointDistance(boxPoints([0, 0, 0], [1, 1, 1]), [0.1, -0.2, 1.0]);
    expect(r.ok).toBe(true);
    expect(r.distance).toBeCloseTo(0.5, 12);
    expect(r.feature).toBe('face');
    expect(r.normal[2]).toBeCloseTo(1, 12);
    expect(r.closest).toEqual([expect.closeTo(0.1, 12), expect.closeTo(-0.2, 12), expect.closeTo(0.5, 12)]);
  });

  test('inside, edge and corner regions of a unit box', () => {
    const cube = boxPoints([0, 0, 0], [1, 1, 1]);
    expect(core.pointDistance(cube, [0, 0, 0.3]).distance).toBeCloseTo(-0.2, 12);
    expect(core.pointDistance(cube, [0.8, 0, 0.9]).distance).toBeCloseTo(Math.hypot(0.3, 0.4), 12);
    expect(core.pointDistance(cube, [1.5, 1.5, 1.5]).distance).toBeCloseTo(Math.sqrt(3), 12);
  });

  test('the unit box of the demo terrain', () => {
    const terrain = core.buildDemoTerrain();
    const unit = terrain.pieces.find((p) => {
      if (p.kind !== 'box') return false;
      const z = p.vertices.filter((_, i) => i % 3 === 2);
      return Math.abs(Math.max(...z) - Math.min(...z) - 1) < 1e-6;
    });
    expect(unit).toBeDefined();
    const v = Array.from(unit.vertices);
    const axis = (k) => v.filter((_, i) => i % 3 === k);
    const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
    const top = Math.max(...axis(2));
    const r = core.pointDistance(v, [mean(axis(0)), mean(axis(1)), top + 0.5]);
    expect(r.ok).toBe(true);
    expect(r.distance).toBeCloseTo(0.5, 5);  // float32 vertices
  });

  test('beyond the radius the answer is a lower bound marked far', () => {
    const r = core.pointDistance(boxPoints([0, 0, 0], [1, 1, 1]), [0, 0, 5], 1.0);
    expect(r.ok).toBe(true);
    expect(r.feature).toBe('far');
    expect(r.distance).toBeGreaterThan(1.0);
  });

  test('degenerate input comes back as issues', () => {
    const flat = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
    const r = core.pointDistance(flat, [0, 0, 1]);
    expect(r.ok).toBe(false);
    expect(r.issues[0].path).toBe('points');
    const bad = core.pointDistance([1, 2], 'here');
    expect(bad.ok).toBe(false);
    expect(bad.issues.map((i) => i.path)).toEqual(['points', 'point']);
  });
});
