// The Rover stance tab ([KJ2025], kinematic): rocker8 placed along Track1 of
// the document's quad terrain by the core's geometric algorithm, shown pose
// by pose (slider, Play) in place of the running robot. On a scenario without
// quad rows a hint says so and offers the depression terrain.
import * as THREE from 'three';

import { tooLargeForPage } from '../editor/editor_panel.js';
import { formatIssues } from '../common/issues.js';
import { RockerPlayback } from './rocker_playback.js';

const PLAY_EVERY_MS = 120;
/** The scenario of terrains/ the hint opens: [KJ2025]'s quad terrain with Track1. */
export const STANCE_EXAMPLE = 'depression-rocker8';

/** The scenario's terrain has both quad rows (Track1 is generated on the left one). */
export function hasQuadRows(scenario) {
  const quads = scenario?.terrain?.quads;
  return Boolean(quads?.left?.length && quads?.right?.length);
}

export class StanceTab {
  constructor({ state, signals, doc, stage, run, picker, corePromise }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, doc, stage, run, picker, corePromise, $ });
    this.playback = null;
    this.active = false;
    this.timer = null;
    signals.tabChanged.add((tab) => this.tabChanged(tab));
    signals.scenarioLoaded.add(() => this.active && this.setActive(true));  // a new robot stays hidden behind the stance
    doc.onChange(() => this.active && this.showHint());
    $('stance-compute').addEventListener('click', () => this.compute());
    $('stance-example').addEventListener('click', () => this.openExample());
    $('stance-play').addEventListener('click', () => this.playback?.length && this.play());
    $('stance-s').addEventListener('input', () => this.show(Number($('stance-s').value)));
  }

  /** The side panel shows `tab`. */
  tabChanged(tab) {
    this.setActive(tab === 'stance');
  }

  /** Shows the stance (when computed) instead of the running robot, or the robot again. */
  setActive(on) {
    this.active = on;
    if (on) this.showHint();
    if (this.playback) this.playback.object.visible = on && this.playback.length > 0;
    if (this.state.view) this.state.view.object.visible = !on || !this.playback?.length;
    if (!on) this.stop();
  }

  /** The hint is shown while the scenario has no quad rows. */
  showHint() {
    this.$('stance-hint').hidden = hasQuadRows(this.doc.scenario);
  }

  /** Opens STANCE_EXAMPLE (as its scenario picker does) and places the rover on it. */
  async openExample() {
    await this.picker.pick(STANCE_EXAMPLE);
    return this.compute();
  }

  async compute() {
    const { state, doc, $ } = this;
    const large = tooLargeForPage(doc.scenario);
    if (large) {
      $('stance-info').textContent = `This terrain has ${large.pieces} pieces (${Math.round(large.bytes / 1024)} kB), more than the stance is computed for on this page (${large.limit}).`;
      return;
    }
    const core = await this.corePromise;
    this.playback ??= new RockerPlayback(this.stage.scene, core);
    this.stop();
    const scenario = { ...structuredClone(doc.scenario), robot: { ...doc.scenario.robot, preset: 'rocker8' } };
    const result = this.playback.load(scenario);
    state.stance = result;
    if (!result.ok) {
      $('stance-info').textContent = 'No stance could be computed:\n' + formatIssues(result.issues);
      $('stance-s').disabled = true;
      this.setActive(true);
      return;
    }
    if (state.playing) this.run.setPlaying(false);
    $('stance-s').max = String(this.playback.length - 1);
    $('stance-s').disabled = false;
    // The first pose with a stance (at the start the rover may not stand on the rows yet).
    const first = Math.max(0, [...Array(this.playback.length).keys()].findIndex((i) => this.playback.pose(i).stance));
    $('stance-s').value = String(first);
    this.setActive(true);
    this.show(first);
  }

  show(index) {
    const { $ } = this;
    const pose = this.playback.show(index);
    if (!pose) return;
    const deg = (r) => ((r * 180) / Math.PI).toFixed(2);
    const touching = pose.wheels?.map((w, k) => (w.contact ? k + 1 : null)).filter(Boolean) ?? [];
    $('stance-info').textContent = pose.stance
      ? `s = ${pose.s.toFixed(2)} m   yaw ${deg(pose.yaw)}°  pitch ${deg(pose.pitch)}°  roll ${deg(pose.roll)}°\n` +
        `wheels touching: ${touching.join(' ') || 'none'}; in the air: ${pose.wheels.map((w, k) => (w.contact ? null : k + 1)).filter(Boolean).join(' ') || 'none'}`
      : `s = ${pose.s.toFixed(2)} m: no stance (${pose.reason})`;
    if (pose.stance) this.stage.track(new THREE.Vector3(...pose.position));
    this.stage.changed = true;  // the rover moved: drawn even while the run is paused
    this.state.stancePose = { index: this.playback.index, s: pose.s, stance: pose.stance, roll: pose.roll, pitch: pose.pitch, touching };
  }

  play() {
    const { $ } = this;
    if (this.timer) return this.stop();
    $('stance-play').textContent = '❚❚ Pause';
    this.timer = setInterval(() => {
      const next = (Number($('stance-s').value) + 1) % Math.max(1, this.playback?.length ?? 1);
      $('stance-s').value = String(next);
      this.show(next);
    }, PLAY_EVERY_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.$('stance-play').textContent = '▶ Play';
  }
}
