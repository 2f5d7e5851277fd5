// The simulation side of the worker protocol, free of worker globals so that
// tests drive it directly: createSimHost(core, post, schedule, programs) returns handle(message).
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
// A controller program (docs/controllers.md): when the loaded scenario
// carries control.program ({ language: 'javascript', source }), the host
// compiles it (controller/program.js, which the host is given as `programs`:
// the worker loads it with the first scenario that has a program,
// needsPrograms) and steps the World through its
// ProgramRun, which calls the program's update synchronously in the step
// loop; an update due at the time a call ends is made then, so the program
// has seen every time the page is shown, but for the run's end: there, as
// the command line's run does, it ends before that update (the end state and
// its state_hash are the command line's). The page decides whether a
// scenario's program may run (sim_client.js leaves it out of the scenario
// otherwise). A compile error, a throw or an update past its budget stops
// the run ('programError'); a reset runs the program again from its start. A
// seek goes back by a reset and running again to the time (World.seek is
// refused with a program attached: the program's state lives here), the same
// bits as the first time. Its plot values become extra telemetry columns
// `plot.NAME` (at most MAX_PLOT_COLUMNS, each row holding the newest value
// at its time), its console lines and warnings travel with the frames.
//
// Messages in (main → worker):
//   { type: 'load', scenario, id, keep, paused }
//                                       scenario JSON text, validated and built here (never on
//                                       the page); answers 'busy' at once, then 'model' or
//                                       'issues' with the same id (and runs its control.program).
//                                       keep: a rejected scenario leaves the running world as it
//                                       was (a link or a file tried before it replaces the work);
//                                       otherwise the old world is dropped either way. paused: the
//                                       new world does not play before a 'play' (else it plays if
//                                       the old one did)
//   { type: 'tick', wallSeconds }       one render frame passed; answers one 'frame'
//   { type: 'play', extend } { type: 'pause' }
//                                       start / stop real-time stepping; extend: past the
//                                       scenario's duration (after 'finished')
//   { type: 'step', steps }             advance a number of steps now (paused single step); answers 'frame'
//   { type: 'reset' }                   back to t = 0; answers 'frame'
//   { type: 'seek', time }              back to an earlier time of the run (s), to go on from
//                                       there (World.seek: a new branch; with a program, a reset
//                                       and the run again up to the time); answers 'frame'
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
//   { type: 'busy' }                    the core alone works on something that may take long
//                                       (building a scenario, a reset, reading a URDF): no program
//                                       code runs before the next message (the page's watchdog waits)
//   { type: 'frame', frame, samples, stats, columns?, log? }
//                                       frame: Float64Array (own buffer, transferable);
//                                       samples: telemetry rows every 10 ms of simulated time
//                                       since the last frame (Float64Array, columns each: the
//                                       model's, then the program's plot columns);
//                                       stats: { playing, speed, steps, stepMs, stepsPerSecond, realTimeFactor };
//                                       columns: every column of the rows, when the program's plot
//                                       added one ('plot.NAME'; the rows are that wide from now on);
//                                       log: { reset, lines: [{ t, level, text }] }, the program's
//                                       console lines and warnings since the last frame (reset: the
//                                       program started again, the lines before are gone)
//   { type: 'programError', message, line, column, time }
//                                       the program was not compiled (a syntax error, an import:
//                                       line and column), threw, took too long or is not JavaScript
//                                       (line null); the run is paused and does not play again
//                                       before a reset (which runs the program again) or a new load
//   { type: 'alive', time }             before a program starts again after a reset, and every
//                                       100 ms while its run goes again up to a sought time
//   { type: 'error', message, outcome } the run stopped: outcome 'blew_up' or 'left_terrain'
//                                       (World.outcome()), message the core's; stepping is paused
//   { type: 'finished', time }          the run reached its scenario's duration (s) while
//                                       playing; stepping is paused (after that time's 'frame')
//   { type: 'summary', summary }        just before 'finished': World.summary() at the end, the
//                                       summary `roverlab run` prints (its wall_s 0)
// and from sim_worker.js: { type: 'started' } as it starts, { type: 'ready' } once the core is loaded, { type: 'fatal', message }
// when a message threw (the page then starts a fresh worker if a load was under way).
import { smooth, stepBudget, stepsForTick } from './pacing.js';
import { mergeTerrain, mergedBuffers } from './terrain_geometry.js';

// The simulation's share of a frame: half the time between render frames,
// at least 8 ms (half a 60 Hz frame), at most 100 ms (the page stays responsive).
const budgetFor = (wallSeconds) => Math.min(100, Math.max(8, 500 * wallSeconds));
// A slice of stepping at speed "max" (ms): ticks and inputs wait at most this long.
const SLICE_MS = 8;
/** The most plot values a program's run keeps as telemetry columns (more names are ignored, with a warning). */
export const MAX_PLOT_COLUMNS = 16;
/** A plot value's name: letters, digits, '_', '-' and '.', up to 40 (a CSV header's and a chart's name). */
const PLOT_NAME = /^[A-Za-z0-9_.-]{1,40}$/;
// While a program's run goes again up to a sought time: steps per call, and wall time between 'alive's (ms).
const RERUN_CHUNK = 500;
const ALIVE_MS = 100;

/** The control.program of a scenario's JSON text, or null (the text is parsed only if it names one). */
function programOf(text) {
  if (typeof text !== 'string' || !text.includes('"program"')) return null;
  try {
    return JSON.parse(text)?.control?.program ?? null;
  } catch {
    return null;  // the World says what is wrong with it
  }
}

/** The message is a load of a scenario with a program: the host needs controller/program.js for it. */
export const needsPrograms = (message) => message?.type === 'load' && programOf(message.scenario) !== null;

/** What a program threw, as text, whatever it threw (a Proxy, an object whose toString throws). */
function thrownText(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'the program threw something that cannot be shown';
  }
}

/**
 * @param core      the WASM core module
 * @param post      post(message, transfer): sends a message to the page
 * @param schedule  schedule(fn): runs fn in a later task, soon (the worker's zero-delay
 *                  task; without it, speed "max" steps only within ticks)
 * @param programs  controller/program.js's exports (compileProgram, ProgramRun, ProgramError), there
 *                  by the time a scenario with a program is loaded (needsPrograms); an object filled
 *                  in later will do
 */
export function createSimHost(core, post, schedule = null, programs = {}) {
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
  // The scenario's controller program, or null: { compiled (null: not compiled), run (its ProgramRun),
  // failed ({ message, line, column } once it stopped the run), names (its plot columns), values (the
  // newest value of each), events ([t, column, value] not yet in a row), logSent, warningsSent, logReset }.
  let program = null;
  let columns = [];  // the model's telemetry columns
  let programWorldModel = null;  // what ProgramRun reads of the model (robot, dt, joints, ...), taken at load

  const freeRunning = () => Boolean(schedule) && playing && speed === Infinity && world !== null && !world.error();

  /** Steps left before the end (at most `steps`). */
  function toEnd(steps) {
    if (end === Infinity) return steps;
    return Math.max(0, Math.min(steps, Math.round((end - world.time()) / world.dt())));
  }

  /** The run is at its end (not before it, not past it). */
  const atEnd = () => end !== Infinity && Math.round((end - world.time()) / world.dt()) === 0;

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

  /** A program for a new world: compiled here; a program that cannot run is stopped at once (its message sent). */
  function programFor(spec) {
    if (!spec) return null;
    const p = { compiled: null, run: null, failed: null, names: [], values: [], events: [], logSent: 0, warningsSent: 0, logReset: true };
    if (spec.language !== 'javascript') {
      p.failed = { message: `control.program: a ${spec.language} program runs with the Python package (docs/controllers.md); the app runs JavaScript ones`, line: null, column: null };
      return p;
    }
    const compiled = programs.compileProgram(spec.source);
    if (!compiled.ok) {
      const { line, column, message } = compiled.error;
      p.failed = { message: `line ${line}, column ${column}: ${message}`, line, column };
    } else {
      p.compiled = compiled;
    }
    return p;
  }

  /** A plot value of the program at time t: its column (a new one for a new name, up to MAX_PLOT_COLUMNS). */
  function plotted(t, name, value) {
    const p = program;
    let column = p.names.indexOf(name);
    if (column < 0) {
      if (!PLOT_NAME.test(name) || p.names.length >= MAX_PLOT_COLUMNS) {
        p.run?.warn(`plot:${PLOT_NAME.test(name) ? 'many' : name}`,
          PLOT_NAME.test(name)
            ? `plot: at most ${MAX_PLOT_COLUMNS} values are plotted; ${name} and any further ones are not`
            : `plot: ${JSON.stringify(name.slice(0, 40))} is not a plot name (letters, digits, _ - and ., up to 40); not plotted`);
        return;
      }
      column = p.names.push(name) - 1;
      p.values.push(NaN);
      p.namesChanged = true;
    }
    p.events.push([t, column, value]);
  }

  /** The program stopped the run: paused, and the page told (the line where there is one). */
  function stopProgram(error) {
    const p = program;
    p.failed = error instanceof programs.ProgramError ? { message: error.message, line: error.line, column: null } : { message: `the program failed: ${thrownText(error)}`, line: null, column: null };
    playing = false;
    sayProgramFailed();
  }

  function sayProgramFailed() {
    const { message, line, column } = program.failed;
    post({ type: 'programError', message, line, column, time: world.time() });
  }

  /** The program (again) from its start on the world at t = 0: init, and the update due now. */
  function startProgram() {
    const p = program;
    p.events = [];
    p.values.fill(NaN);
    p.logSent = p.warningsSent = 0;
    p.logReset = true;
    p.run = null;
    if (!p.compiled) return sayProgramFailed();
    p.failed = null;
    try {
      p.run = new programs.ProgramRun(world, p.compiled, { onPlot: plotted, model: programWorldModel });
      if (world.programDue()) p.run.update();
    } catch (error) {
      stopProgram(error);
    }
  }

  /** Up to `steps` steps, through the program when there is one; returns the steps taken. */
  function stepWorld(steps) {
    if (!program) return world.step(steps);
    const { run } = program;
    if (program.failed) return 0;  // the program stopped the run
    const t0 = world.time();
    try {
      const taken = run.step(steps);
      // The update due at the time the page will show (at the run's end, none: the command line's end state).
      if (world.programDue() && !atEnd()) run.update();
      return taken;
    } catch (error) {
      stopProgram(error);
      return Math.round((world.time() - t0) / world.dt());
    }
  }

  /** Telemetry rows with the program's plot columns after the model's: each row the newest values at its time. */
  function withPlots(samples) {
    const p = program;
    if (!p?.names.length) {
      if (p) p.events = [];
      return samples;
    }
    const w = columns.length;
    const k = p.names.length;
    const rows = samples.length / w;
    const out = new Float64Array(rows * (w + k));
    let e = 0;
    for (let r = 0; r < rows; r++) {
      const t = samples[r * w];
      for (; e < p.events.length && p.events[e][0] <= t + 1e-9; e++) p.values[p.events[e][1]] = p.events[e][2];
      out.set(samples.subarray(r * w, (r + 1) * w), r * (w + k));
      for (let c = 0; c < k; c++) out[r * (w + k) + w + c] = p.values[c];
    }
    p.events.splice(0, e);
    return out;
  }

  /** The program's console lines and warnings since the last frame ({ reset, lines }), or null. */
  function newLog() {
    const p = program;
    const run = p?.run;
    if (!p || (!p.logReset && !run)) return null;
    const lines = run ? run.log.slice(p.logSent) : [];
    const warnings = run ? run.warnings.slice(p.warningsSent).map((w) => ({ t: w.t, level: 'warn', text: w.message })) : [];
    if (!p.logReset && !lines.length && !warnings.length) return null;
    if (run) {
      p.logSent = run.log.length;
      p.warningsSent = run.warnings.length;
    }
    const reset = p.logReset;
    p.logReset = false;
    return { reset, lines: [...lines, ...warnings].sort((a, b) => a.t - b.t) };
  }

  /** Back to t = 0; a program starts again (the page hears of it before any of its code runs). */
  function resetWorld() {
    if (!program) return world.reset();
    post({ type: 'busy' });
    world.reset();
    post({ type: 'alive', time: 0 });
    startProgram();
  }

  /** With a program: back to time t by a reset and running again (the same bits as the first time). */
  function runAgainTo(t) {
    resetWorld();
    const target = Math.max(0, Math.round(t / world.dt()));
    let done = 0;
    let said = performance.now();
    while (done < target && !program.failed) {
      const k = stepWorld(Math.min(RERUN_CHUNK, target - done));
      withPlots(world.samples());  // the page has these rows already
      if (k === 0) break;
      done += k;
      if (performance.now() - said > ALIVE_MS) {
        said = performance.now();
        post({ type: 'alive', time: world.time() });
      }
    }
  }

  function sendFrame(steps, stepMs) {
    const frame = world.frame().slice();  // a copy in a buffer of its own, transferred
    const samples = withPlots(world.samples());
    const message = { type: 'frame', frame, samples, stats: { playing, speed, steps, stepMs, stepsPerSecond, realTimeFactor } };
    if (program?.namesChanged) {
      program.namesChanged = false;
      message.columns = [...columns, ...program.names.map((n) => `plot.${n}`)];
    }
    const log = newLog();
    if (log) message.log = log;
    post(message, [frame.buffer, samples.buffer]);
    const error = world.error();
    if (error && !reported) {
      reported = true;
      playing = false;
      post({ type: 'error', message: error, outcome: world.outcome() });
    } else if (!error && playing && !finished && toEnd(1) === 0) {
      finished = true;
      playing = false;
      post({ type: 'summary', summary: world.summary(0) });
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
    const taken = steps > 0 ? stepWorld(steps) : 0;
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
        if (!programs.compileProgram && needsPrograms(message)) throw new Error('a scenario with a program, and controller/program.js not loaded (needsPrograms)');
        const { id, keep = false } = message;
        post({ type: 'busy' });
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
        if (message.paused) playing = false;
        pacing = { debt: 0 };
        free.steps = free.ms = 0;
        reported = false;
        realTimeFactor = undefined;
        const model = world.model();
        programWorldModel = { robot: model.robot, dt: model.dt, duration: model.duration, maxWheelSpeed: model.maxWheelSpeed, joints: model.joints, wheels: model.wheels };
        columns = model.columns;
        duration = model.duration > 0 ? model.duration : Infinity;
        restartEnd();
        program = programFor(programOf(message.scenario));
        const mesh = mergeTerrain([...model.terrain.pieces, ...(model.terrain.meshes ?? [])]);
        const { heightmaps } = model.terrain;
        model.terrain = { box: model.terrain.box, mesh, heightmaps, features: model.terrain.features };
        post({ type: 'model', model, id, buildMs }, [...mergedBuffers(mesh), ...heightmaps.map((f) => f.heights.buffer)]);
        if (program) startProgram();
        sendFrame(0, 0);
        return;
      }
      case 'presets':
        post({ type: 'presets', presets: core.presets() });
        return;
      case 'decode': {
        const { id } = message;
        // The link reader is loaded with the first link.
        import('../share/share_link.js')
          .then(({ decodeShare }) => decodeShare(message.fragment))
          .then((d) =>
          post(
            d.ok
              ? { type: 'decoded', id, ok: true, scenario: JSON.stringify(d.payload.scenario), camera: d.payload.camera ?? null, study: d.payload.study ?? null }
              : { type: 'decoded', id, ok: false, code: d.code, message: d.message },
          ),
        );
        return;
      }
      case 'importRobot': {
        post({ type: 'busy' });
        const result = core.importRobot(message.urdf, message.files ?? {});
        post({ type: 'robotImported', id: message.id, ...result });
        return;
      }
      case 'play':
        if (!world || world.error()) return;
        if (program?.failed) return sayProgramFailed();
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
        resetWorld();
        wentBack();
        sendFrame(0, 0);
        return;
      case 'seek':
        if (!world) return;
        if (program) {
          runAgainTo(Number(message.time));
          wentBack();
        } else if (world.seek(Number(message.time))) {
          wentBack();
        }
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
