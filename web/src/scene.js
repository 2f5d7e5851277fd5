// The three.js stage: renderer with shadows, lights, a grid and axes for
// scale, the terrain, and a camera that either orbits freely or follows the
// robot. World frame as in the core: x forward, y left, z up (m).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

import { terrainObject, viewFor } from './terrain_mesh.js';

export class Stage {
  constructor(canvas) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xdfe6ec);
    this.scene.add(new THREE.HemisphereLight(0xf4f6ff, 0x8a8070, 1.4));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.2);
    this.sun.castShadow = true;
    this.sun.shadow.mapSize.set(2048, 2048);
    this.scene.add(this.sun, this.sun.target);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.camera.up.set(0, 0, 1);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.follow = true;
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  resize() {
    const canvas = this.renderer.domElement;
    const w = canvas.clientWidth || window.innerWidth;
    const h = canvas.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / Math.max(h, 1);
    this.camera.updateProjectionMatrix();
  }

  /** Replaces terrain and robot; frames the camera on the robot's start. */
  show(terrain, robotObject, start) {
    this.world.clear();
    const ground = terrainObject(terrain.pieces);
    ground.traverse((o) => {
      if (o.isMesh) o.receiveShadow = true;
    });
    this.world.add(ground, robotObject);
    const view = viewFor(terrain.box);
    const size = Math.ceil(Math.min(view.size * 2, 200));
    const grid = new THREE.GridHelper(size, size, 0x7a8590, 0xb4bcc4);
    grid.rotation.x = Math.PI / 2;
    grid.position.set(Math.round(view.target.x), Math.round(view.target.y), terrain.box.min[2] - 1e-3);
    this.world.add(grid, new THREE.AxesHelper(0.5));
    // Shadows over the robot's neighbourhood, not the whole terrain.
    const s = 6;
    Object.assign(this.sun.shadow.camera, { left: -s, right: s, top: s, bottom: -s, near: 0.1, far: 60 });
    this.sun.shadow.camera.updateProjectionMatrix();
    this.camera.near = view.near;
    this.camera.far = view.far * 2;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(start);
    this.camera.position.copy(start).add(new THREE.Vector3(-2.2, -4.2, 2.0));
    this.controls.update();
    this.lastTarget = start.clone();
  }

  /** Replaces only the terrain (the editor's preview of an edited terrain). */
  replaceTerrain(terrain) {
    const old = this.world.getObjectByName('terrain');
    if (old) {
      old.traverse((o) => {
        o.geometry?.dispose();
        o.material?.dispose();
      });
      this.world.remove(old);
    }
    const ground = terrainObject(terrain.pieces);
    ground.traverse((o) => {
      if (o.isMesh) o.receiveShadow = true;
    });
    this.world.add(ground);
  }

  /** Camera position and orbit target as plain arrays (for share links). */
  cameraPose() {
    return { position: this.camera.position.toArray(), target: this.controls.target.toArray() };
  }

  /** Puts the camera at a pose from cameraPose(). */
  setCameraPose({ position, target }) {
    this.camera.position.set(...position);
    this.controls.target.set(...target);
    this.controls.update();
  }

  /** Moves the camera with the robot (keeps the user's viewing angle and distance). */
  track(position) {
    this.sun.position.copy(position).add(new THREE.Vector3(-6, -8, 14));
    this.sun.target.position.copy(position);
    if (!this.follow || !this.lastTarget) return;
    const delta = position.clone().sub(this.lastTarget);
    this.camera.position.add(delta);
    this.controls.target.add(delta);
    this.lastTarget.copy(position);
  }

  /** Renders at a fraction of the device pixel ratio (1 = full resolution). */
  setResolution(fraction) {
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2) * fraction);
    this.resize();
  }

  /** Shadows on or off (they cost the most on software rendering). */
  setShadows(on) {
    this.renderer.shadowMap.enabled = on;
    this.scene.traverse((o) => {
      if (o.material) o.material.needsUpdate = true;
    });
  }

  render() {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
