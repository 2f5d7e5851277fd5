// Roverlab web app: wires the simulation worker, the three.js stage, the
// panels, the plots and the keyboard. The page state is also published on
// window.__roverlab for the browser tests.
import * as THREE from 'three';

import { loadCore } from './core.js';
import { Driver } from './driving.js';
import { EditorDocument } from './editor/document.js';
import { EditorPanel, tooLargeForPage } from './editor/editor_panel.js';
import { EditorView } from './editor/editor_view.js';
import { History } from './history.js';
import { renderParams } from './params_panel.js';
import { Plots } from './plots.js';
import { RobotView } from './robot_view.js';
import { DEFAULT_ID, scenarios, withMaterial, withParam, withPreset, withSimulation } from './scenarios.js';
import { CrawlerPanel } from './crawler_panel.js';
import { RockerPlayback } from './rocker_playback.js';
import { Stage } from './scene.js';
import { encodeShare, fragmentOf, shareUrl } from './share_link.js';
import { Telemetry } from './telemetry.js';
import './style.css';

const $ = (id) => document.getElementById(id);
const state = {
  scenario: null,  // the scenario object being run
  model: null,
  presets: [],
  view: null,
  driver: null,
  history: new History(),
  telemetry: null,
  latest: null,    // newest frame from the worker
  previous: null,  // the one before (for interpolation)
  arrivedAt: 0,
  playing: false,
  scrubbing: false,
  awaitingFrame: false,
  stats: {},
  firstFrameAt: null,
  error: null,
};
const published = (window.__roverlab = { ready: false, issues: [], error: null, loadLog: [] });

// The simulation worker: it validates and builds every scenario (never this
// page), so a scenario of thousands of pieces cannot freeze the page.
let worker = null;
let workerReady = false;
const send = (message) => worker.postMessage(message);

/** Starts a worker and sends it what the page set up (presets, speed). */
function startWorker() {
  worker = new Worker(new URL('./sim_worker.js', import.meta.url), { type: 'module' });
  workerReady = false;
  worker.onmessage = onWorkerMessage;
  send({ type: 'presets' });
  send({ type: 'speed', speed: Number($('speed').value) });
}
const stage = new Stage($('view'));
const plots = new Plots($('plots'));

// ------------------------------------------------------------------ banner

/** A message over the view: kind 'error', 'warning' or 'info'; actions are
 * buttons [{ label, run }] (any of them also closes the banner); `link`, a
 * text to select and copy. */
function showBanner(text, kind = 'error', actions = [], link = null) {
  const b = $('banner');
  $('banner-text').textContent = text;
  const buttons = actions.map(({ label, run }) => {
    const button = document.createElement('button');
    button.textContent = label;
    button.addEventListener('click', () => {
      showBanner('');
      run?.();
    });
    return button;
  });
  if (link) {
    const input = document.createElement('input');
    input.id = 'share-url';
    input.readOnly = true;
    input.value = link;
    input.addEventListener('focus', () => input.select());
    buttons.unshift(input);
  }
  if (text && kind !== 'error' && !actions.length) {
    const close = document.createElement('button');
    close.textContent = 'Close';
    close.addEventListener('click', () => showBanner(''));
    buttons.push(close);
  }
  $('banner-actions').replaceChildren(...buttons);
  b.className = kind;
  b.hidden = !text;
  published.banner = text ? { text, kind } : null;
}

// --------------------------------------------------------------- scenarios

// Loads in flight: id → { scenario, keep, restore, onBuilt, onRejected, sentAt }.
// The worker answers each with 'model' or 'issues' and the same id, in order.
const loads = new Map();
let loadCount = 0;
let running = null;  // the scenario of the newest load the worker built (what runs)

/**
 * Sends a scenario to the worker to validate and build. By default it
 * replaces the run at once: the old world is dropped even if the new one is
 * rejected (its issues are shown). keep: the current run goes on until the
 * new one is built, and stays if it is rejected (links and files, which are
 * tried before they replace the user's work); onBuilt() and onRejected(issues)
 * then say what happened. restore: the load that brings back a run after a
 * cancel. text: the scenario's JSON text, when the caller has it.
 */
function load(scenario, { keep = false, restore = false, onBuilt, onRejected, text } = {}) {
  const id = ++loadCount;
  loads.set(id, { id, scenario, keep, restore, onBuilt, onRejected, sentAt: performance.now() });
  if (!keep) {
    state.error = null;
    published.error = null;
    published.outcome = null;
    showBanner('');
  }
  send({ type: 'load', scenario: text ?? JSON.stringify(scenario), id, keep });
  if (!keep) setPlaying(true);
  watchLoads();
}

// Share links being read in the worker: id → resolve(answer).
const decodes = new Map();
let decodeCount = 0;

/** decodeShare(fragment) in the worker: { ok, scenario (JSON text), camera } or { ok: false, code, message }. */
function decodeInWorker(fragment) {
  const id = ++decodeCount;
  send({ type: 'decode', fragment, id });
  return new Promise((resolve) => decodes.set(id, resolve));
}

/** The load an answer belongs to (null for a worker that was replaced). */
function settle(id, data) {
  const entry = loads.get(id) ?? null;
  loads.delete(id);
  watchLoads();
  if (entry) {
    const ms = performance.now() - entry.sentAt;
    published.loadLog.push({ id, keep: entry.keep, sentAt: entry.sentAt, ms, buildMs: data.buildMs, built: data.type === 'model' });
    if (published.loadLog.length > 20) published.loadLog.shift();
  }
  return entry;
}

// ------------------------------------------ the progress note and Cancel

const PROGRESS_AFTER_MS = 300;
let progressTimer = null;

/** Shows "Building the scenario… N s" with Cancel while a load has taken more than 300 ms. */
function watchLoads() {
  const oldest = loads.values().next().value;
  published.loading = Boolean(oldest);
  if (!oldest) {
    clearInterval(progressTimer);
    progressTimer = null;
    $('progress').hidden = true;
    published.progress = null;
    return;
  }
  progressTimer ??= setInterval(watchLoads, 50);
  const ms = performance.now() - oldest.sentAt;
  if (ms < PROGRESS_AFTER_MS) return;
  const text = `${workerReady ? 'Building the scenario' : 'Starting the simulation'}… ${(ms / 1000).toFixed(1)} s`;
  $('progress-text').textContent = text;
  $('progress').hidden = false;
  published.progress = text;
}

/**
 * Stops the worker (whatever it is building), starts a fresh one and runs
 * the scenario that ran before (or the default one if there was none, or if
 * bringing it back was itself cancelled). The editor's document, and so the
 * autosaved work, is left alone.
 */
function restartWorker(why) {
  const pending = [...loads.values()];
  worker.terminate();
  loads.clear();
  decodes.clear();  // a link being read is dropped with the worker
  startWorker();
  const back = pending.some((e) => e.restore) || !running ? null : running;
  load(back ?? JSON.parse(scenarios.find((s) => s.id === DEFAULT_ID).text), { restore: true });
  const tried = pending.at(-1);
  const what = back ? 'the scenario that ran before runs again' : `the default scenario (${DEFAULT_ID}) runs`;
  const work = tried?.keep ? 'Your work is unchanged.' : 'Your scenario stays in the editor (and in the autosave).';
  showBanner(`${why}: ${what}. ${work}`, why.startsWith('Building') ? 'info' : 'error');
  published.restarts = (published.restarts ?? 0) + 1;
}

function fillPickers() {
  const select = $('scenario');
  const mine = document.createElement('option');
  mine.value = '';
  mine.textContent = 'your scenario (edited)';
  mine.disabled = true;  // a label for the current scenario, not a choice
  select.append(mine);
  for (const s of scenarios) {
    const o = document.createElement('option');
    o.value = s.id;
    o.textContent = s.name ? `${s.id} — ${s.name}` : s.id;
    select.append(o);
  }
  select.value = saved ? '' : DEFAULT_ID;
  select.addEventListener('change', () => {
    const file = scenarios.find((s) => s.id === select.value);
    if (file) doc.replace(`open ${file.id}`, JSON.parse(file.text), { restart: true });
  });
  $('preset').addEventListener('change', () =>
    doc.replace(`robot ${$('preset').value}`, withPreset(doc.scenario, $('preset').value), { restart: true }),
  );
}

function onParamChange(kind, key, value) {
  const next =
    kind === 'param'
      ? withParam(doc.scenario, key, value)
      : kind === 'material'
        ? withMaterial(doc.scenario, key, value)
        : withSimulation(doc.scenario, key, value);
  doc.replace(`${key} = ${value}`, next, { restart: true });
}

// ----------------------------------------------------------- worker events

function onWorkerMessage({ data }) {
  switch (data.type) {
    case 'ready':
      workerReady = true;
      return;
    case 'decoded':
      decodes.get(data.id)?.(data);
      decodes.delete(data.id);
      return;
    case 'presets':
      if (state.presets.length) return;  // a restarted worker: the picker is filled already
      state.presets = data.presets;
      for (const p of data.presets) {
        const o = document.createElement('option');
        o.value = p.preset;
        o.textContent = p.preset;
        o.title = p.description;
        $('preset').append(o);
      }
      return;
    case 'issues': {
      const entry = settle(data.id, data);
      published.buildMs = data.buildMs;
      if (entry?.onRejected) return entry.onRejected(data.issues);
      setPlaying(false);
      published.issues = data.issues;
      showBanner('This scenario was rejected:\n' + data.issues.map((i) => `• ${i.path}: ${i.message}`).join('\n'));
      markInvalidParams(data.issues);
      return;
    }
    case 'model': {
      const entry = settle(data.id, data);
      published.buildMs = data.buildMs;
      if (entry) {
        published.loadMs = performance.now() - entry.sentAt;
        state.scenario = entry.scenario;
        running = entry.scenario;
      }
      if (entry?.keep) {
        state.error = null;
        published.error = null;
        published.outcome = null;
        showBanner('');
      }
      onModel(data.model);
      if (entry?.keep) setPlaying(true);
      entry?.onBuilt?.();
      return;
    }
    case 'frame':
      state.telemetry?.append(data.samples);
      onFrame(data.frame, data.stats);
      return;
    case 'error':
      state.error = data.message;
      published.error = data.message;
      published.outcome = data.outcome;
      setPlaying(false);
      showBanner(
        data.outcome === 'left_terrain'
          ? `The robot ${data.message}. This run is over: reset, or change the terrain or the commands.`
          : `The simulation stopped: ${data.message}. Change a parameter or reset to try again.`,
      );
      return;
    case 'fatal':
      published.error = data.message;
      if (loads.size) return restartWorker(`The simulation core failed while building (${data.message})`);
      showBanner(`The simulation core failed: ${data.message}`);
      return;
    default:
  }
}

/** The scenario's warnings (a valid scenario with, e.g., a step far above the default), if any. */
function showWarnings() {
  const warnings = state.model?.warnings ?? [];
  if (warnings.length)
    showBanner('This scenario runs, with a warning:\n' + warnings.map((w) => `• ${w.path}: ${w.message}`).join('\n'), 'warning');
}

function markInvalidParams(issues) {
  for (const input of $('params').querySelectorAll('input')) {
    const issue = issues.find((i) => i.path === `robot.params.${input.dataset.name}` || i.path.endsWith(`.${input.dataset.name}`));
    const row = input.closest('.param');
    row.classList.toggle('invalid', Boolean(issue));
    row.querySelector('.message').textContent = issue ? issue.message : '';
  }
}

function onModel(model) {
  const old = state.view;
  if (old) stage.retire(() => old.dispose());  // after the new robot is drawn: its shaders are reused
  state.model = model;
  published.issues = [];
  published.warnings = model.warnings;
  $('phase').textContent = '';  // the status of the run before
  showWarnings();
  state.view = new RobotView(model);
  applyViewOptions();
  state.history.clear();
  state.telemetry = new Telemetry(model.columns);
  state.latest = state.previous = null;
  state.driver = new Driver(model, send);
  $('controller-box').hidden = model.controller === 'none';
  $('controller').checked = true;
  $('help').textContent = state.driver.help();
  $('preset').value = model.preset;
  const specs = state.presets.find((p) => p.preset === model.preset)?.params ?? [];
  renderParams($('params'), { scenario: state.scenario, specs, onChange: onParamChange });
  plots.setModel(model);
  const base = model.layout.poses + model.layout.pose * model.base;
  state.startBase = null;
  state.pendingStart = base;
}

function onFrame(frame, stats) {
  state.awaitingFrame = false;
  state.stats = stats;
  if (!state.model) return;
  if (state.pendingStart !== null && state.pendingStart !== undefined) {
    const o = state.pendingStart;
    const start = new THREE.Vector3(frame[o], frame[o + 1], frame[o + 2]);
    stage.show(state.model.terrain, state.view.object, start);
    if (state.pendingCamera) {
      stage.setCameraPose(state.pendingCamera);
      state.pendingCamera = null;
    }
    state.startBase = start;
    state.pendingStart = null;
  }
  state.previous = state.latest ?? frame;
  state.latest = frame;
  state.arrivedAt = performance.now();
  if (state.history.push(frame)) state.view.record(frame);
}

// ---------------------------------------------------------------- controls

function setPlaying(on) {
  state.playing = on;
  send({ type: on ? 'play' : 'pause' });
  $('play').textContent = on ? '❚❚ Pause' : '▶ Play';
  if (on) leaveScrub();
}

function leaveScrub() {
  state.scrubbing = false;
  $('timeline-label').textContent = 'live';
}

function applyViewOptions() {
  if (!state.view) return;
  Object.assign(state.view.options, {
    forces: $('forces').checked,
    normal: $('f-normal').checked,
    tangential: $('f-tangential').checked,
    resultant: $('f-resultant').checked,
    forceScale: state.view.unitScale * 10 ** Number($('force-scale').value),
    trails: $('trails').checked,
  });
  stage.follow = $('follow').checked;
}

function exportCsv() {
  if (!state.model) return;
  const blob = new Blob([state.telemetry.toCsv()], { type: 'text/csv' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `roverlab-${state.model.preset}-${Date.now()}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function wireControls() {
  $('play').addEventListener('click', () => setPlaying(!state.playing && !state.error));
  $('step').addEventListener('click', () => {
    setPlaying(false);
    send({ type: 'step', steps: 1 });
  });
  $('reset').addEventListener('click', () => {
    state.error = null;
    published.error = null;
    published.outcome = null;
    showBanner('');
    showWarnings();
    state.view?.clearTrails();
    state.history.clear();
    state.telemetry?.clear();
    state.latest = state.previous = null;
    send({ type: 'reset' });
    if (state.model?.controller !== 'none') send({ type: 'controller', on: $('controller').checked });
  });
  $('controller').addEventListener('input', () => send({ type: 'controller', on: $('controller').checked }));
  $('speed').addEventListener('change', () => send({ type: 'speed', speed: Number($('speed').value) }));
  for (const id of ['follow', 'forces', 'f-normal', 'f-tangential', 'f-resultant', 'force-scale', 'trails'])
    $(id).addEventListener('input', applyViewOptions);
  $('csv').addEventListener('click', exportCsv);
  $('shadows').addEventListener('input', () => {
    quality.userSet = true;
    stage.setShadows($('shadows').checked);
  });
  const timeline = $('timeline');
  timeline.addEventListener('input', () => {
    if (state.playing) setPlaying(false);
    state.scrubbing = true;
    $('timeline-label').textContent = `t = ${Number(timeline.value).toFixed(3)} s`;
  });
  window.addEventListener('keydown', (e) => {
    const typing = e.target instanceof HTMLInputElement && e.target.type === 'text';
    if ((e.ctrlKey || e.metaKey) && !typing && (e.key.toLowerCase() === 'z' || e.key.toLowerCase() === 'y')) {
      if (e.shiftKey || e.key.toLowerCase() === 'y') doc.redo();
      else doc.undo();
      e.preventDefault();
      return;
    }
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') setPlaying(!state.playing && !state.error);
    else if (e.key === '.') $('step').click();
    else if (e.key === 'Backspace') $('reset').click();
    else if (!state.driver?.key(e, true)) return;
    else if (state.model?.controller !== 'none' && $('controller').checked) {
      // A driving key takes over from the automatic controller (operator mode).
      $('controller').checked = false;
      send({ type: 'controller', on: false });
      showBanner('Operator mode: the automatic controller is off. Tick “automatic controller” to hand back.', 'info');
    }
    e.preventDefault();
  });
  window.addEventListener('keyup', (e) => state.driver?.key(e, false));
}

// --------------------------------------------------------------- the loop

let lastTick = performance.now();
let lastPlot = 0;
// Frame rate watch: below 20 frames/s after the first 3 s, shadows go off
// and the canvas renders at 60 % resolution (unless the user chose shadows),
// since shadows and pixel fill are the most expensive parts to draw.
const quality = { frames: 0, since: null, userSet: false, checked: false };

function watchQuality(now) {
  if (quality.checked || quality.userSet || state.firstFrameAt === null) return;
  quality.since ??= now;
  quality.frames++;
  if (now - quality.since < 3000) return;
  quality.checked = true;
  const fps = (1000 * quality.frames) / (now - quality.since);
  published.fps = fps;
  if (fps < 20) {
    stage.setShadows(false);
    $('shadows').checked = false;
    stage.setResolution(0.6);  // fewer pixels to fill: software rendering is fill-bound
  }
}

function frameToShow(now) {
  if (state.scrubbing) return state.history.at(Number($('timeline').value));
  if (!state.latest) return null;
  // Blend the last two frames over one tick's worth of time (render interpolation).
  const s = Math.min(1, (now - state.arrivedAt) / 16.7);
  return { a: state.previous, b: state.latest, s };
}

function loop(now) {
  if (state.model && !state.awaitingFrame) {
    // One frame in flight at a time; the wall time counts from the last tick
    // sent, so render frames that had to wait are not lost to the pacing.
    state.awaitingFrame = true;
    send({ type: 'tick', wallSeconds: (now - lastTick) / 1000 });
    lastTick = now;
  }
  const shown = frameToShow(now);
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
  if (st.realTimeFactor !== undefined)
    $('rate').textContent = `real-time factor ${st.realTimeFactor.toFixed(2)}× · ${Math.round(st.stepsPerSecond ?? 0)} steps/s`;
  if (now - lastPlot > 250 && state.telemetry?.rows && !loads.size) {  // nothing new while the worker builds
    lastPlot = now;
    plots.update(state.telemetry);
    showStatus(state.telemetry);
  }
  // While the worker builds a scenario the robot stands still: the view is
  // redrawn only when the camera moves, leaving the processor to the build.
  stage.render({ ifMoved: loads.size > 0 && !state.scrubbing });
  if (shown && state.firstFrameAt === null) state.firstFrameAt = now;
  watchQuality(now);
  publish(shown);
  requestAnimationFrame(loop);
}

const TIP_PITCH = (70 * Math.PI) / 180;  // rad: a section steeper than this is close to going over
const TIP_ROLL = (25 * Math.PI) / 180;   // rad

/** The controller's phase and a warning when the robot nears tipping over or
 * has flipped over (base tilted more than 120°), from the latest telemetry row. Pitch and
 * roll are the core's tilt angles (docs/dynamics.md): past 90° they keep
 * growing to 180° instead of wrapping. */
function showStatus(telemetry) {
  const { columns } = telemetry;
  const last = telemetry.rows - 1;
  const at = (name) => telemetry.value(last, columns.indexOf(name));
  const lines = [];
  const phase = columns.indexOf('climb_phase');
  if (phase >= 0) {
    const name = state.model.phases[telemetry.value(last, phase)] ?? '?';
    lines.push(`step-climb: ${$('controller').checked ? name : `off (operator mode; was ${name})`}`);
    published.phase = name;
  }
  const pitches = columns.filter((c) => c.endsWith('_pitch_rad')).map((c) => at(c));
  const pitch = Math.max(...pitches.map(Math.abs));
  const roll = Math.abs(at('base_roll_rad'));
  const deg = (r) => `${Math.round((r * 180) / Math.PI)}°`;
  // Flipped over: the base's up axis more than 30° below the horizontal
  // (z_b·ẑ < −1/2, core/sim/tilt.h); upside down, z_b·ẑ = −√(1 − sin²pitch − sin²roll).
  const basePitch = at('base_pitch_rad');
  const up2 = 1 - Math.sin(basePitch) ** 2 - Math.sin(at('base_roll_rad')) ** 2;
  const flipped = at('base_upside_down') === 1 && up2 > 0.25;
  const tipping = !flipped && (pitch > TIP_PITCH || roll > TIP_ROLL);
  if (flipped) lines.push(`⚠ flipped over: upside down (pitch ${deg(pitch)}, roll ${deg(roll)})`);
  else if (tipping) lines.push(`⚠ near tipping over: pitch ${deg(pitch)}, roll ${deg(roll)}`);
  published.tipping = tipping;
  published.flipped = flipped;
  $('phase').textContent = lines.join('\n');
  $('phase').classList.toggle('warn', tipping || flipped);
}

function publish(shown) {
  published.ready = Boolean(shown && state.model);
  if (!published.ready) return;
  const latest = state.latest;
  const o = state.model.layout.poses + state.model.layout.pose * state.model.base;
  Object.assign(published, {
    preset: state.model.preset,
    scenario: state.scenario?.name,
    scenarioId: $('scenario').value,
    wheelRadius: state.model.wheels[0]?.radius,
    scrubbing: state.scrubbing,
    time: latest[0],
    shownTime: shown.a[0] + shown.s * (shown.b[0] - shown.a[0]),
    base: [latest[o], latest[o + 1], latest[o + 2]],
    startBase: state.startBase?.toArray() ?? null,
    frames: state.history.length,
    samples: state.telemetry?.rows ?? 0,
    playing: state.playing,
    realTimeFactor: state.stats.realTimeFactor,
    stepMs: state.stats.stepMs,
    firstFrameMs: state.firstFrameAt,
    shownContacts: state.view?.shownContacts() ?? null,
  });
}

// ------------------------------------------------------------ the editor

// The user's scenario: every change (editor, pickers, parameters) is an
// undoable command, autosaved to this browser's storage.
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;  // storage disabled: no autosave
  }
})();
const saved = EditorDocument.restore(storage);
const doc = new EditorDocument(saved?.scenario ?? JSON.parse(scenarios.find((s) => s.id === DEFAULT_ID).text), { storage });
published.doc = doc;
/** Page coordinates of a world point (for the browser tests' drags). */
published.screenOf = (p) => {
  const v = new THREE.Vector3(...p).project(stage.camera);
  const r = $('view').getBoundingClientRect();
  return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
};
const corePromise = loadCore();  // a core on this thread too: the editor's geometry and checks
const editor = { panel: null, view: null, editing: false };

function refreshEditor(info) {
  const { panel, view } = editor;
  if (!panel) return;
  const inspection = panel.inspect();
  if (editor.editing) {
    panel.render();
    view.update(inspection.large ? {} : doc.scenario, inspection);
    if (inspection.terrain && info?.kind) stage.replaceTerrain(inspection.terrain);
  }
  published.editor = { issues: inspection.issues, valid: panel.valid, track1: inspection.track1.map((n) => n.point), large: inspection.large ?? null };
}

function onDocChange(scenario, info) {
  refreshEditor(info);
  // The scenario picker names a file only while the scenario is that file as opened.
  if (info.kind !== 'preview' && info.label !== `open ${$('scenario').value}`) $('scenario').value = '';
  if (info.kind === 'preview' || info.loaded) return;  // loaded: the worker built it already
  const valid = !editor.panel || editor.panel.valid;
  if (info.restart || (editor.panel?.live && valid)) load(scenario);
  else if (editor.editing && state.playing) {
    setPlaying(false);  // the robot would drive on a terrain that is no longer shown
    showBanner('The terrain changed: press “Run on this terrain” to restart the robot on it.', 'info');
  }
}

const TABS = { sim: 'sim-panels', edit: 'editor', stance: 'stance', crawler: 'crawler' };

function setTab(tab) {
  editor.editing = tab === 'edit';
  for (const [name, panel] of Object.entries(TABS)) {
    $(`tab-${name}`).classList.toggle('active', name === tab);
    $(panel).hidden = name !== tab;
  }
  $('app').classList.toggle('editing', tab !== 'sim');
  editor.view?.setVisible(editor.editing);
  published.tab = tab;
  refreshEditor(null);
  stance.setActive(tab === 'stance');
  if (tab === 'crawler') startCrawler();
}

// ------------------------------------------------ seed 002: kinematic stance

const stance = {
  playback: null,
  active: false,
  timer: null,
  setActive(on) {
    this.active = on;
    if (this.playback) this.playback.object.visible = on && this.playback.length > 0;
    if (state.view) state.view.object.visible = !on || !this.playback?.length;
    if (!on) this.stop();
  },
  async compute() {
    const large = tooLargeForPage(doc.scenario);
    if (large) {
      $('stance-info').textContent = `This terrain has ${large.pieces} pieces (${Math.round(large.bytes / 1024)} kB), more than the stance is computed for on this page (${large.limit}).`;
      return;
    }
    const core = await corePromise;
    this.playback ??= new RockerPlayback(stage.scene, core);
    this.stop();
    const scenario = { ...structuredClone(doc.scenario), robot: { ...doc.scenario.robot, preset: 'rocker8' } };
    const result = this.playback.load(scenario);
    published.stance = result;
    if (!result.ok) {
      $('stance-info').textContent = 'No stance could be computed:\n' + result.issues.map((i) => `• ${i.path}: ${i.message}`).join('\n');
      $('stance-s').disabled = true;
      this.setActive(true);
      return;
    }
    if (state.playing) setPlaying(false);
    $('stance-s').max = String(this.playback.length - 1);
    $('stance-s').disabled = false;
    $('stance-s').value = '0';
    this.setActive(true);
    this.show(0);
  },
  show(index) {
    const pose = this.playback.show(index);
    if (!pose) return;
    const deg = (r) => ((r * 180) / Math.PI).toFixed(2);
    const touching = pose.wheels?.map((w, k) => (w.contact ? k + 1 : null)).filter(Boolean) ?? [];
    $('stance-info').textContent = pose.stance
      ? `s = ${pose.s.toFixed(2)} m   yaw ${deg(pose.yaw)}°  pitch ${deg(pose.pitch)}°  roll ${deg(pose.roll)}°\n` +
        `wheels touching: ${touching.join(' ') || 'none'}; in the air: ${pose.wheels.map((w, k) => (w.contact ? null : k + 1)).filter(Boolean).join(' ') || 'none'}`
      : `s = ${pose.s.toFixed(2)} m: no stance (${pose.reason})`;
    if (pose.stance) stage.track(new THREE.Vector3(...pose.position));
    published.stancePose = { index: this.playback.index, s: pose.s, stance: pose.stance, roll: pose.roll, pitch: pose.pitch, touching };
  },
  play() {
    if (this.timer) return this.stop();
    $('stance-play').textContent = '❚❚ Pause';
    this.timer = setInterval(() => {
      const next = (Number($('stance-s').value) + 1) % Math.max(1, this.playback?.length ?? 1);
      $('stance-s').value = String(next);
      this.show(next);
    }, 120);
  },
  stop() {
    clearInterval(this.timer);
    this.timer = null;
    $('stance-play').textContent = '▶ Play';
  },
};

// ------------------------------------------------ seed 003: crawler link

let crawlerPanel = null;
async function startCrawler() {
  if (crawlerPanel) return;
  crawlerPanel = new CrawlerPanel($('crawler'), await corePromise);
  published.crawler = crawlerPanel;
}

function saveFile() {
  const blob = new Blob([JSON.stringify(doc.scenario, null, 2)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  const name = (doc.scenario.name || 'scenario').replace(/[^\w.-]+/g, '-').toLowerCase();
  a.download = `${name}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const issueList = (issues) => issues.map((i) => `• ${i.path}: ${i.message}`).join('\n');

/** A scenario file: built in the worker while the current run goes on; it replaces the work only if valid. */
function loadFile(text, fileName) {
  let scenario;
  try {
    scenario = JSON.parse(text);
  } catch (error) {
    return showBanner(`${fileName} was not loaded: it is not JSON (${error.message}). Your work is unchanged.`);
  }
  load(scenario, {
    keep: true,
    text,
    onBuilt: () => {
      doc.replace(`load ${fileName}`, scenario, { restart: true, loaded: true, owned: true });
      showBanner(`Loaded ${fileName}.`, 'info');
    },
    onRejected: (issues) => showBanner(`${fileName} was not loaded, your work is unchanged:\n` + issueList(issues)),
  });
}

async function share() {
  try {
    const fragment = await encodeShare({ scenario: doc.scenario, camera: stage.cameraPose() });
    const url = shareUrl(location.href, fragment);
    published.shareUrl = url;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // No clipboard permission (or an insecure context): the link is shown to copy by hand.
    }
    showBanner(`${copied ? 'Link copied' : 'Copy this link'} (${url.length} characters). It opens this scenario, its terrain and this view.`, 'info', [], url);
  } catch (error) {
    showBanner(`No link was made: ${error.message}`);
  }
}

/** Opens the scenario of a share link in the address (after confirmation when it would replace autosaved work). */
async function openShareLink() {
  const fragment = fragmentOf(location.href);
  if (!fragment) return;
  history.replaceState(null, '', location.pathname + location.search);  // handled once, not at every reload
  const decoded = await decodeInWorker(fragment);  // unpacking up to 1 MiB: off this thread
  if (!decoded.ok) {
    published.linkError = decoded.code;
    return showBanner(`This share link cannot be opened: ${decoded.message} Your own work is unchanged.`);
  }
  const text = decoded.scenario;
  const scenario = JSON.parse(text);
  const { camera } = decoded;
  // Validated and built in the worker; the current run goes on meanwhile and
  // stays if the scenario is rejected.
  const open = () =>
    load(scenario, {
      keep: true,
      text,
      onBuilt: () => {
        state.pendingCamera = camera ?? null;
        doc.replace('open share link', scenario, { restart: true, loaded: true, owned: true });
        published.linkOpened = true;
      },
      onRejected: (issues) => {
        published.linkError = 'invalid-scenario';
        published.issues = issues;
        showBanner('The scenario in this share link is not valid, so it was not opened (your work is unchanged):\n' + issueList(issues));
      },
    });
  if (saved && JSON.stringify(doc.scenario) !== text) {
    showBanner(
      `This link opens “${scenario.name || 'a scenario'}”. Opening it replaces the work autosaved in this browser (Undo brings it back while this page is open).`,
      'warning',
      [
        { label: 'Open the link', run: open },
        { label: 'Keep my work', run: () => {} },
      ],
    );
  } else {
    open();
  }
}

async function startEditor() {
  const core = await corePromise;
  editor.panel = new EditorPanel($('editor'), {
    doc,
    core,
    onRun: () => {
      showBanner('');
      load(doc.scenario);
    },
    onShare: share,
    onSave: saveFile,
    onLoadFile: loadFile,
    onLive: (on) => on && editor.panel.valid && load(doc.scenario),
    onSelectNode: (i) => {
      editor.view.selectNode(i);
      refreshEditor(null);
    },
  });
  editor.view = new EditorView(stage, doc, {
    onSelectNode: (i) => {
      editor.panel.selectedNode = i;
      refreshEditor(null);
    },
  });
  published.editorReady = true;
  refreshEditor(null);
}

fillPickers();
wireControls();
for (const tab of Object.keys(TABS)) $(`tab-${tab}`).addEventListener('click', () => setTab(tab));
$('stance-compute').addEventListener('click', () => stance.compute());
$('stance-play').addEventListener('click', () => stance.playback?.length && stance.play());
$('stance-s').addEventListener('input', () => stance.show(Number($('stance-s').value)));
doc.onChange(onDocChange);
window.addEventListener('pagehide', () => doc.saveNow());
window.addEventListener('hashchange', () => openShareLink());
$('progress-cancel').addEventListener('click', () => restartWorker('Building was cancelled'));
startWorker();
load(doc.scenario);
if (saved && !fragmentOf(location.href))
  showBanner(`Restored your work autosaved ${new Date(saved.savedAt).toLocaleString()}.`, 'info');
startEditor()
  .then(openShareLink)
  .catch((error) => showBanner(`The terrain editor failed to start: ${error.message}`));
requestAnimationFrame(loop);
