// The simulation side of the worker protocol, free of worker globals so that
// tests drive it directly: createSimHost(core, post, schedule) returns handle(message).
//
// Stepping: at a finite speed, each tick takes the steps its wall time owes
// (pacing.js). At speed "max" the host steps on its own between ticks, in
// slices of SLICE_MS run through schedule(fn) (a zero-delay task), so the core
// works while the page draws instead of waiting for the next tick; each tick
// then reports what was taken since the last one.
//
// A run plays up to its scenario's simulation.duration and stops there, as
// the CLI does ('finished'); a 'play' with extend: true goes on past it until
// paused. A reset, a seek or a new load brings the end back to the duration.
// Single steps ('step') are explicit and may pass it.
//
// Messages in (main → worker):
//   { type: 'load', scenario, id, keep }
//                                       scenario JSON text, validated and built here (never on
//                                       the page); answers 'model' or 'issues' with the same id.
//                                       keep: a rejected scenario leaves the running world as it
//                                       was (a link or a file tried before it replaces the work);
//                                       otherwise the old world is dropped either way
//   { type: 'tick', wallSeconds }       one render frame passed; answers one 'frame'
//   { type: 'play', extend } { type: 'pause' }
//                                       start / stop real-time stepping; extend: past the
//                                       scenario's duration (after 'finished')
//   { type: 'step', steps }             advance a number of steps now (paused single step); answers 'frame'
//   { type: 'reset' }                   back to t = 0; answers 'frame'
//   { type: 'seek', time }              back to an earlier time of the run (s), to go on from
//                                       there (World.seek: a new branch); answers 'frame'
//   { type: 'speed', speed }            0.1 … 10, or Infinity for as fast as possible
//   { type: 'wheels', left, right }     wheel speed commands (rad/s)
//   { type: 'joint', name, target }     a joint drive's target (rad or m)
//   { type: 'controller', on }          the scenario's named controller on or off (operator mode)
//   { type: 'presets' }                 answers 'presets'
//   { type: 'decode', fragment, id }    a share link's fragment, read here (share_link.js's
//                                       decodeShare: unpacking and parsing up to 1 MiB);
//                                       answers 'decoded' with the same id
//   { type: 'importRobot', urdf, files, id }
//                                       a URDF's text and its mesh files ({ name: Uint8Array }) read
//                                       into a robot description (core.importRobot); answers
//                                       'robotImported' with the same id
// Messages out (worker → main):
//   { type: 'presets', presets }        core.presets(): every preset with its parameter specs
//   { type: 'decoded', id, ok, scenario, camera, study } or { type: 'decoded', id, ok: false, code, message }
//                                       scenario: the link's scenario as JSON text; camera or null;
//                                       study: the link's study (without its scenario) or null
//   { type: 'robotImported', id, ok, model, warnings } or { type: 'robotImported', id, ok: false, issues }
//                                       model: the robot's description (docs/robot-format.md)
//   { type: 'model', model, id, buildMs }
//                                       the World's model() (sim/frame.h layout, columns, ...),
//                                       its terrain as { box, mesh } (mesh: terrain_geometry.js's
//                                       mergeTerrain, transferred) instead of per-piece meshes;
//                                       buildMs: validating and building the World (ms)
//   { type: 'issues', issues, id, buildMs }
//                                       [{ path, message }] of a rejected scenario
//   { type: 'frame', frame, samples, stats }
//                                       frame: Float64Array (own buffer, transferable);
//                                       samples: telemetry rows every 10 ms of simulated time
//                                       since the last frame (Float64Array, columns each);
//                                       stats: { playing, speed, steps, stepMs, stepsPerSecond, realTimeFactor }
//   { type: 'error', message, outcome } the run stopped: outcome 'blew_up' or 'left_terrain'
//                                       (World.outcome()), message the core's; stepping is paused
//   { type: 'finished', time }          the run reached its scenario's duration (s) while
//                                       playing; stepping is paused (after that time's 'frame')
// and from sim_worker.js: { type: 'ready' } once the core is loaded, { type: 'fatal', message }
// when a message threw (the page then starts a fresh worker if a load was under way).
import { smooth, stepBudget, stepsForTick } from './pacing.js';
import { decodeShare } from '../share/share_link.js';
import { mergeTerrain, mergedBuffers } from './terrain_geometry.js';

// The simulation's share of a frame: half the time between render frames,
// at least 8 ms (half a 60 Hz frame), at most 100 ms (the page stays responsive).
const budgetFor = (wallSeconds) => Math.min(100, Math.max(8, 500 * wallSeconds));
// A slice of stepping at speed "max" (ms): ticks and inputs wait at most this long.
const SLICE_MS = 8;

/**
 * @param core      the WASM core module
 * @param post      post(message, transfer): sends a message to the page
 * @param schedule  schedule(fn): runs fn in a later task, soon (the worker's zero-delay
 *                  task; without it, speed "max" steps only within ticks)
 */
export function createSimHost(core, post, schedule = null) {
  let world = null;
  let playing = false;
  let speed = 1;
  let pacing = { debt: 0 };
  let msPerStep = 0.05;
  let stepsPerSecond;
  let realTimeFactor;
  let reported = false;
  // Where playing stops (s): the scenario's duration, or Infinity once extended.
  let end = Infinity;
  let duration = Infinity;  // the scenario's simulation.duration (s)
  let finished = false;  // 'finished' was sent for the present end
  // Stepping at speed "max" between ticks: steps and ms since the last frame, and whether a slice is scheduled.
  const free = { steps: 0, ms: 0, scheduled: false };

  const freeRunning = () => Boolean(schedule) && playing && speed === Infinity && world !== null && !world.error();

  /** Steps left before the end (at most `steps`). */
  function toEnd(steps) {
    if (end === Infinity) return steps;
    return Math.max(0, Math.min(steps, Math.round((end - world.time()) / world.dt())));
  }

  /** One slice of stepping at speed "max", then the next one (while it still runs free). */
  function slice() {
    free.scheduled = false;
    if (!freeRunning()) return;
    const { taken, ms } = advance(toEnd(stepBudget(msPerStep, SLICE_MS)));
    free.steps += taken;
    free.ms += ms;
    if (world.error()) return;
    runFree();
  }

  function runFree() {
    if (free.scheduled || !freeRunning()) return;
    free.scheduled = true;
    schedule(slice);
  }

  function dispose() {
    world?.delete();
    world = null;
  }

  function sendFrame(steps, stepMs) {
    const frame = world.frame().slice();  // a copy in a buffer of its own, transferred
    const samples = world.samples();
    post(
      {
        type: 'frame',
        frame,
        samples,
        stats: { playing, speed, steps, stepMs, stepsPerSecond, realTimeFactor },
      },
      [frame.buffer, samples.buffer],
    );
    const error = world.error();
    if (error && !reported) {
      reported = true;
      playing = false;
      post({ type: 'error', message: error, outcome: world.outcome() });
    } else if (!error && playing && !finished && toEnd(1) === 0) {
      finished = true;
      playing = false;
      post({ type: 'finished', time: world.time() });
    }
  }

  /** The end back at the scenario's duration (a load, a reset, a seek). */
  function restartEnd() {
    end = duration;
    finished = false;
  }

  /** The run went back in time (a reset or a seek): its end, pacing and step counts start again. */
  function wentBack() {
    reported = false;
    restartEnd();
    pacing = { debt: 0 };
    free.steps = free.ms = 0;
  }

  function advance(steps) {
    const start = performance.now();
    const taken = steps > 0 ? world.step(steps) : 0;
    const ms = performance.now() - start;
    if (taken > 0) {
      msPerStep = smooth(msPerStep, ms / taken, 0.2);
      if (ms > 0) {
        stepsPerSecond = smooth(stepsPerSecond, (taken * 1000) / ms);
      }
    }
    return { taken, ms };
  }

  return function handle(message) {
    switch (message.type) {
      case 'load': {
        const { id, keep = false } = message;
        const start = performance.now();
        const created = new core.World(message.scenario);
        const buildMs = performance.now() - start;
        if (!created.ok()) {
          const issues = created.issues();
          created.delete();
          if (!keep) {
            dispose();
            playing = false;
          }
          post({ type: 'issues', issues, id, buildMs });
          return;
        }
        dispose();
        world = created;
        pacing = { debt: 0 };
        free.steps = free.ms = 0;
        reported = false;
        realTimeFactor = undefined;
        const model = world.model();
        duration = model.duration > 0 ? model.duration : Infinity;
        restartEnd();
        const mesh = mergeTerrain([...model.terrain.pieces, ...(model.terrain.meshes ?? [])]);
        const { heightmaps } = model.terrain;
        model.terrain = { box: model.terrain.box, mesh, heightmaps, features: model.terrain.features };
        post({ type: 'model', model, id, buildMs }, [...mergedBuffers(mesh), ...heightmaps.map((f) => f.heights.buffer)]);
        sendFrame(0, 0);
        return;
      }
      case 'presets':
        post({ type: 'presets', presets: core.presets() });
        return;
      case 'decode': {
        const { id } = message;
        decodeShare(message.fragment).then((d) =>
          post(
            d.ok
              ? { type: 'decoded', id, ok: true, scenario: JSON.stringify(d.payload.scenario), camera: d.payload.camera ?? null, study: d.payload.study ?? null }
              : { type: 'decoded', id, ok: false, code: d.code, message: d.message },
          ),
        );
        return;
      }
      case 'importRobot': {
        const result = core.importRobot(message.urdf, message.files ?? {});
        post({ type: 'robotImported', id: message.id, ...result });
        return;
      }
      case 'play':
        if (!world || world.error()) return;
        if (message.extend) end = Infinity;
        playing = toEnd(1) > 0;  // at the end only an extension plays
        return;
      case 'pause':
        playing = false;
        return;
      case 'speed':
        speed = message.speed === Infinity ? Infinity : Math.min(Math.max(Number(message.speed) || 1, 0.1), 10);
        return;
      case 'wheels':
        world?.setWheelSpeeds(message.left, message.right);
        return;
      case 'joint':
        world?.setJointTarget(message.name, message.target);
        return;
      case 'controller':
        world?.setController(Boolean(message.on));
        return;
      case 'reset':
        if (!world) return;
        world.reset();
        wentBack();
        sendFrame(0, 0);
        return;
      case 'seek':
        if (!world) return;
        if (world.seek(Number(message.time))) wentBack();
        sendFrame(0, 0);
        return;
      case 'step': {
        if (!world) return;
        const { taken, ms } = advance(Math.max(1, Math.floor(message.steps) || 1));
        sendFrame(taken, ms);
        return;
      }
      case 'tick': {
        if (!world) return;
        // What was stepped between ticks at speed "max" (slice()) counts for this tick.
        let { steps: taken, ms } = free;
        free.steps = free.ms = 0;
        if (schedule && playing && speed === Infinity) {
          if (message.wallSeconds > 0) realTimeFactor = smooth(realTimeFactor, (taken * world.dt()) / message.wallSeconds);
          runFree();  // the first tick at "max" starts the slices
        } else if (playing) {
          const maxSteps = stepBudget(msPerStep, budgetFor(message.wallSeconds));
          const plan = stepsForTick(pacing, { wallSeconds: message.wallSeconds, speed, dt: world.dt(), maxSteps });
          pacing = plan.state;
          const stepped = advance(toEnd(plan.steps));
          taken += stepped.taken;
          ms += stepped.ms;
          if (message.wallSeconds > 0) realTimeFactor = smooth(realTimeFactor, (taken * world.dt()) / message.wallSeconds);
        }
        sendFrame(taken, ms);
        return;
      }
      default:
        throw new Error(`unknown message type '${message.type}'`);
    }
  };
}
