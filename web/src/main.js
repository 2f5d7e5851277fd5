// Roverlab web app: loads the WASM core, builds the demo terrain through it and
// draws it with three.js. Sets window.__roverlab = { ready, pieces, ... } once the
// first frame is drawn (the browser tests wait for it).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

import { loadCore } from './core.js';
import './style.css';
import { terrainObject, viewFor } from './terrain_mesh.js';

const status = document.getElementById('status');
window.__roverlab = { ready: false };

function createScene(canvas, terrain) {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.setSize(window.innerWidth, window.innerHeight, false);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdfe6ec);
  scene.add(new THREE.HemisphereLight(0xf4f6ff, 0x8a8070, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.set(-4, -7, 9);
  scene.add(sun);

  scene.add(terrainObject(terrain.pieces));

  // Grid in the ground plane (z up), under the terrain.
  const view = viewFor(terrain.box);
  const gridSize = Math.ceil(view.size * 2);
  const grid = new THREE.GridHelper(gridSize, gridSize, 0x7a8590, 0xb4bcc4);
  grid.rotation.x = Math.PI / 2;
  grid.position.set(Math.round(view.target.x), Math.round(view.target.y), terrain.box.min[2] - 1e-3);
  scene.add(grid);
  scene.add(new THREE.AxesHelper(0.5));

  const camera = new THREE.PerspectiveCamera(45, window.innerWidth / window.innerHeight, view.near, view.far);
  camera.up.set(0, 0, 1);
  camera.position.copy(view.position);
  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(view.target);
  controls.enableDamping = true;
  controls.update();

  window.addEventListener('resize', () => {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight, false);
  });
  return { renderer, scene, camera, controls };
}

async function main() {
  const core = await loadCore();
  const terrain = core.buildDemoTerrain();
  if (!terrain.ok) {
    throw new Error(
      'The demo terrain was rejected:\n' + terrain.issues.map((i) => `${i.path}: ${i.message}`).join('\n'),
    );
  }
  const { renderer, scene, camera, controls } = createScene(document.getElementById('view'), terrain);
  let frames = 0;
  renderer.setAnimationLoop(() => {
    controls.update();
    renderer.render(scene, camera);
    if (++frames === 1) {
      status.textContent = `core ${core.version()} · demo terrain, ${terrain.pieces.length} pieces · drag to orbit`;
      window.__roverlab = { ready: true, pieces: terrain.pieces.length, version: core.version() };
    }
  });
}

main().catch((error) => {
  status.textContent = String(error?.message ?? error);
  status.classList.add('error');
  window.__roverlab = { ready: false, error: String(error?.message ?? error) };
  console.error(error);
});
