// three.js objects for heightmaps as the core returns them:
// { origin: [x, y], cell: [dx, dy], nx, ny, base, color: 0xRRGGBB, heights: Float32Array }
// (sample (i, j) at origin + (i·dx, j·dy), height heights[j·nx + i], metres).
// A field is one mesh, made of chunks of at most CHUNK × CHUNK cells, the
// cells split along the diagonal the core uses, and its sides down to its
// base. Coloured by height (low dark, high light) or by slope (flat green,
// steep red), and coloured again in place when the view asks for the other
// (recolourHeightmaps).
//
// Each chunk has levels of detail: every sample near the camera, every 2nd,
// 4th, 8th or 16th farther away, where the coarser surface departs from the
// samples by less than a pixel of the drawing (its largest vertical error,
// measured when the chunk is made, seen from the chunk's distance with the
// view's focal length: setHeightmapDetail). Before the field is drawn, the
// chunks in view pick their level and, only when a pick changed, their index
// lists are copied into the mesh's one index buffer: the whole field is one
// draw call (a draw call costs about as much as a few hundred triangles in
// software rendering), and nothing else of it changes from frame to frame.
// The vertices (positions relative to the field's centre, so 32-bit floats
// stay precise far from the origin; normals and colours as 16-bit integers)
// are made once. Normals come from the same central differences as the slope
// colours, so they agree across chunk seams, and skirts hanging from the
// chunks' inner edges hide the cracks where two chunks of different levels meet.
import * as THREE from 'three';

/** Cells along each side of a chunk: 64² cells make 4.5 k vertices (with the skirts), within 16-bit
 * chunk-local indices; small enough that levels of detail follow the distance closely. */
export const CHUNK = 64;
/** Steps between the samples of each level of detail: every sample, every 2nd, … */
export const STRIDES = [1, 2, 4, 8, 16, 32, 64];
/** A coarser level is shown where its vertical error covers less than ERROR_PX pixels of the drawing (setHeightmapDetail). */
const ERROR_PX = 1;
/** The focal length (pixels) levels are chosen for until setHeightmapDetail says: an 830-pixel-high view at 45°. */
export const DEFAULT_FOCAL_PX = 1000;

// Normals and colours are stored as normalized 16-bit integers: 12 bytes a vertex instead of 24.
const SHORT = 32767;
const WORD = 65535;

const LOW = new THREE.Color(0x4f5a46);
const HIGH = new THREE.Color(0xd8d0b8);
const FLAT = new THREE.Color(0x5f8f4a);
const STEEP = new THREE.Color(0xb0463a);

/** Each field mesh's chunks and state (see fieldMesh), to pick levels and colour it again. */
const fields = new WeakMap();

/** The columns (or rows) of samples a level of `stride` keeps of [first, last]: every stride-th, and the last. */
function kept(first, last, stride) {
  const out = [];
  for (let k = first; k < last; k += stride) out.push(k);
  out.push(last);
  return out;
}

/**
 * The largest vertical distance (m) between the samples of cells [i0, i1] × [j0, j1] and the
 * surface of their level of `stride` (its cells split along the same diagonal).
 */
function levelError(f, [i0, i1, j0, j1], stride) {
  const { heights, nx } = f;
  const cols = kept(i0, i1, stride);
  const rows = kept(j0, j1, stride);
  let error = 0;
  for (let r = 0; r + 1 < rows.length; r++) {
    const [ra, rb] = [rows[r], rows[r + 1]];
    const dv = 1 / (rb - ra);
    for (let c = 0; c + 1 < cols.length; c++) {
      const [ca, cb] = [cols[c], cols[c + 1]];
      const du = 1 / (cb - ca);
      const h00 = heights[ra * nx + ca];
      const h10 = heights[ra * nx + cb];
      const h01 = heights[rb * nx + ca];
      const h11 = heights[rb * nx + cb];
      // Lower triangle (u ≥ v): (0,0), (1,0), (1,1); upper: (0,0), (1,1), (0,1).
      const [lowerU, lowerV, upperU, upperV] = [h10 - h00, h11 - h10, h11 - h01, h01 - h00];
      for (let j = ra; j <= rb; j++) {
        const v = (j - ra) * dv;
        const row = j * nx;
        for (let i = ca; i <= cb; i++) {
          const u = (i - ca) * du;
          const e = heights[row + i] - (u >= v ? h00 + u * lowerU + v * lowerV : h00 + u * upperU + v * upperV);
          if (e > error) error = e;
          else if (-e > error) error = -e;
        }
      }
    }
  }
  return error;
}

/**
 * Fills the colours of a chunk (`source`: its field, cells, height range, normals, skirt and
 * colour array) by `mode`: by height within [low, high] ('height') or by the slope there, its
 * angle from the vertex normal ('slope': flat green, 45° and steeper red). Skirt vertices take
 * the colour of the sample they hang from.
 */
function fillColours({ field, cells: [i0, i1, j0, j1], low, high, normals, colors, skirtTop }, mode) {
  const { heights, nx } = field;
  const slope = mode === 'slope';
  const span = high > low ? high - low : 0;
  const [from, to] = slope ? [FLAT, STEEP] : [LOW, HIGH];
  const [r0, g0, b0] = [from.r, from.g, from.b];
  const [dr, dg, db] = [to.r - from.r, to.g - from.g, to.b - from.b];
  const steep = 4 / Math.PI;  // 1 at 45°
  let k = 0;
  for (let j = j0; j <= j1; j++)
    for (let i = i0, at = j * nx + i0; i <= i1; i++, at++, k += 3) {
      const t = slope ? Math.min(1, Math.acos(Math.min(1, normals[k + 2] / SHORT)) * steep) : span > 0 ? (heights[at] - low) / span : 0.5;
      colors[k] = Math.round((r0 + t * dr) * WORD);
      colors[k + 1] = Math.round((g0 + t * dg) * WORD);
      colors[k + 2] = Math.round((b0 + t * db) * WORD);
    }
  for (const top of skirtTop) {
    colors[k] = colors[3 * top];
    colors[k + 1] = colors[3 * top + 1];
    colors[k + 2] = colors[3 * top + 2];
    k += 3;
  }
  return colors;
}

/**
 * Writes the samples [i0, i1] × [j0, j1] of field `f` row by row into `positions` (relative to
 * `centre`) and `normals` (from central differences, one-sided at the field's edges); returns the
 * lowest and highest height.
 */
function fillSamples(f, [i0, i1, j0, j1], centre, positions, normals) {
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const { heights, nx, ny } = f;
  const [perDx, halfPerDx] = [1 / dx, 1 / (2 * dx)];
  let low = Infinity;
  let high = -Infinity;
  let k = 0;
  for (let j = j0; j <= j1; j++) {
    const up = j < ny - 1 ? j + 1 : j;
    const down = j > 0 ? j - 1 : j;
    const gyScale = 1 / ((up - down) * dy);
    const [rowUp, rowDown, row] = [up * nx, down * nx, j * nx];
    const y = oy + j * dy - centre.y;
    for (let i = i0; i <= i1; i++, k += 3) {
      const right = i < nx - 1 ? i + 1 : i;
      const left = i > 0 ? i - 1 : i;
      const z = heights[row + i];
      if (z < low) low = z;
      if (z > high) high = z;
      positions[k] = ox + i * dx - centre.x;
      positions[k + 1] = y;
      positions[k + 2] = z - centre.z;
      const gx = (heights[row + right] - heights[row + left]) * (right - left === 2 ? halfPerDx : perDx);
      const gy = (heights[rowUp + i] - heights[rowDown + i]) * gyScale;
      const n = 1 / Math.sqrt(gx * gx + gy * gy + 1);  // (Math.hypot is several times slower)
      normals[k] = Math.round(-gx * n * SHORT);
      normals[k + 1] = Math.round(-gy * n * SHORT);
      normals[k + 2] = Math.round(n * SHORT);
    }
  }
  return [low, high];
}

/**
 * How chunk `cells` ([i0, i1, j0, j1] of field `f`) is laid out: its samples (w × h, row by row),
 * then a skirt vertex under each sample of an inner edge (the field's own edges have its sides);
 * `count` vertices in all. Its levels: those of `errors` (see chunkErrors), each with the columns
 * and rows it keeps, its index count (`size`) and how many of them are the surface's.
 */
function chunkLayout(f, cells, errors) {
  const [i0, i1, j0, j1] = cells;
  const w = i1 - i0 + 1;
  const h = j1 - j0 + 1;
  const at = (i, j) => (j - j0) * w + (i - i0);
  // Each inner edge, and which way its skirt faces: away from the chunk, towards the neighbour
  // from whose side a crack under this chunk's edge can be seen.
  const edges = [];
  if (j0 > 0) edges.push({ along: 'i', fixed: j0, out: -1 });
  if (j1 < f.ny - 1) edges.push({ along: 'i', fixed: j1, out: 1 });
  if (i0 > 0) edges.push({ along: 'j', fixed: i0, out: -1 });
  if (i1 < f.nx - 1) edges.push({ along: 'j', fixed: i1, out: 1 });
  const skirtTop = [];  // the sample each skirt vertex hangs from
  const skirtOf = new Map();  // sample → its skirt vertex
  for (const e of edges) {
    const [first, last] = e.along === 'i' ? [i0, i1] : [j0, j1];
    for (let k = first; k <= last; k++) {
      const top = e.along === 'i' ? at(k, e.fixed) : at(e.fixed, k);
      if (!skirtOf.has(top)) {
        skirtOf.set(top, w * h + skirtTop.length);
        skirtTop.push(top);
      }
    }
  }
  const levels = [];
  STRIDES.forEach((stride, level) => {
    if (errors[level] === undefined) return;
    const cols = kept(0, w - 1, stride);
    const rows = kept(0, h - 1, stride);
    const surface = (rows.length - 1) * (cols.length - 1) * 6;
    const skirts = edges.reduce((n, e) => n + ((e.along === 'i' ? cols : rows).length - 1) * 6, 0);
    levels.push({ level, stride, cols, rows, surface, size: surface + skirts });
  });
  return { cells, errors, w, h, at, edges, skirtTop, skirtOf, count: w * h + skirtTop.length, levels };
}

/**
 * One chunk of field `f` laid out by chunkLayout: its vertices written into the field's arrays
 * from vertex `first` on (positions relative to the field's `centre`), its levels' index lists
 * (chunk-local) taken from `take(n)`. Returns what picking its level needs.
 */
function chunkData(f, layout, { low, high, mode, skirt, centre, first, arrays, take }) {
  const { cells, errors, w, h, at, edges, skirtTop, skirtOf, count } = layout;
  const [i0, i1, j0, j1] = cells;
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const positions = arrays.positions.subarray(3 * first, 3 * (first + count));
  const normals = arrays.normals.subarray(3 * first, 3 * (first + count));
  const colors = arrays.colors.subarray(3 * first, 3 * (first + count));
  const [chunkLow, chunkHigh] = fillSamples(f, cells, centre, positions, normals);
  let k = 3 * w * h;
  for (const top of skirtTop) {
    positions[k] = positions[3 * top];
    positions[k + 1] = positions[3 * top + 1];
    positions[k + 2] = positions[3 * top + 2] - skirt;
    normals.copyWithin(k, 3 * top, 3 * top + 3);
    k += 3;
  }
  const source = { field: f, cells, low, high, normals, colors, skirtTop };
  fillColours(source, mode);
  const levels = layout.levels.map(({ level, stride, cols, rows, surface, size }) => {
    const index = take(size);
    let n = 0;
    for (let r = 0; r + 1 < rows.length; r++)
      for (let c = 0; c + 1 < cols.length; c++) {
        const a = rows[r] * w + cols[c];
        const b = rows[r] * w + cols[c + 1];
        const d = rows[r + 1] * w + cols[c];
        const e = rows[r + 1] * w + cols[c + 1];
        // lower (i, j), (i+1, j), (i+1, j+1); upper (i, j), (i+1, j+1), (i, j+1): CCW from above.
        index[n] = a;
        index[n + 1] = b;
        index[n + 2] = e;
        index[n + 3] = a;
        index[n + 4] = e;
        index[n + 5] = d;
        n += 6;
      }
    for (const e of edges) {
      const line = e.along === 'i' ? cols : rows;
      for (let s = 0; s + 1 < line.length; s++) {
        const p = e.along === 'i' ? at(i0 + line[s], e.fixed) : at(e.fixed, j0 + line[s]);
        const q = e.along === 'i' ? at(i0 + line[s + 1], e.fixed) : at(e.fixed, j0 + line[s + 1]);
        const [sp, sq] = [skirtOf.get(p), skirtOf.get(q)];
        // p → q runs along +x or +y; (p, sp, sq) faces −y on a row, +x on a column.
        const outwards = e.along === 'i' ? e.out < 0 : e.out > 0;
        index.set(outwards ? [p, sp, sq, p, sq, q] : [p, sq, sp, p, q, sq], n);
        n += 6;
      }
    }
    return { level, stride, index, surface };
  });
  // Where the chunk is (field-local, mid-height) and a sphere around it and its skirts.
  const middle = new THREE.Vector3(ox + ((i0 + i1) / 2) * dx - centre.x, oy + ((j0 + j1) / 2) * dy - centre.y, (chunkLow + chunkHigh) / 2 - centre.z);
  const half = [((w - 1) * dx) / 2, ((h - 1) * dy) / 2, (chunkHigh - chunkLow) / 2 + skirt];
  return {
    cells,
    first,
    count,
    centre: middle,
    radius: Math.hypot(...half),
    halfDiagonal: Math.hypot(half[0], half[1]),
    errors,
    levels,
    distances: levels.map(() => 0),  // from where each level is shown (levelDistances)
    source,
  };
}

/** The field's four sides, from its edge samples down to its base, in its colour. */
function sidesGeometry(f) {
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const rim = [];
  for (let i = 0; i < f.nx; i++) rim.push([i, 0]);
  for (let j = 1; j < f.ny; j++) rim.push([f.nx - 1, j]);
  for (let i = f.nx - 2; i >= 0; i--) rim.push([i, f.ny - 1]);
  for (let j = f.ny - 2; j >= 0; j--) rim.push([0, j]);
  const positions = new Float32Array(rim.length * 6);
  rim.forEach(([i, j], k) => {
    const x = ox + i * dx;
    const y = oy + j * dy;
    positions.set([x, y, f.heights[j * f.nx + i], x, y, f.base], k * 6);
  });
  const indices = [];
  for (let k = 0; k + 1 < rim.length; k++) {
    const a = 2 * k;
    // Counter-clockwise around the field: the outside is on the right, seen from outside CCW.
    indices.push(a, a + 1, a + 3, a, a + 3, a + 2);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setIndex(indices);
  geometry.computeVertexNormals();
  return geometry;
}

/** The lowest and highest sample of a field (m). */
export function heightRange(f) {
  let low = Infinity;
  let high = -Infinity;
  const { heights } = f;
  for (let k = 0; k < heights.length; k++) {
    const z = heights[k];
    if (z < low) low = z;
    if (z > high) high = z;
  }
  return [low, high];
}

/** The levelError of each stride that drops samples of the chunk (undefined for the others); level 0 is exact. */
function chunkErrors(f, [i0, i1, j0, j1]) {
  const cells = (n, stride) => Math.ceil(n / stride);
  return STRIDES.map((stride, level) => {
    if (level === 0) return 0;
    const finer = STRIDES[level - 1];
    const fewer = cells(i1 - i0, stride) * cells(j1 - j0, stride) < cells(i1 - i0, finer) * cells(j1 - j0, finer);
    return fewer ? levelError(f, [i0, i1, j0, j1], stride) : undefined;
  });
}

/** The chunks of a field: cells [i0, i1, j0, j1] each. */
function chunksOf(f) {
  const out = [];
  for (let j0 = 0; j0 < f.ny - 1; j0 += CHUNK)
    for (let i0 = 0; i0 < f.nx - 1; i0 += CHUNK) out.push([i0, Math.min(i0 + CHUNK, f.nx - 1), j0, Math.min(j0 + CHUNK, f.ny - 1)]);
  return out;
}

/** Sets from where each level of a chunk is shown, for a view of focal length `focalPx` (pixels). */
function levelDistances(chunk, focalPx) {
  let distance = 0;
  chunk.levels.forEach(({ level }, k) => {
    // From where its error looks smaller than ERROR_PX (measured from the chunk's centre, so from
    // half its diagonal farther), and never nearer than a finer level.
    if (level > 0) distance = Math.max(distance, chunk.halfDiagonal + (chunk.errors[level] * focalPx) / ERROR_PX);
    chunk.distances[k] = distance;
  });
}

const frustum = new THREE.Frustum();
const matrix = new THREE.Matrix4();
const eye = new THREE.Vector3();
const sphere = new THREE.Sphere();

/**
 * Picks each chunk's level for `camera` (none for a chunk out of its view) and, if any pick
 * changed, gathers their index lists into the mesh's index buffer. Runs before the field is
 * drawn (onBeforeRender); returns whether the index changed.
 */
export function pickLevels(mesh, camera) {
  const field = fields.get(mesh);
  mesh.updateWorldMatrix(true, false);
  matrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  frustum.setFromProjectionMatrix(matrix, camera.coordinateSystem);
  eye.setFromMatrixPosition(camera.matrixWorld);
  mesh.worldToLocal(eye);
  const zoom = camera.zoom ?? 1;
  const picks = field.picks;
  let changed = false;
  let total = 0;
  field.chunks.forEach((chunk, c) => {
    sphere.center.copy(chunk.centre).applyMatrix4(mesh.matrixWorld);
    sphere.radius = chunk.radius;
    let pick = -1;
    if (frustum.intersectsSphere(sphere)) {
      const distance = eye.distanceTo(chunk.centre) / zoom;
      pick = 0;
      while (pick + 1 < chunk.levels.length && distance >= chunk.distances[pick + 1]) pick++;
      total += chunk.levels[pick].index.length;
    }
    if (picks[c] !== pick) changed = true;
    picks[c] = pick;
  });
  if (!changed && !field.stale) return false;
  field.stale = false;
  const geometry = mesh.geometry;
  let index = geometry.index;
  if (!index || index.array.length < total) {
    // Room for the picks and more: the buffer grows seldom, and only then is made anew.
    index = new THREE.BufferAttribute(new Uint32Array(Math.max(2 * total, 1 << 16)), 1).setUsage(THREE.DynamicDrawUsage);
    geometry.setIndex(index);
  }
  const out = index.array;
  let n = 0;
  field.chunks.forEach((chunk, c) => {
    if (picks[c] < 0) return;
    const { index: local } = chunk.levels[picks[c]];
    const first = chunk.first;
    for (let k = 0; k < local.length; k++) out[n + k] = local[k] + first;
    n += local.length;
  });
  index.clearUpdateRanges();
  index.addUpdateRange(0, n);
  index.needsUpdate = true;
  geometry.setDrawRange(0, n);
  // What is drawn: chunks, triangles, and each chunk's step between samples (0: out of view).
  const strides = Array.from(picks, (p, c) => (p < 0 ? 0 : field.chunks[c].levels[p].stride));
  mesh.userData.drawn = { chunks: strides.filter((s) => s > 0).length, triangles: n / 3, strides };
  return true;
}

/** One field's mesh (and its chunks, in `fields`). */
function fieldMesh(f, index, mode, focalPx, material) {
  const [low, high] = heightRange(f);
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const centre = new THREE.Vector3(ox + ((f.nx - 1) * dx) / 2, oy + ((f.ny - 1) * dy) / 2, (low + high) / 2);
  const layouts = chunksOf(f).map((cells) => chunkLayout(f, cells, chunkErrors(f, cells)));
  // Two chunks' edges differ by at most the sum of their errors: skirts that deep close every crack.
  const worst = Math.max(0, ...layouts.flatMap(({ errors }) => errors.filter((e) => e !== undefined)));
  const skirt = 2 * worst + 1e-3;
  const vertices = layouts.reduce((n, l) => n + l.count, 0);
  const arrays = { positions: new Float32Array(3 * vertices), normals: new Int16Array(3 * vertices), colors: new Uint16Array(3 * vertices) };
  const indices = new Uint16Array(layouts.reduce((n, l) => n + l.levels.reduce((m, level) => m + level.size, 0), 0));
  let used = 0;
  const take = (n) => indices.subarray(used, (used += n));
  let first = 0;
  const chunks = layouts.map((layout) => {
    const chunk = chunkData(f, layout, { low, high, mode, skirt, centre, first, arrays, take });
    first += layout.count;
    levelDistances(chunk, focalPx);
    return chunk;
  });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(arrays.positions, 3));
  geometry.setAttribute('normal', new THREE.BufferAttribute(arrays.normals, 3, true));
  geometry.setAttribute('color', new THREE.BufferAttribute(arrays.colors, 3, true));
  const half = new THREE.Vector3(((f.nx - 1) * dx) / 2, ((f.ny - 1) * dy) / 2, (high - low) / 2 + skirt);
  geometry.boundingBox = new THREE.Box3(half.clone().negate(), half);
  geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
  geometry.setDrawRange(0, 0);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.name = `heightmap[${index}]`;
  mesh.userData = { kind: 'heightmap', index, mode, chunks: chunks.length };
  mesh.position.copy(centre);
  // The field stands still: its matrix is computed once, not every frame.
  mesh.matrixAutoUpdate = false;
  mesh.updateMatrix();
  mesh.frustumCulled = false;  // the chunks are culled one by one (pickLevels)
  fields.set(mesh, { chunks, picks: new Int8Array(chunks.length).fill(-1), stale: true });
  mesh.onBeforeRender = (renderer, scene, camera) => pickLevels(mesh, camera);
  return mesh;
}

/**
 * A group with a mesh (userData.kind 'heightmap', userData.chunks: how many) and sides for each
 * heightmap; `mode` colours by 'height' or 'slope'; `focalPx`: the view's focal length (setHeightmapDetail).
 */
export function heightmapObject(list, mode = 'height', focalPx = DEFAULT_FOCAL_PX) {
  const group = new THREE.Group();
  group.name = 'heightmaps';
  // Lambert: matte ground at a fraction of the physically based material's cost per pixel.
  const material = new THREE.MeshLambertMaterial({ vertexColors: true });
  list.forEach((f, index) => {
    group.add(fieldMesh(f, index, mode, focalPx, material));
    const sides = new THREE.Mesh(sidesGeometry(f), new THREE.MeshStandardMaterial({ color: f.color, roughness: 0.9, side: THREE.DoubleSide }));
    sides.name = `heightmap[${index}].sides`;
    sides.matrixAutoUpdate = false;
    group.add(sides);
  });
  return group;
}

/** The chunks of a field mesh from heightmapObject: { cells, first, count, levels: [{ stride, index, surface }], distances, … }. */
export const heightmapChunks = (mesh) => fields.get(mesh)?.chunks ?? [];

/**
 * Fits the levels of detail of the heightmaps under `root` to a view whose focal length is
 * `focalPx` drawing-buffer pixels (half its height over the tangent of half its vertical field
 * of view): finer levels for a larger or sharper view.
 */
export function setHeightmapDetail(root, focalPx) {
  root.traverse((mesh) => {
    const field = fields.get(mesh);
    if (!field) return;
    for (const chunk of field.chunks) levelDistances(chunk, focalPx);
    field.stale = true;
  });
}

/**
 * Colours the heightmaps under `root` (made by heightmapObject) by `mode` ('height' or 'slope')
 * in place: their colour attributes are filled again and uploaded, nothing else is made.
 * Returns the fields coloured anew.
 */
export function recolourHeightmaps(root, mode) {
  let changed = 0;
  root.traverse((mesh) => {
    const field = fields.get(mesh);
    if (!field || mesh.userData.mode === mode) return;
    for (const chunk of field.chunks) fillColours(chunk.source, mode);
    mesh.geometry.getAttribute('color').needsUpdate = true;
    mesh.userData.mode = mode;
    changed++;
  });
  return changed;
}
