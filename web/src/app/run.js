// The run on show: the robot of the model the worker built, posed from its
// frames (interpolated, or a recorded one while the timeline scrubs), the
// camera following it, the clock, the timeline, the plots and the status;
// play, pause, step and reset; the banners of a rejected scenario, of a run
// that stopped or finished and of a scenario's warnings. A run plays up to its
// scenario's duration and stops there ("finished at 30 s", with its outcome in
// words); Play then goes on past it, as an extension, until paused.
import * as THREE from 'three';

import { Driver } from './driving.js';
import { formatIssues } from '../common/issues.js';
import { releaseAfterPointerUse } from '../common/keyboard_focus.js';
import { describeOutcome } from '../runs/outcome.js';
import { RobotView } from '../view/robot_view.js';
import { clearStatus, showStatus } from './status_line.js';
import { Telemetry } from '../runs/telemetry.js';

const PLOT_EVERY_MS = 250;
const STEP_SECONDS = 0.01;  // what Step advances: one telemetry sample, a visible tick of the clock
const IDLE_DRAW_MS = 1000;  // a paused view with nothing new is drawn at most this often
const FRAME_BYTES = 64 * 2 ** 20;  // the timeline's frames of a run (history.js keeps the whole run within it)
const VIEW_OPTIONS = ['follow', 'forces', 'f-normal', 'f-tangential', 'f-resultant', 'force-scale', 'trails'];

/** A time for the status: "30 s", "10.84 s". */
export function formatSeconds(t) {
  return `${Number(t.toFixed(t < 100 ? 2 : 1))} s`;
}

export class Run {
  /** stage: the 3-D view (scene.js), or null until setStage (before the first model arrives). */
  constructor({ state, signals, stage = null, plots, client, banners }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, signals, stage, plots, client, banners, $ });
    this.lastTick = performance.now();
    this.lastPlot = 0;
    this.freshFrame = false; // a frame arrived since the last draw
    this.lastInput = 0;      // the user's last input anywhere on the page (ms)
    for (const type of ['pointerdown', 'pointermove', 'wheel', 'keydown', 'input', 'change'])
      window.addEventListener(type, () => (this.lastInput = performance.now()), { capture: true, passive: true });
    signals.loadStarted.add((entry) => {
      if (entry.keep) return;  // the current run goes on until the new one is built
      this.clearStop();
      banners.hide();
      this.setPlaying(!entry.paused);
    });
    signals.scenarioLoaded.add((model, entry) => {
      if (entry?.keep) {
        this.clearStop();
        banners.hide();
      }
      this.show(model, entry);
      if (entry?.keep) this.setPlaying(!entry.paused);
    });
    signals.issues.add((issues) => {
      this.setPlaying(false);
      banners.show('This scenario was rejected:\n' + formatIssues(issues));
    });
    signals.frameArrived.add((frame, stats, samples, columns) => {
      const { telemetry } = state;
      const stride = telemetry?.stride;
      if (columns && telemetry) {
        telemetry.widen(columns);  // a controller program's plot values (plot.NAME)
        this.plots.setColumns(telemetry.columns);
      }
      telemetry?.append(samples);
      this.onFrame(frame, stats);
      if (telemetry) this.noteTelemetryStore(telemetry, stride);
    });
    signals.runFinished.add(({ time }) => {
      state.finishedAt = time;
      this.setPlaying(false);
      const row = state.telemetry ? state.telemetry.rowAt(time) : -1;
      const { text } = describeOutcome(state, row);
      banners.show(`Finished at ${formatSeconds(time)}, the scenario's duration: ${text}. Play goes on past it.`, 'info');
    });
    signals.runStopped.add(({ message, outcome }) => {
      state.finishedAt = null;
      state.error = message;
      state.outcome = outcome;
      this.setPlaying(false);
      banners.show(
        outcome === 'left_terrain'
          ? `The robot ${message}. This run is over: reset, or change the terrain or the commands.`
          : outcome === 'program_error'
            ? `The controller program stopped the run: ${message}. Change it in the Controller tab and Apply, or reset to run it again.`
            : `The simulation stopped: ${message}. Change a parameter or reset to try again.`,
      );
    });
    for (const id of VIEW_OPTIONS) {
      $(id).addEventListener('input', () => this.applyViewOptions());
      releaseAfterPointerUse($(id));
    }
    releaseAfterPointerUse($('timeline'));
    $('timeline').addEventListener('input', () => this.scrubbed());
    signals.scrubRequested.add((t) => this.scrubTo(t));
  }

  /** The 3-D view the run is drawn in (the page makes it once its layout is settled). */
  setStage(stage) {
    this.stage = stage;
  }

  /** The timeline moved (by hand, or scrubTo): the recorded frame at its time is shown, paused. */
  scrubbed() {
    const { state, $ } = this;
    if (state.playing) this.setPlaying(false);
    state.scrubbing = true;
    state.scrubTime = this.scrubbedTime();
    this.showPlayButton();
    $('timeline-label').textContent = `t = ${state.scrubTime.toFixed(3)} s`;
    this.signals.scrubbed.dispatch(state.scrubTime);
  }

  /** Shows the recorded frame at time t (s), as the timeline moved there would (nothing while it has no frames). */
  scrubTo(t) {
    const timeline = this.$('timeline');
    if (timeline.disabled || !Number.isFinite(t)) return;
    timeline.value = String(t);
    this.scrubbed();
  }

  /** The run goes again: no error, no outcome, not finished. */
  clearStop() {
    this.state.error = null;
    this.state.outcome = null;
    this.state.finishedAt = null;
  }

  /** Plays or pauses; `extend`: on past the scenario's duration. */
  setPlaying(on, extend = false) {
    if (on) this.branchAtScrub();
    this.state.playing = on;
    if (on) this.client.play(extend);
    else this.client.pause();
    if (on) this.leaveScrub();
    this.showPlayButton();
  }

  /** Playing, paused, scrubbing or finished changed: the controls show it (controls.js). */
  showPlayButton() {
    this.signals.playChanged.dispatch();
  }

  /** Play or pause (a stopped run does not play again before a reset, or from a scrubbed time before it stopped;
   * a finished one plays on past its duration, or from a scrubbed time before it up to the duration again). */
  togglePlaying() {
    const { state } = this;
    const fromScrub = state.scrubbing && this.scrubbedTime() < state.history.end;
    const extend = !state.playing && state.finishedAt !== null && !fromScrub;
    if (extend || fromScrub) state.finishedAt = null;
    this.setPlaying(!state.playing && (!state.error || fromScrub), extend);
  }

  /** Says when the telemetry store nears full (before a row is dropped) and when the run's rows got coarser. */
  noteTelemetryStore(telemetry, strideBefore) {
    const { state, banners } = this;
    const every = `${Math.round(telemetry.interval * 1000)} ms`;
    if (telemetry.stride !== strideBefore && strideBefore !== undefined) {
      banners.show(
        `This run's telemetry filled its store: the whole run, from t = 0, is now kept every ${every} (export the CSV of a shorter run for every 10 ms).`,
        'warning',
      );
    } else if (telemetry.nearFull && !state.telemetryWarned) {
      const full = telemetry.value(telemetry.rows - 1, 0) * (telemetry.maxRows / telemetry.rows);
      banners.show(
        `This run's telemetry is 90 % of its store: at about t = ${formatSeconds(full)} the whole run will be kept every ${Math.round(2 * telemetry.interval * 1000)} ms instead of every ${every}. Export the CSV before then to keep every row.`,
        'warning',
      );
      state.telemetryWarned = true;
    }
    if (!telemetry.nearFull) state.telemetryWarned = false;
  }

  scrubbedTime() {
    return Number(this.$('timeline').value);
  }

  /** While scrubbed back: the run goes back to the scrubbed time and goes on from
   * there (the worker's seek), a new branch replacing what came after. */
  branchAtScrub() {
    const { state } = this;
    if (!state.scrubbing || !state.view) return;
    const t = this.scrubbedTime();
    if (!(t < state.history.end)) return;
    this.client.seek(t);
    this.clearStop();
    this.banners.hide();
    state.history.truncate(t + 1e-9);
    state.view.clearTrails();
    for (const frame of state.history.frames) state.view.record(frame);
    state.latest = state.previous = null;
  }

  /** One press of Step: pauses and advances 10 ms (one telemetry sample), from the scrubbed time if scrubbed back. */
  stepOnce() {
    const { state } = this;
    if (!state.model) return;
    if (state.playing) this.setPlaying(false);
    if (state.error && !state.scrubbing) return;
    this.branchAtScrub();
    this.leaveScrub();
    this.client.step(Math.max(1, Math.round(STEP_SECONDS / state.model.dt)));
  }

  leaveScrub() {
    this.state.scrubbing = false;
    this.$('timeline-label').textContent = 'live';
    this.showPlayButton();
  }

  /** Back to t = 0 of the same scenario. */
  reset(controllerOn) {
    const { state } = this;
    this.clearStop();
    this.banners.hide();
    this.showWarnings();
    state.view?.clearTrails();
    state.history.clear();
    state.telemetry?.clear();
    state.latest = state.previous = null;
    this.client.reset();
    if (state.model?.controller !== 'none') this.client.setController(controllerOn);
  }

  /** The scenario's warnings (a valid scenario with, e.g., a step far above the default), if any. */
  showWarnings() {
    const warnings = this.state.model?.warnings ?? [];
    if (warnings.length) this.banners.show('This scenario runs, with a warning:\n' + formatIssues(warnings), 'warning');
  }

  applyViewOptions() {
    const { state, $ } = this;
    if (!state.view) return;
    Object.assign(state.view.options, {
      forces: $('forces').checked,
      normal: $('f-normal').checked,
      tangential: $('f-tangential').checked,
      resultant: $('f-resultant').checked,
      forceScale: state.view.unitScale * 10 ** Number($('force-scale').value),
      trails: $('trails').checked,
    });
    this.stage.follow = $('follow').checked;
  }

  /** Follow the robot with the camera, or not (as the Follow box does). */
  setFollow(on) {
    this.$('follow').checked = on;
    this.applyViewOptions();
  }

  /** A new model: its robot, driver, plots; the camera is framed on its first frame (at the
   * load's camera pose, a share link's, if it has one). */
  show(model, entry) {
    const { state, stage, $ } = this;
    const old = state.view;
    if (old) stage.retire(() => old.dispose());  // after the new robot is drawn: its shaders are reused
    state.model = model;
    state.warnings = model.warnings;
    clearStatus(state, $);  // the status of the run before
    this.showWarnings();
    state.view = new RobotView(model);
    this.applyViewOptions();
    state.history.clear();
    // Frames for the timeline: at most 64 MiB of them (a frame is layout.size doubles).
    state.history.capacity = Math.max(1000, Math.floor(FRAME_BYTES / (8 * model.layout.size)));
    state.telemetry = new Telemetry(model.columns);
    state.latest = state.previous = null;
    state.driver = new Driver(model, this.client, state.scenario?.control?.joints);
    $('help').textContent = state.driver.help();
    this.plots.setModel(model);
    state.startBase = null;
    state.pendingStart = model.layout.poses + model.layout.pose * model.base;
    state.pendingCamera = entry?.camera ?? null;
  }

  /** The outcome in words at a telemetry row: the goal met or failed whenever it is
   * known, how the run ended once it finished or stopped (at a scrubbed time: by then). */
  showOutcome(row) {
    const { state, $ } = this;
    const ended = state.finishedAt !== null || state.outcome;
    const last = state.scrubbing ? this.scrubbedTime() >= state.history.end : true;
    const stopped = state.outcome && last ? { outcome: state.outcome, message: state.error } : null;
    const { text, kind } = describeOutcome(state, row, stopped);
    const shown = kind !== 'ok' || (ended && last) ? text : '';
    const prefix = state.finishedAt !== null && last ? `finished at ${formatSeconds(state.finishedAt)}: ` : '';
    $('outcome').textContent = shown ? prefix + shown : '';
    $('outcome').className = shown ? kind : '';
    state.outcomeText = $('outcome').textContent;
  }

  onFrame(frame, stats) {
    const { state, stage } = this;
    state.awaitingFrame = false;
    state.stats = stats;
    if (!state.model) return;
    if (state.pendingStart !== null) {
      const o = state.pendingStart;
      const start = new THREE.Vector3(frame[o], frame[o + 1], frame[o + 2]);
      stage.show(state.model.terrain, state.view.object, start);
      if (state.pendingCamera) {
        stage.setCameraPose(state.pendingCamera);  // follows the robot if the link's camera did
        this.$('follow').checked = stage.follow;
        state.pendingCamera = null;
      }
      state.startBase = start;
      state.pendingStart = null;
    }
    this.freshFrame ||= !state.latest || frame[0] !== state.latest[0];  // a paused run's frames repeat the last one
    state.previous = state.latest ?? frame;
    state.latest = frame;
    state.arrivedAt = performance.now();
    if (state.history.push(frame)) state.view.record(frame);
  }

  frameToShow(now) {
    const { state } = this;
    if (state.scrubbing) return state.history.at(this.scrubbedTime());
    if (!state.latest) return null;
    // Blend the last two frames over one tick's worth of time (render interpolation).
    const s = Math.min(1, (now - state.arrivedAt) / 16.7);
    return { a: state.previous, b: state.latest, s };
  }

  /** One animation frame: asks the worker for the next frame, poses the robot, draws; returns what it showed. */
  draw(now) {
    const { state, stage, $ } = this;
    if (state.model && !state.awaitingFrame) {
      // One frame in flight at a time; the wall time counts from the last tick
      // sent, so render frames that had to wait are not lost to the pacing.
      state.awaitingFrame = true;
      this.client.tick((now - this.lastTick) / 1000);
      this.lastTick = now;
    }
    const shown = this.frameToShow(now);
    if (shown && state.view) {
      state.view.pose(shown.a, shown.b, shown.s);
      stage.track(state.view.basePosition(shown.b));
      const t = shown.a[0] + shown.s * (shown.b[0] - shown.a[0]);
      $('clock').textContent = `t = ${t.toFixed(3)} s`;
      const timeline = $('timeline');
      timeline.disabled = state.history.length < 2;
      timeline.min = String(state.history.start);
      timeline.max = String(state.history.end);
      if (!state.scrubbing) timeline.value = String(state.history.end);
    }
    const st = state.stats;
    if (!state.playing && state.model) {
      $('rate').textContent = state.finishedAt !== null ? `finished at ${formatSeconds(state.finishedAt)}` : 'paused';
    } else if (st.realTimeFactor !== undefined && state.model) {
      // Steps taken per second of wall time (the real-time factor over dt), and
      // what the core could take while it steps (its speed, the ceiling of "max").
      const taken = st.realTimeFactor / state.model.dt;
      const core = Math.round(st.stepsPerSecond ?? 0).toLocaleString('en-US');
      const fps = state.fps === undefined ? '' : ` · ${state.fps.toFixed(state.fps < 10 ? 1 : 0)} fps`;
      $('rate').textContent =
        `real-time factor ${st.realTimeFactor.toFixed(2)}× · ${Math.round(taken).toLocaleString('en-US')} steps/s (core ${core} steps/s)${fps}`;
    }
    const busy = this.client.busy;
    // Plots and status every PLOT_EVERY_MS when there is something new to show
    // (rows, the scrubbed time, the charts, the controller box); not while the worker builds.
    const { telemetry } = state;
    const plotDue = now - this.lastPlot > PLOT_EVERY_MS && telemetry?.rows && !busy;
    const shownKey = plotDue
      ? `${telemetry.rows} ${telemetry.value(telemetry.rows - 1, 0)} ${state.scrubbing ? this.scrubbedTime() : '-'} ${this.plots.charts?.length} ${state.controllerOn}`
      : null;
    if (plotDue && shownKey !== this.plotKey) {
      this.lastPlot = now;
      this.plotKey = shownKey;
      this.plots.update(state.telemetry);
      // The status of the time on show: the scrubbed one, or the newest.
      const row = state.scrubbing ? Math.max(0, state.telemetry.rowAt(this.scrubbedTime())) : state.telemetry.rows - 1;
      showStatus(state, $, row);
      this.showOutcome(row);
    }
    // While the worker builds a scenario the robot stands still: the view is
    // redrawn only when the camera moves, leaving the processor to the build.
    // Paused with nothing new (no frame, no scrubbing, no input for a second) it
    // is drawn when something changed and otherwise at most every IDLE_DRAW_MS.
    const idle = !state.playing && !state.scrubbing && !this.freshFrame && now - this.lastInput > 1000;
    const drawDue = now - stage.drawnAt >= IDLE_DRAW_MS;
    stage.render({ ifMoved: (busy && !state.scrubbing) || (idle && !drawDue) });
    this.freshFrame = false;
    if (shown && state.firstFrameAt === null) {
      state.firstFrameAt = now;
      performance.mark('roverlab:first-frame');
    }
    return shown;
  }
}
