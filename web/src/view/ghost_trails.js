// The pinned runs' trails in the 3-D view, ghosted: for each run shown, the
// path of its base and of each wheel centre (the view's wheel trails) as
// semi-transparent lines in the run's colour, and a faint sphere where its
// base ended. Read from the run's telemetry columns (base_x_m …,
// <wheel>_x_m …), so a run of any robot draws its own wheels. The group
// lives in the scene itself, not in the stage's world: a new model on the
// stage leaves it in place.
import * as THREE from 'three';

const TRAIL_POINTS = 4000;  // points per path (every k-th row beyond)
const OPACITY = { base: 0.8, wheel: 0.55 };

/** A path's positions from the x, y, z columns named `${prefix}_x_m` …, or null without them. */
function pathOf(telemetry, prefix) {
  const [x, y, z] = ['x', 'y', 'z'].map((a) => telemetry.columns.indexOf(`${prefix}_${a}_m`));
  if (x < 0 || y < 0 || z < 0 || telemetry.rows < 2) return null;
  const k = Math.max(1, Math.ceil(telemetry.rows / TRAIL_POINTS));
  const positions = new Float32Array(Math.ceil(telemetry.rows / k) * 3);
  for (let r = 0, p = 0; r < telemetry.rows; r += k, p += 3) positions.set([telemetry.value(r, x), telemetry.value(r, y), telemetry.value(r, z)], p);
  return positions;
}

/** A pinned run's ghost: a group of lines (userData: kind 'ghost-trail', run, points). */
function ghostOf(run) {
  const group = new THREE.Group();
  group.name = `ghost-trail-${run.n}`;
  let points = 0;
  const line = (positions, opacity) => {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    const material = new THREE.LineBasicMaterial({ color: run.colour, transparent: true, opacity, depthWrite: false });
    group.add(new THREE.Line(geometry, material));
    points += positions.length / 3;
  };
  const base = pathOf(run.telemetry, 'base');
  if (base) {
    line(base, OPACITY.base);
    const end = new THREE.Mesh(
      new THREE.SphereGeometry(0.06, 12, 8),
      new THREE.MeshBasicMaterial({ color: run.colour, transparent: true, opacity: 0.45, depthWrite: false }),
    );
    end.position.fromArray(base, base.length - 3);
    group.add(end);
  }
  for (const wheel of run.model.wheels) {
    const path = pathOf(run.telemetry, wheel);
    if (path) line(path, OPACITY.wheel);
  }
  group.userData = { kind: 'ghost-trail', run: run.n, points };
  return group;
}

export class GhostTrails {
  /** stage: scene.js's Stage (its scene holds the ghosts). */
  constructor(stage) {
    this.stage = stage;
    this.group = new THREE.Group();
    this.group.name = 'pinned-trails';
    this.group.renderOrder = 1;  // over the terrain, drawn after it
    stage.scene.add(this.group);
    this.ghosts = new Map();  // run number → group
  }

  /** Shows the ghosts of `runs` (pinned runs: { n, colour, shown, telemetry, model }), each visible while shown. */
  set(runs) {
    for (const [n, ghost] of this.ghosts) {
      if (runs.some((r) => r.n === n)) continue;
      this.group.remove(ghost);
      ghost.traverse((o) => {
        o.geometry?.dispose();
        o.material?.dispose();
      });
      this.ghosts.delete(n);
    }
    for (const run of runs) {
      if (!this.ghosts.has(run.n)) {
        const ghost = ghostOf(run);
        this.ghosts.set(run.n, ghost);
        this.group.add(ghost);
      }
      this.ghosts.get(run.n).visible = run.shown;
    }
    this.stage.changed = true;
  }
}
