// JS unit tests of heightmaps in the app: the chunked three.js meshes (no
// WebGL needed): chunks, levels of detail, skirts, the levels picked for a
// view, the colouring again in place, the PNG import's header
// and scenario, and the editor's heightmap form (reading, checking, placing
// the robot).
import * as THREE from 'three';
import { describe, expect, test } from 'vitest';

import { CHUNK, heightmapChunks, heightmapObject, heightRange, pickLevels, recolourHeightmaps, setHeightmapDetail, STRIDES } from '../../web/src/view/heightmap_mesh.js';
import { dataUrlHeader, fieldTexts, gridOf, readFieldTexts, scenarioWithFields } from '../../web/src/editor/heightmap_fields.js';
import { IMPORT_CELL, IMPORT_RISE, pngHeader, scenarioWithHeightmap } from '../../web/src/import/heightmap_import.js';

/** A field as the core returns it: nx × ny samples, z = f(i, j). */
function field(nx, ny, f, cell = [0.5, 0.25]) {
  const heights = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) heights[j * nx + i] = f(i, j);
  return { origin: [1, 2], cell, nx, ny, base: -1, color: 0x8a8a80, heights };
}

/** The mesh of the first heightmap in `group`. */
const fieldOf = (group) => group.children.find((m) => m.userData.kind === 'heightmap');
/** Vertex k of a field's mesh in world coordinates. */
function worldVertex(mesh, k) {
  mesh.updateMatrixWorld(true);
  const p = mesh.geometry.getAttribute('position');
  return mesh.localToWorld(new THREE.Vector3(p.getX(k), p.getY(k), p.getZ(k))).toArray();
}
/** A camera at `position` looking at `target` (world points). */
function cameraAt(position, target, far = 1000) {
  const camera = new THREE.PerspectiveCamera(45, 1.5, 0.05, far);
  camera.up.set(0, 0, 1);
  camera.position.set(...position);
  camera.lookAt(...target);
  camera.updateMatrixWorld(true);
  return camera;
}

describe('heightmapObject', () => {
  test('a mesh per field, made of chunks of at most CHUNK × CHUNK cells, and the sides', () => {
    const f = field(CHUNK * 2 + 2, 3, (i) => i * 0.01);  // 2·CHUNK + 1 cells along x: 3 chunks
    const group = heightmapObject([f]);
    const mesh = fieldOf(group);
    expect(mesh.userData.chunks).toBe(3);
    const chunks = heightmapChunks(mesh);
    expect(chunks.map((c) => c.cells)).toEqual([[0, CHUNK, 0, 2], [CHUNK, 2 * CHUNK, 0, 2], [2 * CHUNK, 2 * CHUNK + 1, 0, 2]]);
    const cells = chunks.reduce((n, c) => n + c.levels[0].surface / 6, 0);
    expect(cells).toBe((f.nx - 1) * (f.ny - 1));
    expect(group.children.length).toBe(2);  // and the sides
  });

  test('vertices at the samples, triangles along the core\'s diagonal, facing up', () => {
    const f = field(3, 3, (i, j) => i + 10 * j);
    const mesh = fieldOf(heightmapObject([f]));
    expect(worldVertex(mesh, 4)).toEqual([1.5, 2.25, 11]);
    const [chunk] = heightmapChunks(mesh);
    expect(Array.from(chunk.levels[0].index.slice(0, 6))).toEqual([0, 1, 4, 0, 4, 3]);  // lower (i,j)(i+1,j)(i+1,j+1), upper (i,j)(i+1,j+1)(i,j+1)
    const n = mesh.geometry.getAttribute('normal');
    for (let k = 0; k < n.count; k++) expect(n.getZ(k)).toBeGreaterThan(0);
    // Normals from the slope: z = i + 10j over 0.5 m × 0.25 m cells rises 2 along x and 40 along y.
    const expected = new THREE.Vector3(-2, -40, 1).normalize();
    expect(n.getX(4)).toBeCloseTo(expected.x, 4);  // stored as 16-bit integers
    expect(n.getY(4)).toBeCloseTo(expected.y, 4);
  });

  test('coloured by height: the lowest sample darker than the highest; by slope on request', () => {
    const f = field(4, 4, (i) => (i < 2 ? 0 : 3 * (i - 1)));
    expect(heightRange(f)).toEqual([0, 6]);
    const colours = (mode) => fieldOf(heightmapObject([f], mode)).geometry.getAttribute('color');
    const sum = (c, k) => c.getX(k) + c.getY(k) + c.getZ(k);
    expect(sum(colours('height'), 0)).toBeLessThan(sum(colours('height'), 3));
    expect(colours('slope').getX(0)).toBeLessThan(colours('slope').getX(3));  // flat corner greener, steep edge redder
  });

  test('coarser levels drop samples, and are shown farther off the rougher the chunk and the sharper the view', () => {
    const plane = field(65, 65, (i, j) => 0.1 * i + 0.05 * j, [0.05, 0.05]);
    const bumpy = field(65, 65, (i, j) => 0.02 * Math.sin(i) * Math.cos(j), [0.05, 0.05]);
    const [flatChunk] = heightmapChunks(fieldOf(heightmapObject([plane])));
    const [roughChunk] = heightmapChunks(fieldOf(heightmapObject([bumpy], 'height', 1000)));
    expect(flatChunk.levels.map((l) => l.stride)).toEqual(STRIDES);
    const halfDiagonal = Math.hypot(64 * 0.05, 64 * 0.05) / 2;
    // A plane is the same at every level: each is shown from just off the chunk on.
    expect(flatChunk.distances[0]).toBe(0);
    for (const distance of flatChunk.distances.slice(1)) expect(distance).toBeCloseTo(halfDiagonal, 2);  // float32 heights: µm errors
    // ±2 cm bumps: every coarser level farther, by its error (m) × the focal length (1000 pixels).
    const far = roughChunk.distances;
    for (let l = 1; l < far.length; l++) expect(far[l]).toBeGreaterThan(halfDiagonal + 5);
    for (let l = 2; l < far.length; l++) expect(far[l]).toBeGreaterThanOrEqual(far[l - 1]);
    expect(roughChunk.levels[2].surface).toBe((64 / 4) ** 2 * 6);
    // A view half as sharp shows them from half as far (beyond the chunk's half diagonal).
    const group = heightmapObject([bumpy], 'height', 1000);
    setHeightmapDetail(group, 500);
    const [blurred] = heightmapChunks(fieldOf(group));
    for (let l = 1; l < far.length; l++) expect(blurred.distances[l] - halfDiagonal).toBeCloseTo((far[l] - halfDiagonal) / 2, 6);
  });

  test('neighbouring chunks meet on their samples; skirts hang under the inner edges only, facing out', () => {
    const f = field(CHUNK + 11, 5, (i, j) => 0.03 * Math.sin(i / 3) + 0.01 * j, [0.05, 0.05]);
    const mesh = fieldOf(heightmapObject([f]));
    const [a, b] = heightmapChunks(mesh);
    const w = CHUNK + 1;  // a's samples per row; b's: 11
    for (let j = 0; j < 5; j++) {
      const [pa, pb] = [worldVertex(mesh, a.first + j * w + CHUNK), worldVertex(mesh, b.first + j * 11)];
      pa.forEach((v, k) => expect(v).toBeCloseTo(pb[k], 5));
    }
    // Skirt vertices: one under each of the 5 samples of the shared edge, in each chunk.
    expect(a.count).toBe(w * 5 + 5);
    expect(b.count).toBe(11 * 5 + 5);
    const p = mesh.geometry.getAttribute('position');
    expect(p.getZ(a.first + w * 5)).toBeLessThan(p.getZ(a.first + CHUNK));  // below the sample it hangs from
    // The skirt triangles (after the surface's) face +x under a's east edge, −x under b's west edge.
    const facing = (chunk) => {
      const { index, surface } = chunk.levels[0];
      const [u, v, t] = [0, 1, 2].map((k) => new THREE.Vector3().fromBufferAttribute(p, chunk.first + index[surface + k]));
      return v.sub(u).cross(t.sub(u)).normalize().toArray().map((x) => Math.round(x) + 0);
    };
    expect(facing(a)).toEqual([1, 0, 0]);
    expect(facing(b)).toEqual([-1, 0, 0]);
    // A single chunk has no inner edge.
    expect(heightmapChunks(fieldOf(heightmapObject([field(3, 3, () => 0)])))[0].count).toBe(9);
  });
});

describe('pickLevels', () => {
  // 257 × 257 samples, 0.05 m cells (12.8 m square): 16 chunks of 64 cells, ±2 cm bumps.
  const f = field(257, 257, (i, j) => 0.02 * Math.sin(i) * Math.cos(j), [0.05, 0.05]);

  test('the chunks in view at their levels in one index buffer, gathered again only when a pick changes', () => {
    const mesh = fieldOf(heightmapObject([f], 'height', 1000));
    const chunks = heightmapChunks(mesh);
    expect(chunks.length).toBe(16);
    // From high above the middle, looking down: every chunk in view.
    const above = cameraAt([7.4, 8.4, 12], [7.4, 8.4, 0]);
    expect(pickLevels(mesh, above)).toBe(true);
    const { drawn } = mesh.userData;
    expect(drawn.chunks).toBe(16);
    expect(mesh.geometry.drawRange.count).toBe(drawn.triangles * 3);
    const picked = chunks.map((c, k) => c.levels.find((l) => l.stride === drawn.strides[k]));
    expect(mesh.geometry.drawRange.count).toBe(picked.reduce((n, l) => n + l.index.length, 0));
    // The index holds the picked lists, each moved to its chunk's first vertex.
    const index = mesh.geometry.index.array;
    expect(Array.from(index.slice(0, picked[0].index.length))).toEqual(Array.from(picked[0].index, (v) => v + chunks[0].first));
    expect(pickLevels(mesh, above)).toBe(false);  // nothing changed: nothing gathered
    // Far off, every chunk at its coarsest level: fewer triangles.
    const far = cameraAt([7.4, 8.4, 400], [7.4, 8.4, 0]);
    expect(pickLevels(mesh, far)).toBe(true);
    expect(mesh.userData.drawn.strides).toEqual(chunks.map((c) => c.levels.at(-1).stride));
    expect(mesh.userData.drawn.triangles).toBeLessThan(drawn.triangles);
    // Looking away: nothing drawn.
    expect(pickLevels(mesh, cameraAt([7.4, 8.4, 6], [7.4, 8.4, 20]))).toBe(true);
    expect(mesh.userData.drawn.chunks).toBe(0);
    expect(mesh.geometry.drawRange.count).toBe(0);
  });

  test('a chunk under a near camera is drawn with every sample', () => {
    const mesh = fieldOf(heightmapObject([f], 'height', 1000));
    pickLevels(mesh, cameraAt([1.6, 1.6, 0.5], [3, 3, 0]));  // low over the first chunk
    expect(mesh.userData.drawn.strides[0]).toBe(1);
  });
});

describe('recolourHeightmaps', () => {
  test('colours the fields by the other mode in place, as heightmapObject would have', () => {
    const f = field(CHUNK + 20, 30, (i, j) => (i > 60 ? 2 : 0) + 0.01 * j);
    const group = heightmapObject([f], 'height');
    const mesh = fieldOf(group);
    const colours = mesh.geometry.getAttribute('color');
    const [array, version] = [colours.array, colours.version];
    expect(recolourHeightmaps(group, 'slope')).toBe(1);
    expect(colours.array).toBe(array);  // the same buffer, filled again
    expect(colours.version).toBeGreaterThan(version);  // and uploaded again
    expect(Array.from(colours.array)).toEqual(Array.from(fieldOf(heightmapObject([f], 'slope')).geometry.getAttribute('color').array));
    expect(mesh.userData.mode).toBe('slope');
    expect(recolourHeightmaps(group, 'slope')).toBe(0);  // already so
    recolourHeightmaps(group, 'height');
    expect(Array.from(colours.array)).toEqual(Array.from(fieldOf(heightmapObject([f], 'height')).geometry.getAttribute('color').array));
  });
});

describe('heightmap form', () => {
  // A 16-bit PNG's first 33 bytes (signature, IHDR: 200 × 120, 16 bits) as a data URL.
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 200, 0, 0, 0, 120, 16, 0, 0, 0, 0, 0, 0, 0, 0];
  const png = `data:image/png;base64,${Buffer.from(head).toString('base64')}`;
  const imported = () => ({
    terrain: { heightmaps: [{ origin: [-1, -2.975], cell: 0.05, png, height_scale: 0.5 / 65535 }] },
    robot: { preset: 'rocker8', pose: { position: [0, 0, 0.4], yaw: 0.3 } },
  });
  const grid = gridOf(imported().terrain.heightmaps[0]);
  const shown = fieldTexts(imported().terrain.heightmaps[0], grid);

  test('reads the grid of an embedded image or of inline heights, and fills the form', () => {
    expect(dataUrlHeader(png)).toEqual({ width: 200, height: 120, bits: 16 });
    expect(dataUrlHeader('data:image/png;base64,@@@')).toBeNull();
    expect(grid).toEqual({ kind: 'png', nx: 200, ny: 120, top: 65535 });
    expect(shown).toEqual({ origin: '-1 -2.975', cell: '0.05', height: '0.5' });
    const inline = { cell: [0.1, 0.2], heights: [[0, 1, 2], [3, 4, 5]], height_scale: 2 };
    expect(gridOf(inline)).toEqual({ kind: 'heights', nx: 3, ny: 2, top: null });
    expect(fieldTexts(inline, gridOf(inline))).toEqual({ origin: '0 0', cell: '0.1 0.2', height: '2' });
  });

  test('keeps what was not retyped exactly; reads the rest', () => {
    const f = imported().terrain.heightmaps[0];
    expect(readFieldTexts(shown, shown, f, grid)).toEqual({ ok: true, origin: [-1, -2.975], cell: 0.05, heightScale: 0.5 / 65535 });
    const read = readFieldTexts({ origin: '[2, -3]', cell: '0.1 0.1', height: ' 1.5 ' }, shown, f, grid);
    expect(read).toEqual({ ok: true, origin: [2, -3], cell: 0.1, heightScale: 1.5 / 65535 });
    expect(readFieldTexts({ ...shown, cell: '0.1, 0.2' }, shown, f, grid).cell).toEqual([0.1, 0.2]);
  });

  test('refuses what the core would, with the field and a precise message', () => {
    const f = imported().terrain.heightmaps[0];
    const fails = (texts) => readFieldTexts({ ...shown, ...texts }, shown, f, grid);
    expect(fails({ cell: '0' })).toEqual({ ok: false, key: 'cell', message: 'cell: must be in [0.001, 1000] m; got 0' });
    expect(fails({ cell: '-0.05' })).toMatchObject({ key: 'cell', message: 'cell: must be in [0.001, 1000] m; got -0.05' });
    expect(fails({ cell: '2000' })).toMatchObject({ key: 'cell' });
    expect(fails({ cell: '' })).toMatchObject({ key: 'cell', message: 'cell: type the cell size in metres, as "0.05" (or "dx dy"); got ""' });
    expect(fails({ cell: '0.1 0.1 0.1' })).toMatchObject({ key: 'cell' });
    expect(fails({ cell: 'Infinity' })).toMatchObject({ key: 'cell' });
    expect(fails({ origin: '1' })).toMatchObject({ key: 'origin', message: 'origin: type x and y in metres, as "-1 -2.5"; got "1"' });
    expect(fails({ origin: '1 NaN' })).toMatchObject({ key: 'origin' });
    expect(fails({ origin: '0x10 1' })).toMatchObject({ key: 'origin' });
    expect(fails({ origin: '2e6 0' })).toMatchObject({ key: 'origin', message: 'origin: x and y must lie in [-1e6, 1e6] m; got "2e6 0"' });
    expect(fails({ height: 'high' })).toMatchObject({ key: 'height', message: 'white above black: type one number of metres, as "0.5"; got "high"' });
    expect(fails({ height: '2e5' })).toMatchObject({ key: 'height', message: 'white above black: 200000 makes heights up to 200000 m; they must lie in [-1e5, 1e5] m' });
    expect(fails({ height: '-0.5' })).toMatchObject({ ok: true, heightScale: -0.5 / 65535 });  // the image upside down
    const inline = { cell: 1, heights: [[0, 100], [3, 4]] };
    const g = gridOf(inline);
    const texts = fieldTexts(inline, g);
    expect(readFieldTexts({ ...texts, height: '1001' }, texts, inline, g)).toMatchObject({ key: 'height', message: 'height scale: at most ±1000; got 1001' });
    expect(readFieldTexts({ ...texts, height: '1000.5' }, texts, inline, g)).toMatchObject({ key: 'height', message: 'height scale: at most ±1000; got 1000.5' });
    expect(readFieldTexts({ ...texts, height: '999' }, texts, inline, g)).toMatchObject({ ok: true, heightScale: 999 });  // 99 900 m: within 1e5
    expect(readFieldTexts({ ...texts, height: '-1001' }, texts, inline, g)).toMatchObject({ key: 'height' });
  });

  test('the robot keeps its place over the grid, lowered onto it; the input is not changed', () => {
    const s = imported();
    const out = scenarioWithFields(s, 0, { origin: [10, 20], cell: 0.1, heightScale: 1 / 65535 }, grid);
    expect(out.terrain.heightmaps[0]).toEqual({ origin: [10, 20], cell: 0.1, png, height_scale: 1 / 65535 });
    // At (0, 0): 20 and 59.5 cells from the old origin, so (10 + 2, 20 + 5.95); its z dropped, its yaw kept.
    expect(out.robot.pose).toEqual({ position: [12, 25.95], yaw: 0.3 });
    expect(s.terrain.heightmaps[0].cell).toBe(0.05);
    expect(s.robot.pose.position).toEqual([0, 0, 0.4]);
  });

  test('a robot off a field that is the whole terrain is put where an import puts it; beside other ground it stays', () => {
    const s = imported();
    s.robot.pose.position = [50, 50];
    const out = scenarioWithFields(s, 0, { origin: [0, 0], cell: 0.1, heightScale: s.terrain.heightmaps[0].height_scale }, grid);
    expect(out.robot.pose.position).toEqual([1, 5.95]);  // 1 m inside the west edge, half-way across 11.9 m
    s.terrain.boxes = [{ centre: [50, 50, -0.5], size: [2, 2, 1] }];
    expect(scenarioWithFields(s, 0, { origin: [0, 0], cell: 0.1 }, grid).robot.pose.position).toEqual([50, 50]);
    // An origin left out stays out when it stays [0, 0].
    const bare = { terrain: { heightmaps: [{ cell: 1, heights: [[0, 0], [0, 0]] }] }, robot: { pose: { position: [0.5, 0.5] } } };
    const g = gridOf(bare.terrain.heightmaps[0]);
    expect(scenarioWithFields(bare, 0, { origin: [0, 0], cell: 2 }, g).terrain.heightmaps[0]).toEqual({ cell: 2, heights: [[0, 0], [0, 0]] });
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
