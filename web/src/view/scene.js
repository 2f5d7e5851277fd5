// The three.js stage: renderer with shadows, lights, a grid and axes for
// scale, the terrain, and a camera that either orbits freely or follows the
// robot. World frame as in the core: x forward, y left, z up (m).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

import { mergeTerrain } from '../sim/terrain_geometry.js';
import { heightmapObject, heightmapPrograms, pickHeightmapLevels, recolourHeightmaps, setHeightmapDetail } from './heightmap_mesh.js';
import { Signal } from '../common/signals.js';
import { contactPrograms, robotPrograms } from './robot_view.js';
import { mergedTerrainObject, terrainPrograms, viewFor } from './terrain_mesh.js';

// Where a new run's camera stands, from the robot's start (m): behind and to its right, above.
const START_OFFSET = new THREE.Vector3(-2.2, -4.2, 2.0);

/** The terrain's three.js object: from its merged mesh (made in the worker), or merged here from its
 * pieces, and its heightmaps' chunked meshes coloured by `colour` ('height' or 'slope'), their levels
 * of detail for a view of focal length `focalPx` (pixels); a large heightmap's chunks are made as
 * they first come into view (heightmap_mesh.js). */
const terrainOf = (terrain, colour, focalPx) => {
  const group = mergedTerrainObject(terrain.mesh ?? mergeTerrain([...(terrain.pieces ?? []), ...(terrain.meshes ?? [])]));
  if (terrain.heightmaps?.length) group.add(heightmapObject(terrain.heightmaps, colour, focalPx, { progressive: true }));
  return group;
};

// The view's WebGL context as three.js would make it (alpha, depth, no stencil, premultiplied
// alpha), its drawing buffer kept for screenshots and videos.
const contextAttributes = (antialias) => ({ alpha: true, depth: true, stencil: false, antialias, premultipliedAlpha: true, preserveDrawingBuffer: true });

/**
 * The view's context on `canvas`, multisampled (antialias) only where a GPU draws: on software
 * WebGL (SwiftShader, llvmpipe) the multisampled buffers made the context take about 0.23 s to
 * make, against 0.07 s without (docs/benchmarks/README.md), and every frame fills four samples a
 * pixel. The context is made without multisampling first and asked for its renderer; where that
 * is a GPU, the canvas is replaced by a copy (a canvas keeps its first context) with a
 * multisampled one, which a GPU makes at once. { canvas, context }: the canvas on the page.
 */
function viewContext(canvas) {
  const plain = canvas.getContext('webgl2', contextAttributes(false));
  if (!plain) throw new Error('this browser has no WebGL 2 (the 3-D view needs it)');
  const info = plain.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(plain.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : plain.RENDERER));
  if (/swiftshader|llvmpipe|softpipe|software/i.test(renderer)) return { canvas, context: plain };
  const fresh = canvas.cloneNode(false);
  fresh.width = canvas.width;
  fresh.height = canvas.height;
  const multisampled = fresh.getContext('webgl2', contextAttributes(true));
  if (!multisampled) return { canvas, context: plain };
  plain.getExtension('WEBGL_lose_context')?.loseContext();
  canvas.replaceWith(fresh);
  return { canvas: fresh, context: multisampled };
}

export class Stage {
  constructor(given) {
    // The drawing buffer is made with the context at the canvas's size (each resize of it costs
    // about as much again on software WebGL, even to the same size).
    given.width = given.clientWidth || window.innerWidth;
    given.height = given.clientHeight || window.innerHeight;
    const { canvas, context } = viewContext(given);
    this.antialias = context.getContextAttributes().antialias;  // false on software WebGL
    this.renderer = new THREE.WebGLRenderer({ canvas, context, preserveDrawingBuffer: true });
    const ratio = Math.min(window.devicePixelRatio, 2);
    if (ratio !== this.renderer.getPixelRatio()) this.renderer.setPixelRatio(ratio);
    // Shadows come on once the first frame is drawn (warmUpLater): on software WebGL the shadow
    // pass kept the GPU on the first frame 0.12–0.2 s longer (docs/benchmarks/README.md).
    this.renderer.shadowMap.enabled = false;
    this.shadowsWanted = true;  // false once the box or the frame-rate watch turned them off
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
    this.terrainColour = 'height';  // heightmaps coloured by 'height' or 'slope'
    this.terrainShown = new Signal();  // (hasHeightmaps): a terrain was put on the stage
    this.world = new THREE.Group();
    this.scene.add(this.world);
    // Before each view is drawn, the heightmaps pick their levels for its camera and make the
    // vertices those need, in time to be uploaded with that view.
    this.scene.onBeforeRender = (renderer, scene, camera) => pickHeightmapLevels(this.world, camera);
    // On the stage from the first terrain with heightmaps, or once the first frame is drawn
    // (warmUpLater), drawing nothing: the heightmaps' shader programs stay compiled.
    this.heightmapPrograms = heightmapPrograms();
    this.heightmapProgramsKept = false;
    // Objects taken out of the scene are disposed only after their successors
    // have been drawn once: a shader program lives while a material uses it,
    // so the successors (same kinds of material) reuse the compiled programs
    // instead of compiling them again, which takes seconds, blocking the page,
    // on software WebGL without parallel shader compilation.
    this.retiring = [];   // disposers waiting for the next show()
    this.retired = [];    // disposers to run after the next render
    this.draws = 0;       // views drawn so far
    this.drawnAt = 0;     // when the view was last drawn (performance.now(), ms)
    this.cleared = false; // the drawing buffer was cleared (resized) and not drawn since
    this.blankFrames = 0; // animation frames that began with a view drawn before and cleared since
    this.layoutResizes = 0; // drawing buffers made anew because the canvas's box changed (each ~0.1 s on software WebGL)
    this.resize();
    new ResizeObserver(() => this.resize({ ifChanged: true })).observe(canvas);
    this.warmUp();
  }

  /**
   * Compiles the shader programs a run's first frame draws with (the robot, a terrain of pieces or
   * meshes, the grid; without shadows) before it is shown, instead of in that frame (on software
   * WebGL it took seconds more): the browser's GPU process compiles and links them while the page
   * goes on and the worker builds the scenario. The sample objects are kept, never drawn: their
   * materials keep the programs alive for the robots and terrains that use the same kinds of
   * material. The programs the first frame does not need (shadows, contacts, heightmaps) come once
   * it is drawn (warmUpLater): the GPU process compiles one program at a time, in order, and the
   * first frame waits for every one asked for before it.
   */
  warmUp() {
    this.samples = new THREE.Group();
    this.samples.add(robotPrograms(), terrainPrograms(), new THREE.GridHelper(1, 1), new THREE.AxesHelper(0.5));
    this.renderer.compile(this.samples, this.camera, this.scene);
  }

  /** After the first frame: shadows on (unless turned off meanwhile), the contacts' and the heightmaps' programs compiled. */
  warmUpLater() {
    if (this.shadowsWanted) this.setShadows(true);
    this.contactSamples = contactPrograms();
    this.renderer.compile(this.contactSamples, this.camera, this.scene);
    this.keepHeightmapPrograms();
  }

  /** The heightmaps' programs on the stage (compiled), from now on. */
  keepHeightmapPrograms() {
    if (this.heightmapProgramsKept) return;
    this.heightmapProgramsKept = true;
    this.renderer.compile(this.heightmapPrograms, this.camera, this.scene);
    this.world.add(this.heightmapPrograms);
    this.changed = true;
  }

  /**
   * Resolves once the GPU has drawn what the view was asked to draw so far (a fence, looked at
   * every 10 ms), at most `waitMs` later, or at once with the context lost.
   */
  drawnByGpu(waitMs = 1000) {
    const gl = this.renderer.getContext();
    const sync = gl.isContextLost() ? null : gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!sync) return Promise.resolve();
    gl.flush();
    const until = performance.now() + waitMs;
    return new Promise((resolve) => {
      const look = () => {
        if (gl.isContextLost() || gl.getSyncParameter(sync, gl.SYNC_STATUS) === gl.SIGNALED || performance.now() > until) {
          if (!gl.isContextLost()) gl.deleteSync(sync);
          resolve();
        } else setTimeout(look, 10);
      };
      look();
    });
  }

  /** The view's canvas (the page's #view, which the root hands to the Stage). */
  get canvas() {
    return this.renderer.domElement;
  }

  /** Fits the drawing buffer to the canvas. Resizing clears it, so a view
   * already drawn is drawn again at once, before the page shows the empty canvas.
   * `ifChanged`: only if the canvas's size or the pixel ratio changed since the last fit. */
  resize({ ifChanged = false } = {}) {
    const canvas = this.renderer.domElement;
    const w = canvas.clientWidth || window.innerWidth;
    const h = canvas.clientHeight || window.innerHeight;
    const ratio = this.renderer.getPixelRatio();
    const fit = `${w} ${h} ${ratio}`;
    if (ifChanged && fit === this.fit) return;
    this.fit = fit;
    const size = this.renderer.getSize(new THREE.Vector2());
    const fitted = size.x === w && size.y === h && canvas.width === Math.floor(w * ratio) && canvas.height === Math.floor(h * ratio);
    if (!fitted) {
      this.renderer.setSize(w, h, false);
      this.layoutResizes++;
    }
    this.changed = true;
    this.cleared = true;
    this.camera.aspect = w / Math.max(h, 1);
    this.camera.updateProjectionMatrix();
    // The focal length in drawing-buffer pixels: heightmaps' levels of detail keep their error under a pixel.
    const pixelsHigh = Math.max(1, this.renderer.getDrawingBufferSize(new THREE.Vector2()).y);
    this.focalPx = pixelsHigh / 2 / Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2);
    setHeightmapDetail(this.world, this.focalPx);
    if (this.draws > 0) this.render();
  }

  /** At the start of an animation frame: counts a frame the page showed with the canvas cleared and not drawn again. */
  frameStart() {
    if (this.cleared && this.draws > 0) this.blankFrames++;
  }

  /** Replaces terrain and robot; frames the camera on the robot's start.
   * `terrain`: { box, mesh } (mesh from mergeTerrain) or { box, pieces }. */
  show(terrain, robotObject, start) {
    this.disposeTerrain();
    this.retired.push(...this.retiring.splice(0));
    this.world.clear();
    const ground = terrainOf(terrain, this.terrainColour, this.focalPx);
    ground.traverse((o) => {
      if (o.isMesh) o.receiveShadow = true;
    });
    this.world.add(ground, robotObject);
    if (this.heightmapProgramsKept || terrain.heightmaps?.length) {
      this.heightmapProgramsKept = false;
      this.keepHeightmapPrograms();
    }
    this.terrainShown.dispatch(Boolean(terrain.heightmaps?.length));
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
    this.camera.position.copy(start).add(START_OFFSET);
    this.controls.update();
    this.lastTarget = start.clone();
    this.changed = true;
  }

  /** Replaces only the terrain (the editor's preview of an edited terrain). */
  replaceTerrain(terrain) {
    this.disposeTerrain();
    const ground = terrainOf(terrain, this.terrainColour, this.focalPx);
    ground.traverse((o) => {
      if (o.isMesh) o.receiveShadow = true;
    });
    this.world.add(ground);
    this.changed = true;
    this.terrainShown.dispatch(Boolean(terrain.heightmaps?.length));
  }

  /** Colours the heightmaps on the stage, and those shown later, by 'height' or 'slope' (in place: nothing is rebuilt). */
  setTerrainColour(mode) {
    if (mode !== 'height' && mode !== 'slope') throw new Error(`setTerrainColour: unknown mode '${mode}'`);
    this.terrainColour = mode;
    if (recolourHeightmaps(this.world, mode) > 0) this.changed = true;
  }

  /** Runs `dispose` once what replaces an object has been shown and drawn (see the constructor). */
  retire(dispose) {
    this.retiring.push(dispose);
  }

  disposeTerrain() {
    const old = this.world.getObjectByName('terrain');
    if (!old) return;
    this.world.remove(old);
    this.retired.push(() =>
      old.traverse((o) => {
        o.geometry?.dispose();
        o.material?.dispose();
      }),
    );
  }

  /** Camera position and orbit target as plain arrays (m, for share links and
   * the test hooks). Following the robot (`follow`), both are offsets from the
   * followed point, the robot's base: the view the receiver gets is the same
   * view of the robot wherever it starts; otherwise they are world points. */
  cameraPose() {
    const position = this.camera.position.clone();
    const target = this.controls.target.clone();
    if (!this.follow || !this.lastTarget) return { position: position.toArray(), target: target.toArray() };
    return { position: position.sub(this.lastTarget).toArray(), target: target.sub(this.lastTarget).toArray(), follow: true };
  }

  /** Puts the camera at a pose from cameraPose() (and follows the robot if the pose does). */
  setCameraPose({ position, target, follow = false }) {
    const origin = follow && this.lastTarget ? this.lastTarget : new THREE.Vector3();
    this.camera.position.set(...position).add(origin);
    this.controls.target.set(...target).add(origin);
    this.follow = follow;
    this.controls.update();
    this.changed = true;
  }

  /** A camera preset around the followed point (the robot's base), turned
   * with the robot's heading `yaw` (rad): 'side' (from its left, nearly
   * level), 'top' (from above, forward up the screen), 'behind' (from behind
   * and above), 'start' (the view a new run starts with). The first three keep
   * the user's distance. */
  cameraPreset(name, yaw = 0) {
    const target = this.lastTarget ?? this.controls.target;
    const distance = Math.max(0.5, this.camera.position.distanceTo(this.controls.target));
    const offsets = {
      side: new THREE.Vector3(0, 1, 0.12),
      top: new THREE.Vector3(-0.02, 0, 1),  // not quite vertical: the orbit needs a view direction off its up axis
      behind: new THREE.Vector3(-1, 0, 0.45),
    };
    let offset;
    if (name === 'start') offset = START_OFFSET.clone();
    else if (offsets[name]) offset = offsets[name].applyAxisAngle(new THREE.Vector3(0, 0, 1), yaw).setLength(distance);
    else throw new Error(`cameraPreset: unknown preset '${name}'`);
    this.controls.target.copy(target);
    this.camera.position.copy(target).add(offset);
    this.controls.update();
    this.changed = true;
  }

  /** Moves the camera with the robot (keeps the user's viewing angle and distance). */
  track(position) {
    this.sun.position.copy(position).add(new THREE.Vector3(-6, -8, 14));
    this.sun.target.position.copy(position);
    if (!this.lastTarget) return;
    if (this.follow) {
      const delta = position.clone().sub(this.lastTarget);
      this.camera.position.add(delta);
      this.controls.target.add(delta);
    }
    this.lastTarget.copy(position);  // the robot's base: what presets and shared views are taken around
  }

  /** Renders at a fraction of the device pixel ratio (1 = full resolution). */
  setResolution(fraction) {
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2) * fraction);
    this.resize();
  }

  /** Shadows on or off (they cost the most on software rendering). */
  setShadows(on) {
    this.shadowsWanted = on;
    if (this.renderer.shadowMap.enabled === on) return;
    this.renderer.shadowMap.enabled = on;
    this.changed = true;
    this.scene.traverse((o) => {
      if (o.material) o.material.needsUpdate = true;
    });
  }

  /** Draws the view. `ifMoved`: only if the camera moved or the scene changed since the last draw. */
  render({ ifMoved = false } = {}) {
    const moved = this.controls.update();
    if (ifMoved && !moved && !this.changed) return;
    this.changed = false;
    this.cleared = false;
    this.renderer.render(this.scene, this.camera);
    this.draws++;
    this.drawnAt = performance.now();
    for (const dispose of this.retired.splice(0)) dispose();
  }
}
