// three.js objects for heightmaps as the core returns them:
// { origin: [x, y], cell: [dx, dy], nx, ny, base, color: 0xRRGGBB, heights: Float32Array }
// (sample (i, j) at origin + (i·dx, j·dy), height heights[j·nx + i], metres).
// One mesh per chunk of at most CHUNK × CHUNK cells (not a mesh per cell), the
// cells split along the diagonal the core uses, and the field's sides down to
// its base. Coloured by height (low dark, high light) or by slope (flat
// green, steep red).
import * as THREE from 'three';

/** Cells along each side of a chunk: 128² cells make 33 k vertices, within 16-bit indices. */
export const CHUNK = 128;

const LOW = new THREE.Color(0x4f5a46);
const HIGH = new THREE.Color(0xd8d0b8);
const FLAT = new THREE.Color(0x5f8f4a);
const STEEP = new THREE.Color(0xb0463a);

/** The colour of a sample: by its height within [low, high] or by the slope there (rise over run). */
function shade(mode, height, low, high, slope, out) {
  if (mode === 'slope') return out.copy(FLAT).lerp(STEEP, Math.min(1, Math.atan(slope) / (Math.PI / 4)));
  return out.copy(LOW).lerp(HIGH, high > low ? (height - low) / (high - low) : 0.5);
}

/** The geometry of cells [i0, i1) × [j0, j1) of field `f`, coloured by `mode` ('height' or 'slope'). */
function chunkGeometry(f, i0, i1, j0, j1, low, high, mode) {
  const [ox, oy] = f.origin;
  const [dx, dy] = f.cell;
  const w = i1 - i0 + 1;
  const h = j1 - j0 + 1;
  const positions = new Float32Array(w * h * 3);
  const colors = new Float32Array(w * h * 3);
  const c = new THREE.Color();
  const at = (i, j) => f.heights[j * f.nx + i];
  for (let j = j0, k = 0; j <= j1; j++)
    for (let i = i0; i <= i1; i++, k += 3) {
      const z = at(i, j);
      positions[k] = ox + i * dx;
      positions[k + 1] = oy + j * dy;
      positions[k + 2] = z;
      const gx = (at(Math.min(i + 1, f.nx - 1), j) - at(Math.max(i - 1, 0), j)) / (2 * dx);
      const gy = (at(i, Math.min(j + 1, f.ny - 1)) - at(i, Math.max(j - 1, 0))) / (2 * dy);
      shade(mode, z, low, high, Math.hypot(gx, gy), c);
      colors[k] = c.r;
      colors[k + 1] = c.g;
      colors[k + 2] = c.b;
    }
  const indices = new (w * h > 65535 ? Uint32Array : Uint16Array)((w - 1) * (h - 1) * 6);
  let n = 0;
  for (let j = 0; j < h - 1; j++)
    for (let i = 0; i < w - 1; i++) {
      const a = j * w + i;
      // lower (i, j), (i+1, j), (i+1, j+1); upper (i, j), (i+1, j+1), (i, j+1): CCW from above.
      indices.set([a, a + 1, a + w + 1, a, a + w + 1, a + w], n);
      n += 6;
    }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  geometry.setIndex(new THREE.BufferAttribute(indices, 1));
  geometry.computeVertexNormals();
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  return geometry;
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
  for (const z of f.heights) {
    if (z < low) low = z;
    if (z > high) high = z;
  }
  return [low, high];
}

/** A group of chunk meshes and sides for each heightmap; `mode` colours by 'height' or 'slope'. */
export function heightmapObject(fields, mode = 'height') {
  const group = new THREE.Group();
  group.name = 'heightmaps';
  const material = new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.9, metalness: 0.0 });
  fields.forEach((f, index) => {
    const [low, high] = heightRange(f);
    for (let j0 = 0; j0 < f.ny - 1; j0 += CHUNK)
      for (let i0 = 0; i0 < f.nx - 1; i0 += CHUNK) {
        const geometry = chunkGeometry(f, i0, Math.min(i0 + CHUNK, f.nx - 1), j0, Math.min(j0 + CHUNK, f.ny - 1), low, high, mode);
        const mesh = new THREE.Mesh(geometry, material);
        mesh.name = `heightmap[${index}]`;
        mesh.userData = { kind: 'heightmap', index };
        group.add(mesh);
      }
    const sides = new THREE.Mesh(sidesGeometry(f), new THREE.MeshStandardMaterial({ color: f.color, roughness: 0.9, side: THREE.DoubleSide }));
    sides.name = `heightmap[${index}].sides`;
    group.add(sides);
  });
  return group;
}
