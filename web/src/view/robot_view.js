// three.js view of a robot as the core describes it (World.model()): one
// group per body, posed from each frame (sim/frame.h layout); boxes for the
// bodies, wheels as tyres with spokes so that their spin shows; wheel contact
// points and body-box contacts (one per touching terrain piece, at its centre
// of pressure) with normal, tangential and resultant force arrows;
// wheel-centre trails. Frames are interpolated: pose(a, b, s) blends two frames.
import * as THREE from 'three';

const WHEEL_COLOR = 0x2b2b2b;
const BODY_COLORS = [0xd9822b, 0x3d7fbf, 0x6aa84f, 0xb85450, 0x8e6bbf];
const FORCE_COLORS = { normal: 0x1f6fd1, tangential: 0xd1401f, resultant: 0x2e9e44 };
const MARK_COLORS = { wheel: 0xffd400, box: 0xff3cac };
const TRAIL_POINTS = 4000;

function wheelObject(radius, width) {
  const group = new THREE.Group();
  const tyre = new THREE.Mesh(
    new THREE.CylinderGeometry(radius, radius, width, 32, 1),
    new THREE.MeshLambertMaterial({ color: WHEEL_COLOR }),
  );
  group.add(tyre);  // the cylinder's axis is y: the wheel's axle
  const spokes = new THREE.MeshLambertMaterial({ color: 0xe8e8e8 });
  for (let k = 0; k < 3; k++) {
    const spoke = new THREE.Mesh(new THREE.BoxGeometry(1.7 * radius, width * 1.04, 0.12 * radius), spokes);
    spoke.rotation.y = (k * Math.PI) / 3;
    group.add(spoke);
  }
  return group;
}

/** A contact mark's sphere (a new one each: a robot's view disposes its own). */
const markGeometry = () => new THREE.SphereGeometry(0.02, 8, 6);
const markMaterial = (kind) => new THREE.MeshBasicMaterial({ color: MARK_COLORS[kind] });

function arrow(color) {
  const a = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, color, 0.06, 0.035);
  a.visible = false;
  return a;
}

// A model of one body with a box and a jointed child, one wheel and one contact slot: every
// kind of object a robot's view draws (robotPrograms).
const SAMPLE_MODEL = {
  mass: 1,
  bodies: [
    { name: 'base', parent: -1, boxes: [{ size: [0.4, 0.3, 0.1], centre: [0, 0, 0] }] },
    { name: 'link', parent: 0, boxes: [{ size: [0.1, 0.1, 0.1], centre: [0, 0, 0] }] },
    { name: 'wheel', parent: 0, boxes: [] },
  ],
  wheels: [{ body: 2, radius: 0.1, width: 0.05 }],
  layout: { slots: 1, contacts: 0, boxContacts: 0, boxes: 0, wheel: 0, poses: 0, pose: 7 },
};

/** The objects of a robot's view, one of each kind (bodies, wheels, a joint's rod, a trail): the
 * stage compiles their shader programs before the first robot arrives (scene.js warmUp). */
export const robotPrograms = () => new RobotView(SAMPLE_MODEL).object;

/** A contact's mark and force arrows, shown: their programs, compiled by the stage once the first
 * frame is drawn (the first frame has no contact to show). */
export function contactPrograms() {
  const view = new RobotView(SAMPLE_MODEL);
  view.makeMark(view.contactMarks[0]);
  view.forces.traverse((o) => (o.visible = true));
  return view.forces;
}

export class RobotView {
  constructor(model) {
    this.model = model;
    this.object = new THREE.Group();
    this.object.name = 'robot';
    this.bodies = model.bodies.map((body, index) => {
      const group = new THREE.Group();
      group.name = body.name;
      const color = BODY_COLORS[index % BODY_COLORS.length];
      for (const box of body.boxes) {
        const mesh = new THREE.Mesh(
          new THREE.BoxGeometry(...box.size),
          new THREE.MeshLambertMaterial({ color }),
        );
        mesh.position.set(...box.centre);
        mesh.castShadow = true;
        group.add(mesh);
      }
      this.object.add(group);
      return group;
    });
    for (const wheel of model.wheels) {
      const w = wheelObject(wheel.radius, wheel.width);
      w.traverse((o) => (o.castShadow = true));
      this.bodies[wheel.body].add(w);
    }
    // Joint axes: a short dark rod at each non-wheel joint, drawn in the child body.
    const wheelBodies = new Set(model.wheels.map((w) => w.body));
    model.bodies.forEach((body, index) => {
      if (body.parent < 0 || wheelBodies.has(index) || body.boxes.length === 0) return;
      const rod = new THREE.Mesh(
        new THREE.CylinderGeometry(0.02, 0.02, 0.5, 8),
        new THREE.MeshLambertMaterial({ color: 0x333333 }),
      );
      this.bodies[index].add(rod);
    });

    // Contact slots of the frame: per wheel, then per body box (sim/frame.h). A slot's mark and
    // arrows are made the first time it holds a contact (most slots never do).
    const { slots, contacts, boxContacts, boxes, wheel } = model.layout;
    this.forces = new THREE.Group();
    this.forces.name = 'forces';
    const groups = [
      { kind: 'wheel', offset: contacts, count: model.wheels.length },
      { kind: 'box', offset: boxContacts, count: boxes },
    ];
    this.contactMarks = [];  // { kind, mark, arrows (null until made), count: frame index of the contact count, slot }
    for (const group of groups) {
      for (let i = 0; i < group.count; i++) {
        for (let k = 0; k < slots; k++) this.contactMarks.push({ kind: group.kind, mark: null, arrows: null, count: group.offset + wheel * i, slot: k });
      }
    }
    this.object.add(this.forces);

    this.trails = model.wheels.map(() => {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(TRAIL_POINTS * 3), 3));
      geometry.setDrawRange(0, 0);
      const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: 0x8a2be2 }));
      line.frustumCulled = false;
      this.object.add(line);
      return { line, count: 0, lastTime: -Infinity };
    });
    // Arrow length per newton: a wheel's share of the weight is drawn as long as the wheel's diameter.
    const share = (model.mass * 9.81) / Math.max(model.wheels.length, 1);
    this.unitScale = (2 * (model.wheels[0]?.radius ?? 0.2)) / share;
    this.options = { forces: true, normal: true, tangential: true, resultant: true, forceScale: this.unitScale, trails: true };
    this.qa = new THREE.Quaternion();
    this.qb = new THREE.Quaternion();
  }

  /** Poses every body from frame a, or between a and b at fraction s (0 … 1). */
  pose(a, b = a, s = 0) {
    const { poses, pose } = this.model.layout;
    this.bodies.forEach((group, i) => {
      const o = poses + pose * i;
      group.position.set(
        a[o] + s * (b[o] - a[o]),
        a[o + 1] + s * (b[o + 1] - a[o + 1]),
        a[o + 2] + s * (b[o + 2] - a[o + 2]),
      );
      this.qa.set(a[o + 4], a[o + 5], a[o + 6], a[o + 3]);
      this.qb.set(b[o + 4], b[o + 5], b[o + 6], b[o + 3]);
      group.quaternion.slerpQuaternions(this.qa, this.qb, s);
    });
    this.drawForces(s < 0.5 ? a : b);
  }

  drawForces(frame) {
    const { slot } = this.model.layout;
    const o = this.options;
    const tmp = new THREE.Vector3();
    const origin = new THREE.Vector3();
    for (const entry of this.contactMarks) {
      const { count, slot: k } = entry;
      const on = o.forces && k < frame[count];
      if (on && !entry.mark) this.makeMark(entry);
      if (!entry.mark) continue;
      const { mark, arrows } = entry;
      mark.visible = on;
      for (const a of Object.values(arrows)) a.visible = false;
      if (!on) continue;
      const p = count + 1 + slot * k;
      origin.set(frame[p], frame[p + 1], frame[p + 2]);
      mark.position.copy(origin);
      const vectors = {
        normal: [frame[p + 3], frame[p + 4], frame[p + 5]],
        tangential: [frame[p + 6], frame[p + 7], frame[p + 8]],
      };
      vectors.resultant = vectors.normal.map((v, i) => v + vectors.tangential[i]);
      for (const [name, v] of Object.entries(vectors)) {
        if (!o[name]) continue;
        tmp.set(...v);
        const length = tmp.length() * o.forceScale;
        if (length < 1e-4) continue;
        arrows[name].position.copy(origin);
        arrows[name].setDirection(tmp.normalize());
        arrows[name].setLength(length, Math.min(0.08, 0.3 * length), Math.min(0.05, 0.2 * length));
        arrows[name].visible = true;
      }
    }
  }

  /** A contact slot's mark and its force arrows, hidden, in the forces group. */
  makeMark(entry) {
    entry.mark = new THREE.Mesh(markGeometry(), markMaterial(entry.kind));
    entry.mark.name = `${entry.kind}-contact`;
    entry.mark.visible = false;
    entry.arrows = { normal: arrow(FORCE_COLORS.normal), tangential: arrow(FORCE_COLORS.tangential), resultant: arrow(FORCE_COLORS.resultant) };
    this.forces.add(entry.mark, entry.arrows.normal, entry.arrows.tangential, entry.arrows.resultant);
  }

  /** How many wheel and body-box contact marks the last drawn frame shows. */
  shownContacts() {
    const count = { wheel: 0, box: 0 };
    for (const { mark } of this.contactMarks) if (mark?.visible) count[mark.name.split('-')[0]] += 1;
    return count;
  }

  /** Appends the wheel centres of a frame to the trails (no more often than every 20 ms of simulated time). */
  record(frame) {
    const { poses, pose } = this.model.layout;
    const time = frame[0];
    this.model.wheels.forEach((wheel, w) => {
      const trail = this.trails[w];
      if (time < trail.lastTime) this.clearTrail(trail);  // after a reset or a scrub back
      if (time - trail.lastTime < 0.02 || trail.count >= TRAIL_POINTS) return;
      const o = poses + pose * wheel.body;
      const attr = trail.line.geometry.getAttribute('position');
      attr.setXYZ(trail.count++, frame[o], frame[o + 1], frame[o + 2]);
      attr.needsUpdate = true;
      trail.line.geometry.setDrawRange(0, trail.count);
      trail.lastTime = time;
    });
    for (const t of this.trails) t.line.visible = this.options.trails;
  }

  clearTrail(trail) {
    trail.count = 0;
    trail.lastTime = -Infinity;
    trail.line.geometry.setDrawRange(0, 0);
  }

  clearTrails() {
    for (const t of this.trails) this.clearTrail(t);
  }

  /** World position of the base in a frame (for the follow camera). */
  basePosition(frame, out = new THREE.Vector3()) {
    const o = this.model.layout.poses + this.model.layout.pose * this.model.base;
    return out.set(frame[o], frame[o + 1], frame[o + 2]);
  }

  /** The base's heading as posed (rad, about z from x): where its x axis points in the ground plane. */
  heading() {
    const forward = new THREE.Vector3(1, 0, 0).applyQuaternion(this.bodies[this.model.base].quaternion);
    return Math.atan2(forward.y, forward.x);
  }

  dispose() {
    this.object.traverse((o) => {
      o.geometry?.dispose();
      if (o.material) (Array.isArray(o.material) ? o.material : [o.material]).forEach((m) => m.dispose());
    });
  }
}
