// The page's side of the simulation worker (protocol: sim_host.js): starts
// it (and a fresh one after Cancel or a failed build); the first worker
// downloads and compiles the core itself and posts the compiled module back
// (`compiled`: the page's own core and every later worker use it, not
// downloading and compiling it again), sends it scenarios to
// validate and build (never on this page, so even one of thousands of pieces
// leaves the page responsive), reads share links in it, shows the progress
// note with Cancel while a build takes long, and passes on what it answers
// as signals.
//
// A scenario's controller program (control.program) goes to the worker only
// if it may run by itself (controller/program_trust.js: the user ran it here,
// or it comes with the app); otherwise the scenario goes without it, paused,
// and programHeld says so (the Controller tab asks "Show it / Run it"). While
// the worker runs a program, a watchdog stops it when the worker has not
// answered for WATCHDOG_MS (an update or init that never returns), or when
// the worker dies (out of memory): the worker is replaced, the scenario
// loaded again without the program, paused, and the program no longer runs
// by itself; the editor's document and the autosave keep it. The program the
// worker runs is noted in the storage (trust.running) for as long as it runs:
// in Chromium a worker out of memory ends the page with it, watchdog and all,
// and the next start then holds that program (program_trust.js).
import { DEFAULT_ID, defaultScenario } from '../scenario/scenarios.js';

const PROGRESS_AFTER_MS = 300;  // a build taking longer shows the progress note
const LOG_LENGTH = 20;
/** A worker running a program that has not answered for this long (ms) is stopped. */
export const WATCHDOG_MS = 2000;
const WATCH_EVERY_MS = 250;
const PROGRAM_LOG_LINES = 1000;  // the program's log lines the page keeps

/** The scenario without its control.program (what the worker gets for a program that may not run). */
export function withoutProgram(scenario) {
  const control = { ...scenario.control };
  delete control.program;
  return { ...scenario, control };
}

/** A time for a message: "1.23". */
const seconds = (t) => String(Number((t ?? 0).toFixed(2)));

const kB = (bytes) => Math.round(bytes / 1024).toLocaleString('en-US');
/** " (320 of 650 kB)" from the worker's progress, or "" before any. */
const coreBytes = (p) => (!p ? '' : p.total ? ` (${kB(p.loaded)} of ${kB(p.total)} kB)` : ` (${kB(p.loaded)} kB)`);


export class SimClient {
  /**
   * @param {{ state, signals, banners, speed: () => number, trust }} deps
   *   speed(): the speed picked on the page, sent to every new worker;
   *   trust: which programs may run by themselves (controller/program_trust.js)
   */
  constructor({ state, signals, banners, speed, trust }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, signals, banners, speed, trust, $ });
    this.worker = null;
    this.workerReady = false;
    this.coreProgress = null;  // { loaded, total } bytes of the core downloaded
    // The core's WebAssembly.Module, once a worker compiled it: for the page's own core (`compiled`
    // resolves to it) and the workers started after.
    this.module = null;
    this.compiled = new Promise((resolve) => (this.compiledNow = resolve));
    this.started = null;  // resolves when the newest worker runs (its first message)
    // Loads in flight: id → { id, scenario, keep, restore, onBuilt, onRejected, sentAt }.
    // The worker answers each with 'model' or 'issues' and the same id, in order.
    this.loads = new Map();
    this.loadCount = 0;
    this.running = null;  // the scenario of the newest load the worker built (what runs)
    // Share links being read in the worker: id → resolve(answer).
    this.decodes = new Map();
    this.decodeCount = 0;
    this.robotImports = new Map();
    this.held = null;  // while play is held (holdPlay): { play, extend } asked for meanwhile
    this.progressTimer = null;
    // The watchdog: the program the worker's world runs (its text, or null), whether the core alone is
    // busy (a build or a reset: no program code runs), since when a message waits for an answer
    // (performance.now(), or null), the newest simulated time heard of, and the last check.
    this.liveProgram = null;
    this.coreBusy = false;
    this.waitingSince = null;
    this.lastTime = 0;
    this.lastCheck = performance.now();
    setInterval(() => this.watch(), WATCH_EVERY_MS);
    window.addEventListener('pagehide', () => trust.running(null));
    window.addEventListener('pageshow', (event) => event.persisted && trust.running(this.liveProgram));
    $('progress-cancel').addEventListener('click', () => this.restart('Building was cancelled'));
  }

  /** A scenario is being built. */
  get busy() {
    return this.loads.size > 0;
  }

  /** The one place a message goes to the worker (sim_host.js reads them). */
  post(message, transfer = []) {
    this.waitingSince ??= performance.now();
    this.worker.postMessage(message, transfer);
  }

  /**
   * The run steps only once `until` (a promise) settles: the page holds its first run until the
   * first frame is drawn (main.js). Play and pause meanwhile are kept; the last one counts then.
   */
  holdPlay(until) {
    const held = (this.held = { play: false, extend: false });
    const release = () => {
      if (this.held !== held) return;
      this.held = null;
      if (held.play) this.post({ type: 'play', extend: held.extend });
    };
    until.then(release, release);
  }

  /** Plays the run (`extend`: on past the scenario's duration). */
  play(extend = false) {
    if (this.held) return void Object.assign(this.held, { play: true, extend });
    this.post({ type: 'play', extend });
  }

  pause() {
    if (this.held) this.held.play = false;
    this.post({ type: 'pause' });
  }

  /** Back to the recorded time `time` (s): the run goes on from there (a program runs again up to it). */
  seek(time) {
    this.programRestarts();
    this.state.summary = null;
    this.post({ type: 'seek', time });
  }

  /** Advances `steps` steps (paused). */
  step(steps) {
    this.post({ type: 'step', steps });
  }

  /** Back to t = 0 of the same scenario (its program from its start). */
  reset() {
    this.programRestarts();
    this.state.summary = null;
    this.post({ type: 'reset' });
  }

  /** A reset or a seek starts the world's program again: it runs (until the worker says otherwise). */
  programRestarts() {
    const { state } = this;
    if (this.liveProgram && state.program.source !== null) state.program = { ...state.program, running: true, error: null };
  }

  /** The automatic controller on or off. */
  setController(on) {
    this.post({ type: 'controller', on });
  }

  /** Simulated seconds per wall second (Infinity: as fast as the core steps). */
  setSpeed(speed) {
    this.post({ type: 'speed', speed });
  }

  /** Asks for the next frame, `wallSeconds` after the last ask. */
  tick(wallSeconds) {
    this.post({ type: 'tick', wallSeconds });
  }

  /** A joint's target (rad or m). */
  setJoint(name, target) {
    this.post({ type: 'joint', name, target });
  }

  /** The wheel speeds of the left and right side (rad/s). */
  setWheels(left, right) {
    this.post({ type: 'wheels', left, right });
  }

  /** Starts a worker and sends it the core (the compiled module, or null: it compiles it) and what the page set up (presets, speed). */
  start() {
    const worker = new Worker(new URL('./sim_worker.js', import.meta.url), { type: 'module' });
    this.worker = worker;
    this.started = new Promise((resolve) => (this.startedNow = resolve));
    worker.postMessage({ type: 'core', module: this.module });
    this.workerReady = false;
    this.coreProgress = null;
    this.liveProgram = null;
    this.trust.running(null);
    this.coreBusy = false;
    this.waitingSince = null;
    this.worker.onmessage = ({ data }) => this.onMessage(data);
    // A worker that dies while a program runs (out of memory): as a program that does not return.
    this.worker.onerror = () => {
      if (this.liveProgram !== null)
        this.stopProgram(`The simulation's worker stopped while the controller program ran (at t = ${seconds(this.lastTime)} s; it may have run out of memory): stopped`);
    };
    this.post({ type: 'presets' });
    this.setSpeed(this.speed());
  }

  /**
   * Sends a scenario to the worker to validate and build. By default it
   * replaces the run at once: the old world is dropped even if the new one is
   * rejected (its issues are shown). keep: the current run goes on until the
   * new one is built, and stays if it is rejected (links and files, which are
   * tried before they replace the user's work); onBuilt() and onRejected(issues)
   * then say what happened. restore: the load that brings back a run after a
   * cancel. text: the scenario's JSON text, when the caller has it. camera: the camera
   * pose to take at the built run's first frame (a share link's). paused: the run does not
   * play by itself. origin: 'link' or 'file', for what the page says of a program it holds.
   * A JavaScript program that may not run by itself (this.trust) is left out of what the
   * worker gets, and the run is paused: entry.held says so ({ source, reason: 'consent' or
   * 'stopped', message, origin }); entry.program is the program that runs, or null.
   */
  load(scenario, { keep = false, restore = false, onBuilt, onRejected, text, camera = null, paused = false, origin = null } = {}) {
    const id = ++this.loadCount;
    const program = scenario?.control?.program ?? null;
    const js = program?.language === 'javascript' && typeof program.source === 'string';
    let held = null;
    if (js && !this.trust.allows(program.source)) {
      const message = this.trust.stoppedWhy(program.source);
      held = { source: program.source, reason: message ? 'stopped' : 'consent', message, origin };
    }
    const sent = held ? withoutProgram(scenario) : scenario;
    const entry = { id, scenario, keep, restore, onBuilt, onRejected, camera, origin, held, program: held ? null : program, paused: paused || Boolean(held), sentAt: performance.now() };
    this.loads.set(id, entry);
    this.post({ type: 'load', scenario: held ? JSON.stringify(sent) : (text ?? JSON.stringify(scenario)), id, keep, paused: entry.paused });
    this.signals.loadStarted.dispatch(entry);
    this.watchLoads();
  }

  /**
   * A URDF's text and its mesh files ({ name: Uint8Array }, transferred) read
   * in the worker into a robot description: { ok, model, warnings } or
   * { ok: false, issues }.
   */
  importRobot(urdf, files) {
    const id = ++this.decodeCount;
    this.post({ type: 'importRobot', urdf, files, id }, Object.values(files).map((bytes) => bytes.buffer));
    return new Promise((resolve) => this.robotImports.set(id, resolve));
  }

  /** decodeShare(fragment) in the worker: { ok, scenario (JSON text), camera } or { ok: false, code, message }. */
  decode(fragment) {
    const id = ++this.decodeCount;
    this.post({ type: 'decode', fragment, id });
    return new Promise((resolve) => this.decodes.set(id, resolve));
  }

  /** The load an answer belongs to (null for a worker that was replaced). */
  settle(id, data) {
    const entry = this.loads.get(id) ?? null;
    this.loads.delete(id);
    this.watchLoads();
    const { loadLog } = this.state;
    if (entry) {
      const ms = performance.now() - entry.sentAt;
      loadLog.push({ id, keep: entry.keep, sentAt: entry.sentAt, ms, buildMs: data.buildMs, built: data.type === 'model' });
      if (loadLog.length > LOG_LENGTH) loadLog.shift();
    }
    this.state.buildMs = data.buildMs;
    return entry;
  }

  /** Shows "Building the scenario… N s" with Cancel while a load has taken more than 300 ms. */
  watchLoads() {
    const { state, $ } = this;
    const oldest = this.loads.values().next().value;
    state.loading = Boolean(oldest);
    if (!oldest) {
      clearInterval(this.progressTimer);
      this.progressTimer = null;
      $('progress').hidden = true;
      state.progress = null;
      return;
    }
    this.progressTimer ??= setInterval(() => this.watchLoads(), 50);
    const ms = performance.now() - oldest.sentAt;
    if (ms < PROGRESS_AFTER_MS && this.workerReady) return;  // while the core loads, at once
    const text = this.workerReady
      ? `Building the scenario… ${(ms / 1000).toFixed(1)} s`
      : `Loading the simulation core${coreBytes(this.coreProgress)}… ${(ms / 1000).toFixed(1)} s`;
    $('progress-text').textContent = text;
    $('progress').hidden = false;
    state.progress = text;
  }

  /**
   * Stops the worker (whatever it is building), starts a fresh one and runs
   * the scenario that ran before (or the default one if there was none, or if
   * bringing it back was itself cancelled). The editor's document, and so the
   * autosaved work, is left alone.
   */
  restart(why) {
    const pending = this.replaceWorker(why);
    const back = pending.some((e) => e.restore) || !this.running ? null : this.running;
    this.load(back ?? defaultScenario(), { restore: true });
    const tried = pending.at(-1);
    const what = back ? 'the scenario that ran before runs again' : `the default scenario (${DEFAULT_ID}) runs`;
    const work = tried?.keep ? 'Your work is unchanged.' : 'Your scenario stays in the editor (and in the autosave).';
    this.banners.show(`${why}: ${what}. ${work}`, why.startsWith('Building') ? 'info' : 'error');
    this.state.restarts = (this.state.restarts ?? 0) + 1;
  }

  /** Stops the worker and starts a fresh one; returns the loads it had not answered. */
  replaceWorker(why) {
    const pending = [...this.loads.values()];
    this.worker.terminate();
    this.loads.clear();
    this.decodes.clear();  // a link being read is dropped with the worker
    for (const resolve of this.robotImports.values())
      resolve({ ok: false, issues: [{ path: 'robot.urdf', message: `was not read: ${why}` }] });
    this.robotImports.clear();
    this.start();
    return pending;
  }

  /** The watchdog's look (every WATCH_EVERY_MS): a worker running a program that has left a message
   * unanswered for WATCHDOG_MS is stuck in it. */
  watch() {
    const now = performance.now();
    // This page itself was held up (or its timers slowed in the background): the worker gets the time again.
    if (now - this.lastCheck > 4 * WATCH_EVERY_MS && this.waitingSince !== null) this.waitingSince = now;
    this.lastCheck = now;
    if (this.liveProgram === null || this.coreBusy || this.waitingSince === null) return;
    if (now - this.waitingSince < WATCHDOG_MS) return;
    this.stopProgram(`The controller program did not return within ${WATCHDOG_MS / 1000} s at t = ${seconds(this.lastTime)} s: stopped`);
  }

  /**
   * The worker's program is stopped (`why`): the worker is replaced, the program no longer
   * runs by itself (this.trust), and the scenario is loaded again without it, paused (the
   * newest load not answered, if any, else the one that ran). The editor's document, and so
   * the autosave, keeps the program.
   */
  stopProgram(why) {
    const source = this.liveProgram;
    this.trust.stop(source, why);
    const pending = this.replaceWorker(why);
    const newest = pending.at(-1);
    const { scenario, keep, onBuilt, onRejected, camera, origin } = newest ?? { scenario: this.running ?? defaultScenario() };
    this.load(scenario, { keep, onBuilt, onRejected, camera, origin, paused: true });
    this.state.program = { ...this.state.program, running: false };
    this.signals.programChanged.dispatch();
    this.banners.show(`${why}. The simulation restarted; your program is kept.`);
    this.state.restarts = (this.state.restarts ?? 0) + 1;
  }

  /** The program's part of a frame: its log lines (data.log: { reset, lines }). */
  programLog(log) {
    const { state } = this;
    const lines = log.reset ? log.lines : [...state.program.log, ...log.lines];
    state.program = { ...state.program, log: lines.slice(-PROGRAM_LOG_LINES) };
    this.signals.programChanged.dispatch();
  }

  onMessage(data) {
    const { state, signals } = this;
    this.waitingSince = null;  // the worker answers
    this.startedNow();
    this.coreBusy = data.type === 'busy';
    switch (data.type) {
      case 'busy':
      case 'started':
        return;
      case 'alive':
        this.lastTime = data.time;
        return;
      case 'programError': {
        this.lastTime = data.time;
        const { message, line, column, time } = data;
        state.program = { ...state.program, running: false, error: { message, line, column, time } };
        signals.programChanged.dispatch();
        signals.runStopped.dispatch({ message, outcome: 'program_error' });
        return;
      }
      case 'coreProgress':
        this.coreProgress = data;
        return this.watchLoads();
      case 'coreModule':
        this.module = data.module;
        return this.compiledNow(data.module);
      case 'ready':
        this.workerReady = true;
        if (!performance.getEntriesByName('roverlab:worker-ready').length) performance.mark('roverlab:worker-ready');
        return;
      case 'decoded':
        this.decodes.get(data.id)?.(data);
        this.decodes.delete(data.id);
        return;
      case 'robotImported':
        this.robotImports.get(data.id)?.(data);
        this.robotImports.delete(data.id);
        return;
      case 'presets':
        if (state.presets.length) return;  // a restarted worker: the picker is filled already
        state.presets = data.presets;
        signals.presetsLoaded.dispatch(data.presets);
        return;
      case 'issues': {
        const entry = this.settle(data.id, data);
        state.issues = data.issues;
        if (entry && !entry.keep) {
          this.liveProgram = null;  // the world was dropped
          this.trust.running(null);
          state.program = { ...state.program, running: false };
        }
        if (entry?.onRejected) return entry.onRejected(data.issues);
        signals.issues.dispatch(data.issues);
        return;
      }
      case 'model': {
        if (!performance.getEntriesByName('roverlab:model').length) performance.mark('roverlab:model');
        const entry = this.settle(data.id, data);
        state.issues = [];
        state.fatal = null;
        if (entry) {
          state.loadMs = performance.now() - entry.sentAt;
          state.scenario = entry.scenario;
          state.summary = null;
          this.running = entry.scenario;
          const { program } = entry;
          this.liveProgram = program?.language === 'javascript' ? program.source : null;
          this.trust.running(this.liveProgram);
          this.lastTime = 0;
          const source = entry.scenario?.control?.program?.source;
          state.program = { source: typeof source === 'string' ? source : null, running: this.liveProgram !== null, held: entry.held, error: null, log: [] };
        }
        signals.scenarioLoaded.dispatch(data.model, entry);
        entry?.onBuilt?.();
        if (entry) signals.programChanged.dispatch();
        if (entry?.held) signals.programHeld.dispatch(entry.held);
        return;
      }
      case 'frame':
        this.lastTime = data.frame[0];
        if (data.log) this.programLog(data.log);
        signals.frameArrived.dispatch(data.frame, data.stats, data.samples, data.columns ?? null);
        return;
      case 'summary':
        state.summary = data.summary;
        return;
      case 'finished':
        signals.runFinished.dispatch({ time: data.time });
        return;
      case 'error':
        signals.runStopped.dispatch({ message: data.message, outcome: data.outcome });
        return;
      case 'fatal':
        state.fatal = data.message;
        if (this.busy) return this.restart(`The simulation core failed while building (${data.message})`);
        this.banners.show(`The simulation core failed: ${data.message}`);
        return;
      default:
    }
  }
}
