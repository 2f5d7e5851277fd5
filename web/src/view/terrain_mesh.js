// three.js objects for terrain pieces as the core returns them:
// { kind, color: 0xRRGGBB, vertices: Float32Array (x, y, z)…, indices: Uint32Array }
// with triangles CCW seen from outside. World frame as in the core: x forward,
// y left, z up (metres).
import * as THREE from 'three';

/** Flat-shaded geometry of one piece: un-indexed, so every face keeps its own normal. */
export function pieceGeometry(piece) {
  const indexed = new THREE.BufferGeometry();
  indexed.setAttribute('position', new THREE.BufferAttribute(piece.vertices, 3));
  indexed.setIndex(new THREE.BufferAttribute(piece.indices, 1));
  const geometry = indexed.toNonIndexed();
  indexed.dispose();
  geometry.computeVertexNormals();
  geometry.computeBoundingBox();
  return geometry;
}

/** A group with one mesh (and its outline) per piece, coloured by the piece. */
export function terrainObject(pieces) {
  const group = new THREE.Group();
  group.name = 'terrain';
  const outline = new THREE.LineBasicMaterial({ color: 0x2a2a2a, transparent: true, opacity: 0.35 });
  pieces.forEach((piece, index) => {
    const geometry = pieceGeometry(piece);
    const material = new THREE.MeshLambertMaterial({ color: piece.color });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.name = `${piece.kind}[${index}]`;
    mesh.userData = { kind: piece.kind, index };
    mesh.add(new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 15), outline));
    group.add(mesh);
  });
  return group;
}

/** The terrain from mergeTerrain() (terrain_geometry.js): one flat-shaded mesh
 * coloured per vertex and one set of outlines, however many pieces. */
export function mergedTerrainObject(mesh) {
  const group = new THREE.Group();
  group.name = 'terrain';
  group.userData = { pieces: mesh.pieces };
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(mesh.colors, 3));
  geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  const material = new THREE.MeshLambertMaterial({ vertexColors: true, flatShading: true });
  const faces = new THREE.Mesh(geometry, material);
  faces.name = 'terrain-faces';
  const lines = new THREE.BufferGeometry();
  lines.setAttribute('position', new THREE.BufferAttribute(mesh.edges, 3));
  const outline = new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: 0x2a2a2a, transparent: true, opacity: 0.35 }));
  outline.name = 'terrain-outline';
  group.add(faces, outline);
  return group;
}

/** A merged terrain of one triangle, as the stage shows terrains (receiving shadows): its shader
 * programs are compiled before the first terrain arrives (scene.js warmUp). */
export function terrainPrograms() {
  const group = mergedTerrainObject({
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
    colors: new Float32Array(9),
    indices: new Uint32Array([0, 1, 2]),
    edges: new Float32Array(6),
    pieces: 1,
  });
  group.traverse((o) => {
    if (o.isMesh) o.receiveShadow = true;
  });
  return group;
}

/** Camera placement that shows the box { min: [x, y, z], max: [x, y, z] } from the rear right, above. */
export function viewFor(box) {
  const min = new THREE.Vector3(...box.min);
  const max = new THREE.Vector3(...box.max);
  const target = min.clone().add(max).multiplyScalar(0.5);
  const size = Math.max(max.x - min.x, max.y - min.y, max.z - min.z, 1e-3);
  const position = target.clone().add(new THREE.Vector3(-0.45, -0.8, 0.55).multiplyScalar(size));
  return { target, position, size, near: size / 500, far: size * 20 };
}
