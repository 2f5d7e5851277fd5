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
// measured for each chunk, seen from the chunk's distance with the view's
// focal length: setHeightmapDetail). Before the field is drawn, the chunks in
// view pick their level and, only when a pick changed, their index lists are
// copied into the mesh's one index buffer: the whole field is one draw call (a
// draw call costs about as much as a few hundred triangles in software
// rendering), and nothing else of it changes from frame to frame. Chunks of
// the same size with the same inner edges share their layout and index lists.
// Each chunk's vertices are a block of the field's arrays (positions relative
// to the field's centre, so 32-bit floats stay precise far from the origin;
// normals as 16-bit and colours as 8-bit normalized integers, four to a
// vertex). Normals come from the same central differences as the slope
// colours, so they agree across chunk seams, and skirts hanging from the
// chunks' inner edges hide the cracks where two chunks of different levels
// meet.
//
// A field is made at once (every chunk's block holds all its samples and its
// levels are all measured) or, for a large field on the page, progressively
// (heightmapObject's `progressive`): nothing of a chunk is made before it is
// first in view; then its height range and the errors of the levels its
// distance asks about are measured, and it gets a block of only the samples
// its level keeps, a finer one when it is seen from nearer (its old block is
// left unused). The first view so costs the vertices it draws, not the
// field's millions (a 2049² field at full detail holds 110 MB of vertices).
// The other chunks' levels are measured after the first view, in slices of
// at most SLICE_MS between the page's other tasks. The arrays start small
// and double when full, with a new geometry on them; a block made later is
// uploaded as a range of the buffers.
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
/** The longest slice of a progressive field's background work (ms). */
const SLICE_MS = 8;
/** Fields of more samples than this are made progressively when asked (smaller ones take a few tens of ms at once). */
const PROGRESSIVE_SAMPLES = 513 * 513;
/** The vertices a progressive field's arrays first have room for (they double when full): 3 MB. */
const PROGRESSIVE_VERTICES = 1 << 17;

// Normals are stored as normalized 16-bit integers and colours as normalized 8-bit ones, four
// to a vertex (the normal's fourth 0, the colour's opaque): formats the GPU reads as they are.
const SHORT = 32767;
const BYTE = 255;
const ITEM = 4;  // numbers a vertex in the normal and colour arrays

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

/** Layouts by size and inner edges (layoutOf): shared by every chunk and field of that shape. */
const layouts = new Map();

/**
 * The layout of a chunk of w × h samples with inner edges `inner` ([south, north, west, east]:
 * whether a neighbour lies there). Its levels: each stride that drops cells of the finer level
 * before, with the columns and rows of samples it keeps (chunk-local), its index count (`size`),
 * how many of them are the surface's, and its index list into the chunk's block of every sample
 * (`index`, made when first asked for; see blockOf).
 */
function layoutOf(w, h, inner) {
  const key = `${w} ${h} ${inner.map(Number).join('')}`;
  if (layouts.has(key)) return layouts.get(key);
  const [south, north, west, east] = inner;
  // Each inner edge, and which way its skirt faces: away from the chunk, towards the neighbour
  // from whose side a crack under this chunk's edge can be seen.
  const edges = [];
  if (south) edges.push({ along: 'i', fixed: 0, out: -1 });
  if (north) edges.push({ along: 'i', fixed: h - 1, out: 1 });
  if (west) edges.push({ along: 'j', fixed: 0, out: -1 });
  if (east) edges.push({ along: 'j', fixed: w - 1, out: 1 });
  const layout = { w, h, edges, levels: [], blocks: new Map() };
  const cells = (n, stride) => Math.ceil(n / stride);
  STRIDES.forEach((stride, level) => {
    const finer = STRIDES[level - 1];
    if (level > 0 && cells(w - 1, stride) * cells(h - 1, stride) >= cells(w - 1, finer) * cells(h - 1, finer)) return;
    const cols = kept(0, w - 1, stride);
    const rows = kept(0, h - 1, stride);
    const surface = (rows.length - 1) * (cols.length - 1) * 6;
    const skirts = edges.reduce((n, e) => n + ((e.along === 'i' ? cols : rows).length - 1) * 6, 0);
    layout.levels.push({
      level,
      stride,
      cols,
      rows,
      surface,
      size: surface + skirts,
      get index() {
        return levelIndex(layout, blockOf(layout, 1), this);
      },
    });
  });
  layouts.set(key, layout);
  return layout;
}

/**
 * The block of vertices of a chunk of `layout` that holds the samples its level of `stride` keeps:
 * those samples (`cols` × `rows`, chunk-local, row by row: bw × bh), then a skirt vertex under each
 * of them on an inner edge (the field's own edges have its sides); `count` vertices in all.
 * `skirtTop`: the sample (block-local) each skirt vertex hangs from, `skirtOf`: each sample's skirt
 * vertex (−1: none). The block of stride 1 holds every sample, so sample (i, j) is vertex j·w + i.
 */
function blockOf(layout, stride) {
  if (layout.blocks.has(stride)) return layout.blocks.get(stride);
  const { w, h, edges } = layout;
  const cols = kept(0, w - 1, stride);
  const rows = kept(0, h - 1, stride);
  const [bw, bh] = [cols.length, rows.length];
  const skirtTop = [];
  const skirtOf = new Int32Array(bw * bh).fill(-1);
  for (const e of edges) {
    const fixed = e.fixed === 0 ? 0 : (e.along === 'i' ? bh : bw) - 1;
    for (let k = 0, n = e.along === 'i' ? bw : bh; k < n; k++) {
      const top = e.along === 'i' ? fixed * bw + k : k * bw + fixed;
      if (skirtOf[top] < 0) {
        skirtOf[top] = bw * bh + skirtTop.length;
        skirtTop.push(top);
      }
    }
  }
  const block = { stride, cols, rows, bw, bh, skirtTop, skirtOf, count: bw * bh + skirtTop.length, indices: new Map() };
  layout.blocks.set(stride, block);
  return block;
}

/**
 * The index list (block-local) of `level` of `layout` drawn from `block` (of the level's stride or
 * a finer one): the level's cells' triangles, then its skirts.
 */
function levelIndex(layout, block, level) {
  if (block.indices.has(level.stride)) return block.indices.get(level.stride);
  const { edges } = layout;
  const { bw, bh, skirtOf } = block;
  const step = level.stride / block.stride;
  // The block's column (row) of a sample the level keeps: every step-th, and the last.
  const colOf = (c) => (c === level.cols.length - 1 ? bw - 1 : c * step);
  const rowOf = (r) => (r === level.rows.length - 1 ? bh - 1 : r * step);
  const cols = level.cols.map((x, c) => colOf(c));
  const rows = level.rows.map((x, r) => rowOf(r));
  const index = new Uint16Array(level.size);
  let n = 0;
  for (let r = 0; r + 1 < rows.length; r++)
    for (let c = 0; c + 1 < cols.length; c++) {
      const a = rows[r] * bw + cols[c];
      const b = rows[r] * bw + cols[c + 1];
      const d = rows[r + 1] * bw + cols[c];
      const e = rows[r + 1] * bw + cols[c + 1];
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
    const fixed = e.fixed === 0 ? 0 : (e.along === 'i' ? bh : bw) - 1;
    // p → q runs along +x or +y; (p, sp, sq) faces −y on a row, +x on a column.
    const outwards = e.along === 'i' ? e.out < 0 : e.out > 0;
    for (let s = 0; s + 1 < line.length; s++) {
      const p = e.along === 'i' ? fixed * bw + line[s] : line[s] * bw + fixed;
      const q = e.along === 'i' ? fixed * bw + line[s + 1] : line[s + 1] * bw + fixed;
      const [sp, sq] = [skirtOf[p], skirtOf[q]];
      index[n] = p;
      index[n + 3] = p;
      if (outwards) [index[n + 1], index[n + 2], index[n + 4], index[n + 5]] = [sp, sq, sq, q];
      else [index[n + 1], index[n + 2], index[n + 4], index[n + 5]] = [sq, sp, q, sq];
      n += 6;
    }
  }
  block.indices.set(level.stride, index);
  return index;
}

/** The lowest and highest sample of a chunk (m), found once. */
function rangeOf(field, chunk) {
  if (chunk.low !== null) return;
  const { heights, nx } = field.f;
  const [i0, i1, j0, j1] = chunk.cells;
  let low = Infinity;
  let high = -Infinity;
  for (let j = j0; j <= j1; j++)
    for (let at = j * nx + i0, end = j * nx + i1; at <= end; at++) {
      const z = heights[at];
      if (z < low) low = z;
      if (z > high) high = z;
    }
  [chunk.low, chunk.high] = [low, high];
}

/** The levelError of level `k` of a chunk (m), measured when first asked for. */
function errorOf(field, chunk, k) {
  const { level, stride } = chunk.levels[k];
  chunk.errors[level] ??= levelError(field.f, chunk.cells, stride);
  return chunk.errors[level];
}

/** Measures every level of a chunk, and from where each is shown (levelDistances). */
function measureAll(field, chunk) {
  if (chunk.measured) return;
  for (let k = 1; k < chunk.levels.length; k++) errorOf(field, chunk, k);
  chunk.measured = true;
  levelDistances(chunk, field.focalPx);
}

/**
 * Readies a chunk for its vertices: the height ranges of it and of its neighbours across its inner
 * edges, its skirts' depth (m) and the height they stop at (`floor`, m), and the sphere around it
 * and its skirts (field-local).
 */
function prepare(field, chunk) {
  if (chunk.skirt !== null) return;
  const { chunks, columns } = field;
  const c = chunk.number;
  const [south, north, west, east] = chunk.inner;
  const near = [chunk];
  if (south) near.push(chunks[c - columns]);
  if (north) near.push(chunks[c + columns]);
  if (west) near.push(chunks[c - 1]);
  if (east) near.push(chunks[c + 1]);
  for (const n of near) rangeOf(field, n);
  // Two chunks' edges differ by at most the sum of their errors, and a chunk's errors by at most
  // its height range: skirts twice the largest range of the chunk and its neighbours close every crack.
  chunk.skirt = 2 * Math.max(...near.map((n) => n.high - n.low)) + 1e-3;
  // No edge of these chunks lies lower: nor need their skirts (which so stay above the field's base).
  chunk.floor = Math.min(...near.map((n) => n.low)) - 1e-3;
  chunk.centre.z = (chunk.low + chunk.high) / 2 - field.centre.z;
  chunk.radius = Math.hypot(chunk.halfDiagonal, (chunk.high - chunk.low) / 2 + chunk.skirt);
}

/**
 * Writes the colours of the block of `chunk` by the field's mode: by height within the field's
 * [low, high] ('height') or by the slope there, its angle from the vertex normal ('slope': flat
 * green, 45° and steeper red). Skirt vertices take the colour of the sample they hang from.
 */
function colourBlock(field, chunk) {
  const { f, arrays, low, high, mode } = field;
  const { normals, colors } = arrays;
  const { heights, nx } = f;
  const { cols, rows, bw, skirtTop } = chunk.block;
  const [i0, , j0] = chunk.cells;
  const slope = mode === 'slope';
  const span = high > low ? high - low : 0;
  const [from, to] = slope ? [FLAT, STEEP] : [LOW, HIGH];
  const [r0, g0, b0] = [from.r * BYTE, from.g * BYTE, from.b * BYTE];
  const [dr, dg, db] = [(to.r - from.r) * BYTE, (to.g - from.g) * BYTE, (to.b - from.b) * BYTE];
  const steep = 4 / Math.PI;  // 1 at 45°
  for (let r = 0; r < rows.length; r++) {
    const row = (j0 + rows[r]) * nx + i0;
    const first = chunk.first + r * bw;
    for (let c = 0; c < cols.length; c++) {
      const k = ITEM * (first + c);
      const t = slope ? Math.min(1, Math.acos(Math.min(1, normals[k + 2] / SHORT)) * steep) : span > 0 ? (heights[row + cols[c]] - low) / span : 0.5;
      colors[k] = Math.round(r0 + t * dr);
      colors[k + 1] = Math.round(g0 + t * dg);
      colors[k + 2] = Math.round(b0 + t * db);
      colors[k + 3] = BYTE;
    }
  }
  const under = chunk.first + bw * rows.length;
  skirtTop.forEach((top, k) => colors.copyWithin(ITEM * (under + k), ITEM * (chunk.first + top), ITEM * (chunk.first + top + 1)));
}

/**
 * Gives `chunk` a block of vertices that holds `level` (see blockOf), unless it has one as fine:
 * its place in the field's arrays (made larger when full), and its positions (relative to the
 * field's centre), normals (from central differences, one-sided at the field's edges), colours
 * and skirt vertices. Strides are powers of two, so a finer block holds every coarser level.
 */
function fillChunk(field, chunk, level) {
  if (chunk.filled <= level.stride) return;
  prepare(field, chunk);
  const block = blockOf(chunk.layout, level.stride);
  chunk.first = allocate(field, block.count);
  chunk.count = block.count;
  chunk.block = block;
  chunk.filled = level.stride;
  const { f, arrays, centre } = field;
  const { positions, normals } = arrays;
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const { heights, nx, ny } = f;
  const [i0, , j0] = chunk.cells;
  const { cols, rows, bw, skirtTop } = block;
  const perDx = 1 / dx;
  const halfPerDx = 1 / (2 * dx);
  for (let r = 0; r < rows.length; r++) {
    const j = j0 + rows[r];
    const up = j < ny - 1 ? j + 1 : j;
    const down = j > 0 ? j - 1 : j;
    const gyScale = 1 / ((up - down) * dy);
    const rowUp = up * nx;
    const rowDown = down * nx;
    const row = j * nx;
    const y = oy + j * dy - centre.y;
    const first = chunk.first + r * bw;
    for (let c = 0; c < cols.length; c++) {
      const i = i0 + cols[c];
      const v = first + c;
      const right = i < nx - 1 ? i + 1 : i;
      const left = i > 0 ? i - 1 : i;
      positions[3 * v] = ox + i * dx - centre.x;
      positions[3 * v + 1] = y;
      positions[3 * v + 2] = heights[row + i] - centre.z;
      const gx = (heights[row + right] - heights[row + left]) * (right - left === 2 ? halfPerDx : perDx);
      const gy = (heights[rowUp + i] - heights[rowDown + i]) * gyScale;
      const n = 1 / Math.sqrt(gx * gx + gy * gy + 1);  // (Math.hypot is several times slower)
      const m = ITEM * v;
      normals[m] = Math.round(-gx * n * SHORT);
      normals[m + 1] = Math.round(-gy * n * SHORT);
      normals[m + 2] = Math.round(n * SHORT);
    }
  }
  const under = chunk.first + bw * rows.length;
  skirtTop.forEach((top, k) => {
    const [v, t] = [under + k, chunk.first + top];
    positions[3 * v] = positions[3 * t];
    positions[3 * v + 1] = positions[3 * t + 1];
    positions[3 * v + 2] = Math.max(positions[3 * t + 2] - chunk.skirt, chunk.floor - centre.z);
    normals.copyWithin(ITEM * v, ITEM * t, ITEM * (t + 1));
  });
  colourBlock(field, chunk);
  const geometry = field.mesh?.geometry;
  if (geometry && geometry.getAttribute('position').array === positions) {
    // The mesh's buffers hold the arrays: the block's range of them is uploaded again.
    for (const [name, item] of [['position', 3], ['normal', ITEM], ['color', ITEM]]) {
      const attribute = geometry.getAttribute(name);
      attribute.addUpdateRange(item * chunk.first, item * chunk.count);
      attribute.needsUpdate = true;
    }
  }
}

/**
 * The first of `count` vertices taken from the field's arrays, after those taken before; arrays
 * too small are replaced by ones twice as large (or as large as needed), and the mesh's geometry
 * by one on them (see fieldGeometry).
 */
function allocate(field, count) {
  const first = field.used;
  field.used += count;
  const capacity = field.arrays.positions.length / 3;
  if (field.used <= capacity) return first;
  const size = Math.max(2 * capacity, field.used);
  const old = field.arrays;
  field.arrays = { positions: new Float32Array(3 * size), normals: new Int16Array(ITEM * size), colors: new Uint8Array(ITEM * size) };
  field.arrays.positions.set(old.positions.subarray(0, 3 * first));
  field.arrays.normals.set(old.normals.subarray(0, ITEM * first));
  field.arrays.colors.set(old.colors.subarray(0, ITEM * first));
  if (field.mesh) {
    const previous = field.mesh.geometry;
    field.mesh.geometry = fieldGeometry(field);
    previous.dispose();
    field.stale = true;  // the picks' index lists are gathered into the new geometry
  }
  return first;
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

/** Sets from where each level of a measured chunk is shown, for a view of focal length `focalPx` (pixels). */
function levelDistances(chunk, focalPx) {
  if (!chunk.measured) return;
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

/** Whether the sphere around `chunk` (its bounds so far) meets the frustum. */
function inView(mesh, chunk) {
  sphere.center.copy(chunk.centre).applyMatrix4(mesh.matrixWorld);
  sphere.radius = chunk.radius;
  return frustum.intersectsSphere(sphere);
}

/**
 * Picks each chunk's level for `camera` (none for a chunk out of its view), writes the vertices
 * a pick needs and a progressive field has not made yet, and, if any pick changed, gathers their
 * index lists into the mesh's index buffer. Runs before the field is drawn (onBeforeRender, and
 * pickHeightmapLevels before a view is drawn, so that vertices made here are uploaded with it);
 * returns whether the index changed.
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
    let pick = -1;
    // A chunk not yet prepared is tested with bounds that hold whatever its heights (made in fieldMesh), then with its own.
    let seen = inView(mesh, chunk);
    if (seen && chunk.skirt === null) {
      prepare(field, chunk);
      seen = inView(mesh, chunk);
    }
    if (seen) {
      const distance = eye.distanceTo(chunk.centre) / zoom;
      const last = chunk.levels.length - 1;
      if (chunk.measured) {
        pick = 0;
        while (pick < last && distance >= chunk.distances[pick + 1]) pick++;
      } else {
        // Not yet measured (a progressive field): the coarsest level whose own error looks smaller
        // than ERROR_PX, measuring from the coarsest on; every error is within the chunk's height
        // range, so from far enough off the coarsest is shown without measuring it.
        const within = (error) => distance >= chunk.halfDiagonal + (error * field.focalPx) / ERROR_PX;
        pick = last;
        if (!within(chunk.high - chunk.low)) while (pick > 0 && !within(errorOf(field, chunk, pick))) pick--;
      }
      fillChunk(field, chunk, chunk.levels[pick]);
      total += chunk.levels[pick].size;
    }
    if (picks[c] !== pick) changed = true;
    picks[c] = pick;
  });
  if (field.next < field.chunks.length) schedule(field);
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
    const local = levelIndex(chunk.layout, chunk.block, chunk.levels[picks[c]]);
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

/**
 * Works through the chunks of a field from `field.next` on, for at most `ms` (Infinity: all): a
 * field made at once gets every chunk's block of every sample; both get their chunks' levels
 * measured, so that picking them later costs little.
 */
function workThrough(field, ms = Infinity) {
  const end = performance.now() + ms;
  while (field.next < field.chunks.length && performance.now() < end) {
    const chunk = field.chunks[field.next++];
    if (!field.progressive) fillChunk(field, chunk, chunk.levels[0]);
    prepare(field, chunk);
    measureAll(field, chunk);
  }
}

/** Runs the rest of a progressive field's work in slices (SLICE_MS), each in a task of its own, until it is done or the field dropped. */
function schedule(field) {
  if (field.scheduled || field.dropped || field.next >= field.chunks.length) return;
  field.scheduled = true;
  setTimeout(() => {
    field.scheduled = false;
    if (field.dropped) return;
    workThrough(field, SLICE_MS);
    schedule(field);
  }, 0);
}

/** The material of the fields' surfaces. Lambert: matte ground at a fraction of the physically based material's cost per pixel. */
const surfaceMaterial = () => new THREE.MeshLambertMaterial({ vertexColors: true });
/** The material of a field's sides, in `color`. */
const sidesMaterial = (color) => new THREE.MeshLambertMaterial({ color, side: THREE.DoubleSide });

/** The geometry of a field's surface on its arrays (positions, normals, colours), drawing nothing until its levels are picked. */
function fieldGeometry(field) {
  const { arrays } = field;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(arrays.positions, 3));
  geometry.setAttribute('normal', new THREE.BufferAttribute(arrays.normals, ITEM, true));
  geometry.setAttribute('color', new THREE.BufferAttribute(arrays.colors, ITEM, true));
  geometry.boundingBox = new THREE.Box3(field.half.clone().negate(), field.half);
  geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
  geometry.setDrawRange(0, 0);
  // Disposed while on the mesh: the field is off the stage, and its background work stops.
  geometry.addEventListener('dispose', () => {
    if (field.mesh?.geometry === geometry) field.dropped = true;
  });
  return geometry;
}

/**
 * One field's mesh (and its chunks, in `fields`): made at once, each chunk with its block of every
 * sample (sample (i, j) of chunk [i0, i1, j0, j1] at vertex first + (j − j0)·(i1 − i0 + 1) + i − i0),
 * or progressively (see the top of this file).
 */
function fieldMesh(f, index, mode, focalPx, material, progressive) {
  const [low, high] = heightRange(f);
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const centre = new THREE.Vector3(ox + ((f.nx - 1) * dx) / 2, oy + ((f.ny - 1) * dy) / 2, (low + high) / 2);
  // Errors lie within the field's height range, skirts within twice it: bounds for a chunk not yet measured.
  const span = (high - low) / 2 + 2 * (high - low) + 1e-3;
  const columns = Math.ceil((f.nx - 1) / CHUNK);
  const chunks = [];
  let vertices = 0;  // of every chunk's block of every sample
  for (let j0 = 0; j0 < f.ny - 1; j0 += CHUNK)
    for (let i0 = 0; i0 < f.nx - 1; i0 += CHUNK) {
      const cells = [i0, Math.min(i0 + CHUNK, f.nx - 1), j0, Math.min(j0 + CHUNK, f.ny - 1)];
      const inner = [j0 > 0, cells[3] < f.ny - 1, i0 > 0, cells[1] < f.nx - 1];
      const layout = layoutOf(cells[1] - i0 + 1, cells[3] - j0 + 1, inner);
      const half = [((layout.w - 1) * dx) / 2, ((layout.h - 1) * dy) / 2];
      vertices += blockOf(layout, 1).count;
      chunks.push({
        number: chunks.length,
        cells,
        inner,
        layout,
        levels: layout.levels,
        // Where the chunk is (field-local, mid-height) and a sphere around it and its skirts (prepare).
        centre: new THREE.Vector3(ox + ((i0 + cells[1]) / 2) * dx - centre.x, oy + ((j0 + cells[3]) / 2) * dy - centre.y, 0),
        radius: Math.hypot(...half, span),
        halfDiagonal: Math.hypot(...half),
        low: null,  // its lowest and highest sample (rangeOf)
        high: null,
        errors: STRIDES.map((s, level) => (level === 0 ? 0 : undefined)),  // of its levels (errorOf)
        measured: false,  // every level (measureAll)
        skirt: null,  // prepare(), and floor
        floor: null,
        distances: layout.levels.map(() => 0),  // from where each level is shown (levelDistances)
        block: null,  // its vertices (fillChunk): `count` of them from `first` on, its samples of stride `filled`
        first: 0,
        count: 0,
        filled: Infinity,
      });
    }
  progressive &&= f.nx * f.ny > PROGRESSIVE_SAMPLES;
  const capacity = progressive ? PROGRESSIVE_VERTICES : vertices;
  const field = {
    f,
    arrays: { positions: new Float32Array(3 * capacity), normals: new Int16Array(ITEM * capacity), colors: new Uint8Array(ITEM * capacity) },
    used: 0,  // vertices taken (allocate)
    half: new THREE.Vector3(((f.nx - 1) * dx) / 2, ((f.ny - 1) * dy) / 2, span),
    centre,
    low,
    high,
    mode,
    focalPx,
    chunks,
    columns,
    progressive,
    picks: new Int8Array(chunks.length).fill(-1),
    stale: true,
    next: 0,  // the first chunk workThrough has not done
    mesh: null,
  };
  if (!progressive) workThrough(field);
  const mesh = new THREE.Mesh(fieldGeometry(field), material);
  mesh.name = `heightmap[${index}]`;
  mesh.userData = { kind: 'heightmap', index, mode, chunks: chunks.length };
  mesh.position.copy(centre);
  // The field stands still: its matrix is computed once, not every frame.
  mesh.matrixAutoUpdate = false;
  mesh.updateMatrix();
  mesh.frustumCulled = false;  // the chunks are culled one by one (pickLevels)
  field.mesh = mesh;
  fields.set(mesh, field);
  mesh.onBeforeRender = (renderer, scene, camera) => pickLevels(mesh, camera);
  return mesh;
}

/**
 * A group with a mesh (userData.kind 'heightmap', userData.chunks: how many) and sides for each
 * heightmap; `mode` colours by 'height' or 'slope'; `focalPx`: the view's focal length (setHeightmapDetail).
 * `progressive`: the vertices of a field of more than PROGRESSIVE_SAMPLES samples are made as its
 * chunks are first drawn, the rest after (see the top of this file); otherwise they are made here.
 */
export function heightmapObject(list, mode = 'height', focalPx = DEFAULT_FOCAL_PX, { progressive = false } = {}) {
  const group = new THREE.Group();
  group.name = 'heightmaps';
  const material = surfaceMaterial();
  list.forEach((f, index) => {
    group.add(fieldMesh(f, index, mode, focalPx, material, progressive));
    const sides = new THREE.Mesh(sidesGeometry(f), sidesMaterial(f.color));
    sides.name = `heightmap[${index}].sides`;
    sides.matrixAutoUpdate = false;
    group.add(sides);
  });
  return group;
}

/**
 * Two meshes that draw nothing, with the materials and vertex formats of a field's surface and
 * sides: kept on the stage, they keep those shader programs compiled for the stage's lights and
 * shadows, so that the first heightmap shown does not wait for them to compile.
 */
export function heightmapPrograms() {
  const group = new THREE.Group();
  group.name = 'heightmap-programs';
  const surface = new THREE.BufferGeometry();
  surface.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
  surface.setAttribute('normal', new THREE.BufferAttribute(new Int16Array(3 * ITEM), ITEM, true));
  surface.setAttribute('color', new THREE.BufferAttribute(new Uint8Array(3 * ITEM), ITEM, true));
  surface.setIndex(new THREE.BufferAttribute(new Uint32Array(3), 1));
  const sides = new THREE.BufferGeometry();
  sides.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
  sides.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(9), 3));
  sides.setIndex([0, 1, 2]);
  for (const [geometry, material] of [[surface, surfaceMaterial()], [sides, sidesMaterial(0x808080)]]) {
    geometry.setDrawRange(0, 0);
    const mesh = new THREE.Mesh(geometry, material);
    mesh.frustumCulled = false;
    mesh.receiveShadow = true;
    group.add(mesh);
  }
  return group;
}

/**
 * The chunks of a field mesh from heightmapObject: { cells, first, count (its block of vertices),
 * levels: [{ stride, index (into a block of every sample), surface }], distances, … }.
 */
export const heightmapChunks = (mesh) => fields.get(mesh)?.chunks ?? [];

/** Picks the levels of the heightmaps under `root` for `camera` (pickLevels): run before the view is drawn. */
export function pickHeightmapLevels(root, camera) {
  root.traverse((mesh) => {
    if (fields.has(mesh)) pickLevels(mesh, camera);
  });
}

/**
 * Fits the levels of detail of the heightmaps under `root` to a view whose focal length is
 * `focalPx` drawing-buffer pixels (half its height over the tangent of half its vertical field
 * of view): finer levels for a larger or sharper view.
 */
export function setHeightmapDetail(root, focalPx) {
  root.traverse((mesh) => {
    const field = fields.get(mesh);
    if (!field) return;
    field.focalPx = focalPx;
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
    field.mode = mode;
    for (const chunk of field.chunks) if (chunk.block) colourBlock(field, chunk);
    const colours = mesh.geometry.getAttribute('color');
    colours.clearUpdateRanges();  // all of it
    colours.needsUpdate = true;
    mesh.userData.mode = mode;
    changed++;
  });
  return changed;
}
