// Kinematic playback of the rocker rover ([KJ2025] §§5-6, figs. 10-11): the
// core places rocker8 step by step along Track1 (core.rockerPlayback) and
// this view draws one pose at a time: the body box, wheel discs (green in
// contact, red in the air), the rocker arms, the pivot points and the
// suspension-centre lines of both sides, and the wheel tracks.
// Coordinates are the core's (x forward, y left, z up), as in robot_view.js.
import * as THREE from 'three';

const CONTACT_COLOR = 0x2e9e44;
const AIR_COLOR = 0xd1401f;
const BODY_COLOR = 0x8c8f94;
const ARM_COLOR = 0x333333;
const PIVOT_ON_LINE = 0x1f6fd1;    // pivot on its suspension-centre line
const PIVOT_ABOVE_LINE = 0xe0a400; // pivot above it: that rocker's wheels hang
const CENTRE_LINE_COLOR = 0x1f6fd1;
const TRACK_COLOR = 0x2e9e44;
const ON_LINE = 1e-6;  // m, as the core's contact tolerance

function lineObject(color, segments) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(0), 3));
  const material = new THREE.LineBasicMaterial({ color });
  return segments ? new THREE.LineSegments(geometry, material) : new THREE.Line(geometry, material);
}

/** Puts flat [x, y, z] points into a line's geometry. */
function setPoints(line, points) {
  const flat = new Float32Array(points.length * 3);
  points.forEach((p, i) => flat.set(p, 3 * i));
  line.geometry.setAttribute('position', new THREE.BufferAttribute(flat, 3));
  line.geometry.computeBoundingSphere();
}

export class RockerPlayback {
  /**
   * @param scene a THREE.Group (or Scene) to draw into
   * @param core the WASM core (createRoverlabCore()), for core.rockerPlayback
   */
  constructor(scene, core) {
    this.core = core;
    this.result = null;
    this.index = -1;
    this.object = new THREE.Group();
    this.object.name = 'rocker-playback';
    this.object.visible = false;
    scene.add(this.object);

    this.materials = {
      contact: new THREE.MeshLambertMaterial({ color: CONTACT_COLOR }),
      air: new THREE.MeshLambertMaterial({ color: AIR_COLOR }),
      onLine: new THREE.MeshBasicMaterial({ color: PIVOT_ON_LINE }),
      aboveLine: new THREE.MeshBasicMaterial({ color: PIVOT_ABOVE_LINE }),
    };
    this.body = new THREE.Group();
    this.bodyBox = new THREE.Mesh(
      new THREE.BoxGeometry(1, 1, 1),
      new THREE.MeshLambertMaterial({ color: BODY_COLOR, transparent: true, opacity: 0.55 }),
    );
    this.body.add(this.bodyBox);
    this.object.add(this.body);
    this.wheels = [];
    this.pivots = [];
    this.arms = lineObject(ARM_COLOR, true);
    this.centreLines = [lineObject(CENTRE_LINE_COLOR, false), lineObject(CENTRE_LINE_COLOR, false)];
    this.tracks = [lineObject(TRACK_COLOR, true), lineObject(TRACK_COLOR, true)];
    this.object.add(this.arms, ...this.centreLines, ...this.tracks);
  }

  /**
   * Positions the rover along Track1 of a scenario (an object in the scenario
   * format, robot preset rocker8), every `step` m of arc length.
   * @returns {{ ok: true } | { ok: false, issues: {path, message}[] }}
   */
  load(scenario, { step = 0.1 } = {}) {
    const result = this.core.rockerPlayback(JSON.stringify(scenario), step);
    if (!result.ok) return { ok: false, issues: result.issues };
    this.result = result;
    this.build(result.geometry);
    this.index = -1;
    return { ok: true };
  }

  /** Number of poses of the loaded playback. */
  get length() {
    return this.result ? this.result.poses.length : 0;
  }

  /** The core's pose record `index` ({ s, stance, reason, position, ... }). */
  pose(index) {
    return this.result ? this.result.poses[index] : undefined;
  }

  /** Draws pose `index`; a pose without a stance hides the rover. Returns the pose. */
  show(index) {
    if (!this.result || this.length === 0) return undefined;
    const i = Math.max(0, Math.min(this.length - 1, Math.round(index)));
    const pose = this.result.poses[i];
    this.index = i;
    this.object.visible = pose.stance;
    if (!pose.stance) return pose;
    const q = new THREE.Quaternion(...pose.quaternion);
    this.body.position.set(...pose.position);
    this.body.quaternion.copy(q);
    const arms = [];
    pose.wheels.forEach((wheel, k) => {
      const mesh = this.wheels[k];
      mesh.position.set(...wheel.centre);
      mesh.quaternion.copy(q);  // axle along the body's y axis, as the cylinder's
      mesh.material = wheel.contact ? this.materials.contact : this.materials.air;
      arms.push(pose.pivots[k >> 1], wheel.centre);
    });
    pose.pivots.forEach((p, k) => {
      this.pivots[k].position.set(...p);
      this.pivots[k].material = pose.pivotGaps[k] <= ON_LINE ? this.materials.onLine : this.materials.aboveLine;
    });
    setPoints(this.arms, arms);
    setPoints(this.centreLines[0], pose.centreLines.left);
    setPoints(this.centreLines[1], pose.centreLines.right);
    setPoints(this.tracks[0], pose.tracks.left);
    setPoints(this.tracks[1], pose.tracks.right);
    return pose;
  }

  /** Removes the view from its scene and frees its GPU resources. */
  dispose() {
    this.object.removeFromParent();
    this.object.traverse((o) => o.geometry?.dispose());
    for (const m of Object.values(this.materials)) m.dispose();
    this.bodyBox.material.dispose();
  }

  build(g) {
    this.bodyBox.scale.set(...g.bodySize);
    this.bodyBox.position.set(...g.bodyCentre);
    if (this.wheels.length === 0) {
      for (let k = 0; k < 8; k++) {
        const wheel = new THREE.Mesh(new THREE.CylinderGeometry(1, 1, 1, 32), this.materials.air);
        wheel.name = `wheel_${k + 1}`;
        this.wheels.push(wheel);
        this.object.add(wheel);
      }
      for (let k = 0; k < 4; k++) {
        const pivot = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), this.materials.onLine);
        pivot.name = `pivot_${k + 1}`;
        this.pivots.push(pivot);
        this.object.add(pivot);
      }
    }
    for (const wheel of this.wheels) wheel.scale.set(g.wheelRadius, g.wheelWidth, g.wheelRadius);
    for (const pivot of this.pivots) pivot.scale.setScalar(0.05);
  }
}
