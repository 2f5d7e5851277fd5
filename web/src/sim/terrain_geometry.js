// The whole terrain as one triangle mesh and one set of outline segments, in
// plain typed arrays (no three.js), so that the worker can prepare it and the
// page only uploads it: a terrain of thousands of pieces is then one draw call
// for its faces and one for its outlines instead of two per piece.
//
// Input: the pieces as the core returns them, { kind, color: 0xRRGGBB,
// vertices: Float32Array (x, y, z)…, indices: Uint32Array } with triangles CCW
// seen from outside. Output (mergeTerrain):
//   { positions: Float32Array, colors: Float32Array (linear RGB per vertex),
//     indices: Uint32Array, edges: Float32Array (x, y, z pairs), pieces: n }
// The faces are flat-shaded by the material (no normals needed); an edge is
// outlined where its two triangles meet at more than 15° (three.js
// EdgesGeometry's default), so the triangulation of a flat face is not drawn.

const EDGE_COS = Math.cos((15 * Math.PI) / 180);

/** sRGB channel (0…1) to linear, as three.js converts a colour given in hex. */
function linear(c) {
  return c < 0.04045 ? c * 0.0773993808 : Math.pow(c * 0.9478672986 + 0.0521327014, 2.4);
}

/** Unit normal of triangle (a, b, c) of `v` (flat x, y, z), written into `out` at `o`. */
function triangleNormal(v, a, b, c, out, o) {
  const ux = v[3 * b] - v[3 * a];
  const uy = v[3 * b + 1] - v[3 * a + 1];
  const uz = v[3 * b + 2] - v[3 * a + 2];
  const wx = v[3 * c] - v[3 * a];
  const wy = v[3 * c + 1] - v[3 * a + 1];
  const wz = v[3 * c + 2] - v[3 * a + 2];
  const nx = uy * wz - uz * wy;
  const ny = uz * wx - ux * wz;
  const nz = ux * wy - uy * wx;
  const length = Math.hypot(nx, ny, nz) || 1;
  out[o] = nx / length;
  out[o + 1] = ny / length;
  out[o + 2] = nz / length;
}

export function mergeTerrain(pieces) {
  let vertexCount = 0;
  let indexCount = 0;
  for (const p of pieces) {
    vertexCount += p.vertices.length / 3;
    indexCount += p.indices.length;
  }
  const positions = new Float32Array(vertexCount * 3);
  const colors = new Float32Array(vertexCount * 3);
  const indices = new Uint32Array(indexCount);
  const edges = new Float32Array(indexCount * 6);  // at most one segment per triangle side
  let edgeEnd = 0;
  let normals = new Float64Array(0);
  let firstSide = new Int32Array(0);  // (i, j) → the triangle on its first side + 1; 0: none yet
  let vertexBase = 0;
  let indexBase = 0;
  for (const piece of pieces) {
    const v = piece.vertices;
    const n = v.length / 3;
    const tri = piece.indices;
    positions.set(v, vertexBase * 3);
    const r = linear(((piece.color >> 16) & 255) / 255);
    const g = linear(((piece.color >> 8) & 255) / 255);
    const b = linear((piece.color & 255) / 255);
    for (let i = 3 * vertexBase, end = 3 * (vertexBase + n); i < end; i += 3) {
      colors[i] = r;
      colors[i + 1] = g;
      colors[i + 2] = b;
    }
    for (let i = 0; i < tri.length; i++) indices[indexBase + i] = tri[i] + vertexBase;
    // Outlines: each side of a triangle meets the triangle across it.
    const triangles = tri.length / 3;
    if (normals.length < 3 * triangles) normals = new Float64Array(3 * triangles);
    for (let t = 0; t < triangles; t++) triangleNormal(v, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], normals, 3 * t);
    const small = n <= 256;  // a table of n² entries; a Map for pieces with more vertices
    if (small && firstSide.length < n * n) firstSide = new Int32Array(n * n);
    const table = small ? null : new Map();
    const push = (i, j) => {
      edges.set([v[3 * i], v[3 * i + 1], v[3 * i + 2], v[3 * j], v[3 * j + 1], v[3 * j + 2]], edgeEnd);
      edgeEnd += 6;
    };
    for (let t = 0; t < triangles; t++) {
      for (let k = 0; k < 3; k++) {
        const i = tri[3 * t + k];
        const j = tri[3 * t + (k === 2 ? 0 : k + 1)];
        const key = i < j ? i * n + j : j * n + i;
        const other = (small ? firstSide[key] : table.get(key) ?? 0) - 1;
        if (other < 0) {
          if (small) firstSide[key] = t + 1;
          else table.set(key, t + 1);
          continue;
        }
        if (small) firstSide[key] = -1;  // both sides seen
        else table.set(key, 0);
        const dot = normals[3 * t] * normals[3 * other] + normals[3 * t + 1] * normals[3 * other + 1] + normals[3 * t + 2] * normals[3 * other + 2];
        if (dot <= EDGE_COS) push(i, j);
      }
    }
    // Sides with one triangle (none on a closed piece) are outlined too; the table is cleared for the next piece.
    for (let t = 0; t < triangles; t++) {
      for (let k = 0; k < 3; k++) {
        const i = tri[3 * t + k];
        const j = tri[3 * t + (k === 2 ? 0 : k + 1)];
        const key = i < j ? i * n + j : j * n + i;
        const seen = small ? firstSide[key] : table.get(key);
        if (seen > 0) push(i, j);
        if (small) firstSide[key] = 0;
        else table.set(key, 0);
      }
    }
    vertexBase += n;
    indexBase += tri.length;
  }
  return { positions, colors, indices, edges: edges.slice(0, edgeEnd), pieces: pieces.length };
}

/** The buffers of a merged terrain (to transfer it from the worker without a copy). */
export const mergedBuffers = (mesh) => [mesh.positions.buffer, mesh.colors.buffer, mesh.indices.buffer, mesh.edges.buffer];
