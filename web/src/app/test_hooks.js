// window.__roverlab: the page's state for the browser tests (tests/browser)
// and the benchmarks (tests/bench/app_perf.mjs), written here and nowhere
// else. Most fields read the app state as it is; the run's fields are a
// snapshot taken each time the view is drawn with a frame on show, and keep
// their last values while none is (e.g. while a new scenario is built). The
// hooks are there from the page's first task; the view's fields, doc and
// scenarioId once the page has made them (attach()): before that the view's
// are undefined (drawn and blankFrames 0).
import * as THREE from 'three';


/**
 * Fields (all read-only):
 *   ready          a frame of a built scenario is on show
 *   preset (null for a robot from its description), robot (its name), scenario (its name), scenarioId (the picker's),
 *                  wheelRadius, scrubbing, playing,
 *   time           newest simulated time (s); shownTime: the time on show (interpolated or scrubbed)
 *   base           the base's position in the newest frame; shownBase: in the frame on show; startBase: at t = 0;
 *                  wheelCentres: each wheel's centre in the newest frame
 *   frames, samples  frames recorded for the timeline, telemetry rows
 *   realTimeFactor, stepMs  the worker's stepping; firstFrameMs: when the first frame was shown
 *   shownContacts  contacts drawn: { wheel, box }
 *   issues, error, outcome, finishedAt, outcomeText, warnings, banner, buildMs, loadMs, loadLog, loading, progress,
 *   restarts, tab, phase, tipping, flipped, fps, qualityStep, editor, editorReady, lastRecording, shareUrl, linkOpened,
 *   linkError, stance, stancePose, crawler, plots, pinned, inspected, program, controller, summary: as in app_state.js
 *   doc            the editor's document (EditorDocument)
 *   drawn          views drawn so far (the stage's renders)
 *   cameraSettled  the orbit is at rest: the camera kept its offset from its target over the last two draws
 *   viewCurrent    the canvas holds the scene as it is: drawn since its last change or resize
 *   blankFrames    animation frames that began with the view cleared by a resize and not drawn again (0 in a good run)
 *   layoutResizes  drawing buffers the view made anew because its canvas's box changed (0 while the window keeps its size)
 *   heightmapChunks  chunks of the heightmaps on the stage (web/src/view/heightmap_mesh.js)
 *   terrainTriangles triangles of the merged terrain mesh (pieces and mesh terrains)
 *   terrainBox     the built model's terrain bounds { min: [x, y, z], max } (m), or null before one is built
 *   heightmapColour  how the heightmaps are coloured: { mode ('height', 'slope', or null with no chunks), vertices,
 *                  mean: [r, g, b] of their vertex colours, redder: share of vertices redder than green }
 *                  (over at most about 200 000 vertices, evenly spaced)
 *   drawnTriangles  triangles and draw calls of the last view drawn: { triangles, calls } (three.js renderer.info)
 *   ghostTrails    the pinned runs' trails in the scene (ghost_trails.js): [{ run, visible, lines, points }]
 *   camera         { position, target } (world points, m) and follow (the camera follows the robot)
 *   timeDraws(n)   draws the view as it is n times, each to the end (a pixel read back); their durations (ms), for the benchmarks
 *   screenOf(p)    page coordinates [x, y] of a world point p
 *   inView(p)      p is in front of the camera and inside the view
 */
export function installTestHooks({ state, signals }) {
  let stage = null;
  let doc = null;
  let picker = null;
  const run = {};  // the snapshot of the run
  let ready = false;
  let lastOffset = null;
  let still = 0;  // draws the orbit stayed at rest

  signals.frame.add((shown) => {
    if (!stage) return;
    // The orbit at rest: the camera's offset from its target (both move with a followed robot) unchanged.
    const offset = stage.camera.position.clone().sub(stage.controls.target);
    still = lastOffset && offset.distanceTo(lastOffset) < 1e-9 ? still + 1 : 0;
    lastOffset = offset;
    ready = Boolean(shown && state.model);
    if (!ready) return;
    const { model, latest } = state;
    const o = model.layout.poses + model.layout.pose * model.base;
    Object.assign(run, {
      preset: model.preset,
      robot: model.robot,
      scenario: state.scenario?.name,
      scenarioId: picker.id,
      wheelRadius: model.wheels[0]?.radius,
      scrubbing: state.scrubbing,
      time: latest[0],
      shownTime: shown.a[0] + shown.s * (shown.b[0] - shown.a[0]),
      base: [latest[o], latest[o + 1], latest[o + 2]],
      shownBase: [0, 1, 2].map((k) => shown.a[o + k] + shown.s * (shown.b[o + k] - shown.a[o + k])),
      wheelCentres: model.wheels.map((w) => {
        const p = model.layout.poses + model.layout.pose * w.body;
        return [latest[p], latest[p + 1], latest[p + 2]];
      }),
      startBase: state.startBase?.toArray() ?? null,
      frames: state.history.length,
      samples: state.telemetry?.rows ?? 0,
      playing: state.playing,
      realTimeFactor: state.stats.realTimeFactor,
      stepMs: state.stats.stepMs,
      firstFrameMs: state.firstFrameAt,
      shownContacts: state.view?.shownContacts() ?? null,
    });
  });

  const project = (p) => {
    const v = new THREE.Vector3(...p).project(stage.camera);
    const r = stage.canvas.getBoundingClientRect();
    return { v, r, xy: [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height] };
  };
  const fromState = [
    'issues', 'outcome', 'finishedAt', 'outcomeText', 'warnings', 'banner', 'buildMs', 'loadMs', 'loadLog', 'loading', 'progress', 'restarts',
    'tab', 'phase', 'tipping', 'flipped', 'fps', 'qualityStep', 'editor', 'editorReady', 'lastRecording', 'shareUrl', 'linkOpened', 'linkError',
    'stance', 'stancePose', 'crawler', 'plots', 'inspected', 'pinned', 'program', 'controller', 'summary',
  ];
  const hooks = {};
  const field = (name, get) => Object.defineProperty(hooks, name, { get, enumerable: true });
  field('ready', () => ready);
  for (const name of RUN_FIELDS) field(name, () => run[name]);
  field('error', () => state.fatal ?? state.error);
  for (const name of fromState) field(name, () => state[name]);
  field('doc', () => doc ?? undefined);
  field('drawn', () => stage?.draws ?? 0);
  field('cameraSettled', () => still >= 2);
  field('viewCurrent', () => (stage ? !stage.changed : undefined));
  field('blankFrames', () => stage?.blankFrames ?? 0);
  field('layoutResizes', () => stage?.layoutResizes ?? 0);
  const viewField = (name, get) => field(name, () => (stage ? get() : undefined));
  viewField('heightmapChunks', () => {
    let chunks = 0;
    stage.world.traverse((o) => {
      if (o.userData?.kind === 'heightmap') chunks += o.userData.chunks;
    });
    return chunks;
  });
  viewField('terrainTriangles', () => {
    const faces = stage.world.getObjectByName('terrain-faces');
    return faces ? faces.geometry.index.count / 3 : 0;
  });
  field('terrainBox', () => state.model?.terrain.box ?? null);
  viewField('heightmapColour', () => {
    const meshes = [];  // one a field
    stage.world.traverse((o) => {
      if (o.userData?.kind === 'heightmap') meshes.push(o);
    });
    const colours = meshes.map((o) => o.geometry.getAttribute('color'));
    const total = colours.reduce((n, c) => n + c.count, 0);
    const stride = Math.max(1, Math.ceil(total / 200_000));
    const mean = [0, 0, 0];
    let vertices = 0;
    let redder = 0;
    for (const c of colours) {
      for (let k = 0; k < c.count; k += stride) {
        const [r, g, b] = [c.getX(k), c.getY(k), c.getZ(k)];  // 0…1 (stored as normalized integers)
        mean[0] += r;
        mean[1] += g;
        mean[2] += b;
        if (r > g) redder++;
        vertices++;
      }
    }
    return {
      mode: meshes[0]?.userData.mode ?? null,
      vertices: total,
      mean: mean.map((v) => v / Math.max(vertices, 1)),
      redder: redder / Math.max(vertices, 1),
    };
  });
  viewField('viewContext', () => ({ antialias: stage.antialias, canvasOnPage: stage.canvas.isConnected }));
  viewField('drawnTriangles', () => ({ triangles: stage.renderer.info.render.triangles, calls: stage.renderer.info.render.calls }));
  viewField('ghostTrails', () => {
    const ghosts = [];
    stage.scene.traverse((o) => {
      if (o.userData?.kind === 'ghost-trail')
        ghosts.push({ run: o.userData.run, visible: o.visible && o.parent.visible, lines: o.children.filter((c) => c.isLine).length, points: o.userData.points });
    });
    return ghosts;
  });
  viewField('camera', () => ({ position: stage.camera.position.toArray(), target: stage.controls.target.toArray(), follow: stage.follow }));
  hooks.timeDraws = (n = 1) => {
    const gl = stage.renderer.getContext();
    const pixel = new Uint8Array(4);
    const times = [];
    for (let k = 0; k < n; k++) {
      const start = performance.now();
      stage.renderer.render(stage.scene, stage.camera);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);  // waits for the drawing to end (gl.finish need not)
      times.push(performance.now() - start);
    }
    return times;
  };
  hooks.screenOf = (p) => project(p).xy;
  hooks.inView = (p) => {
    const { v } = project(p);
    return Math.abs(v.x) < 1 && Math.abs(v.y) < 1 && Math.abs(v.z) < 1;
  };
  window.__roverlab = Object.freeze(hooks);
  /** The page's view, document and scenario picker, once made. */
  return function attach(parts) {
    ({ stage, doc, picker } = parts);
  };
}

// The run's snapshot fields (see the frame listener above).
const RUN_FIELDS = [
  'preset', 'robot', 'scenario', 'scenarioId', 'wheelRadius', 'scrubbing', 'time', 'shownTime', 'base', 'shownBase', 'wheelCentres', 'startBase',
  'frames', 'samples', 'playing', 'realTimeFactor', 'stepMs', 'firstFrameMs', 'shownContacts',
];
