// Roverlab web app: wires the simulation worker, the three.js stage, the
// panels, the plots and the keyboard. The page state is also published on
// window.__roverlab for the browser tests.
import * as THREE from 'three';

import { Driver } from './driving.js';
import { History } from './history.js';
import { renderParams } from './params_panel.js';
import { Plots } from './plots.js';
import { RobotView } from './robot_view.js';
import { DEFAULT_ID, scenarios, withMaterial, withParam, withPreset, withSimulation } from './scenarios.js';
import { Stage } from './scene.js';
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
const published = (window.__roverlab = { ready: false, issues: [], error: null });

const worker = new Worker(new URL('./sim_worker.js', import.meta.url), { type: 'module' });
const send = (message) => worker.postMessage(message);
const stage = new Stage($('view'));
const plots = new Plots($('plots'));

// ------------------------------------------------------------------ banner

function showBanner(text, kind = 'error') {
  const b = $('banner');
  b.textContent = text;
  b.className = kind;
  b.hidden = !text;
}

// --------------------------------------------------------------- scenarios

function load(scenario) {
  state.scenario = scenario;
  state.error = null;
  published.error = null;
  showBanner('');
  send({ type: 'load', scenario: JSON.stringify(scenario) });
  setPlaying(true);
}

function fillPickers() {
  const select = $('scenario');
  for (const s of scenarios) {
    const o = document.createElement('option');
    o.value = s.id;
    o.textContent = s.name ? `${s.id} — ${s.name}` : s.id;
    select.append(o);
  }
  select.value = DEFAULT_ID;
  select.addEventListener('change', () => load(JSON.parse(scenarios.find((s) => s.id === select.value).text)));
  $('preset').addEventListener('change', () => load(withPreset(state.scenario, $('preset').value)));
}

function onParamChange(kind, key, value) {
  const next =
    kind === 'param'
      ? withParam(state.scenario, key, value)
      : kind === 'material'
        ? withMaterial(state.scenario, key, value)
        : withSimulation(state.scenario, key, value);
  load(next);
}

// ----------------------------------------------------------- worker events

worker.onmessage = ({ data }) => {
  switch (data.type) {
    case 'presets':
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
      setPlaying(false);
      published.issues = data.issues;
      showBanner('This scenario was rejected:\n' + data.issues.map((i) => `• ${i.path}: ${i.message}`).join('\n'));
      markInvalidParams(data.issues);
      return;
    }
    case 'model':
      onModel(data.model);
      return;
    case 'frame':
      state.telemetry?.append(data.samples);
      onFrame(data.frame, data.stats);
      return;
    case 'error':
      state.error = data.message;
      published.error = data.message;
      setPlaying(false);
      showBanner(`The simulation stopped: ${data.message}. Change a parameter or reset to try again.`);
      return;
    case 'fatal':
      published.error = data.message;
      showBanner(`The simulation core failed: ${data.message}`);
      return;
    default:
  }
};

function markInvalidParams(issues) {
  for (const input of $('params').querySelectorAll('input')) {
    const issue = issues.find((i) => i.path === `robot.params.${input.dataset.name}` || i.path.endsWith(`.${input.dataset.name}`));
    const row = input.closest('.param');
    row.classList.toggle('invalid', Boolean(issue));
    row.querySelector('.message').textContent = issue ? issue.message : '';
  }
}

function onModel(model) {
  state.view?.dispose();
  state.model = model;
  published.issues = [];
  state.view = new RobotView(model);
  applyViewOptions();
  state.history.clear();
  state.telemetry = new Telemetry(model.columns);
  state.latest = state.previous = null;
  state.driver = new Driver(model, send);
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
  $('play').textContent = on ? '⏸ Pause' : '▶ Play';
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
    showBanner('');
    state.view?.clearTrails();
    state.history.clear();
    state.telemetry?.clear();
    state.latest = state.previous = null;
    send({ type: 'reset' });
  });
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
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') setPlaying(!state.playing && !state.error);
    else if (e.key === '.') $('step').click();
    else if (e.key === 'Backspace') $('reset').click();
    else if (!state.driver?.key(e, true)) return;
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
  if (now - lastPlot > 250 && state.telemetry?.rows) {
    lastPlot = now;
    plots.update(state.telemetry);
  }
  stage.render();
  if (shown && state.firstFrameAt === null) state.firstFrameAt = now;
  watchQuality(now);
  publish(shown);
  requestAnimationFrame(loop);
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
    frames: state.history.length,
    samples: state.telemetry?.rows ?? 0,
    playing: state.playing,
    realTimeFactor: state.stats.realTimeFactor,
    stepMs: state.stats.stepMs,
    firstFrameMs: state.firstFrameAt,
  });
}

fillPickers();
wireControls();
send({ type: 'presets' });
load(JSON.parse(scenarios.find((s) => s.id === DEFAULT_ID).text));
requestAnimationFrame(loop);
