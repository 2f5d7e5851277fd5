// The contact inspector (Simulate tab, "Contacts"): pick a wheel or a body in
// its list, or click it in the view, to see each of its contact points at the
// time on show (the newest frame, or the scrubbed one): point, normal, depth,
// normal and tangential force, slip and the terrain feature it touches (a
// piece, a heightmap's cell and triangle or wall, a mesh's triangle or wall).
// The numbers are the frame's (sim/frame.h: each contact slot's fields, named
// by the model's layout.slotFields); the wheel's forces sum to the telemetry's
// wheel_normal_N and wheel_tangential_N of the same time. The inspected
// contacts are ringed in the view.
import * as THREE from 'three';

const REFRESH_MS = 200;  // the table is rewritten at most this often while the run plays
const RING_COLOR = 0x00e5ff;

const fixed = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const vector = (v, digits) => `(${v.map((x) => fixed(x, digits)).join(', ')})`;

/** What terrain feature `id` is, in words, from the model's feature ranges (terrainToJs). */
export function featureName(features, id) {
  for (const r of features ?? []) {
    const local = id - r.first;
    if (local < 0 || local >= r.triangles + r.walls) continue;
    if (r.kind === 'piece') return `piece ${local}`;
    if (local >= r.triangles) return `${r.kind} ${r.index}, wall ${local - r.triangles}`;
    if (r.kind === 'heightmap') {
      const cell = Math.floor(local / 2);
      return `heightmap ${r.index}, cell (${cell % r.cellsX}, ${Math.floor(cell / r.cellsX)}), ${local % 2 ? 'upper' : 'lower'} triangle`;
    }
    return `mesh ${r.index}, triangle ${local}`;
  }
  return `feature ${id}`;
}

/**
 * The contacts of a wheel (`kind` 'wheel', its index) or of a body's boxes
 * (`kind` 'body', the body's index) in `frame`: [{ point, normal, depth,
 * normalForce, tangentialForce, slip, feature, box }] with forces as vectors (N).
 */
export function contactsOf(model, frame, { kind, index }) {
  const { contacts, boxContacts, wheel, slot, slots, slotFields: f } = model.layout;
  const groups = kind === 'wheel'
    ? [{ offset: contacts + wheel * index, box: null }]
    : (model.boxBodies ?? []).flatMap((body, b) => (body === index ? [{ offset: boxContacts + wheel * b, box: b }] : []));
  const out = [];
  for (const { offset, box } of groups) {
    const count = Math.min(frame[offset], slots);
    for (let k = 0; k < count; k++) {
      const p = offset + 1 + slot * k;
      const three = (at) => [frame[p + at], frame[p + at + 1], frame[p + at + 2]];
      const normalForce = three(f.normalForce);
      const size = Math.hypot(...normalForce);
      out.push({
        point: three(f.point),
        normal: size > 0 ? normalForce.map((v) => v / size) : [NaN, NaN, NaN],
        depth: frame[p + f.depth],
        normalForce,
        tangentialForce: three(f.tangentialForce),
        slip: frame[p + f.slip],
        feature: frame[p + f.feature],
        box,
      });
    }
    if (frame[offset] > slots) out.push({ more: frame[offset] - slots });
  }
  return out;
}

export class ContactInspector {
  /** @param deps { state, signals, stage } */
  constructor({ state, signals, stage }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, stage, $ });
    this.target = null;  // { kind: 'wheel' | 'body', index }
    this.shownAt = 0;
    this.shownKey = '';
    this.rings = new THREE.Group();
    this.rings.name = 'inspected-contacts';
    stage.scene.add(this.rings);
    $('inspect').addEventListener('change', () => this.pick($('inspect').value));
    signals.scenarioLoaded.add((model) => this.setModel(model));
    signals.frame.add((shown) => this.update(shown));
    this.wireClicks(stage.canvas);
  }

  /** The list of what can be inspected: the wheels, then the bodies with boxes. */
  setModel(model) {
    const select = this.$('inspect');
    const options = [select.options[0]];
    model.wheels.forEach((w, i) => options.push(new Option(`wheel ${w.name}`, `wheel:${i}`)));
    const wheelBodies = new Set(model.wheels.map((w) => w.body));
    model.bodies.forEach((b, i) => {
      if (!wheelBodies.has(i) && (model.boxBodies ?? []).includes(i)) options.push(new Option(`body ${b.name}`, `body:${i}`));
    });
    select.replaceChildren(...options);
    const kept = this.target && options.some((o) => o.value === `${this.target.kind}:${this.target.index}`);
    this.pick(kept ? `${this.target.kind}:${this.target.index}` : '');
  }

  /** Inspects "wheel:i" or "body:i" ('' for none). */
  pick(value) {
    const [kind, index] = value.split(':');
    this.target = kind ? { kind, index: Number(index) } : null;
    this.$('inspect').value = value;
    this.shownKey = '';
    this.shownAt = 0;
  }

  /** A click (not a drag) on a wheel or a body in the view inspects it, in the Simulate tab. */
  wireClicks(canvas) {
    let down = null;
    canvas.addEventListener('pointerdown', (e) => (down = { x: e.clientX, y: e.clientY }));
    canvas.addEventListener('pointerup', (e) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
      if ((this.state.tab ?? 'sim') !== 'sim' || !this.state.view) return;
      const r = canvas.getBoundingClientRect();
      const ray = new THREE.Raycaster();
      ray.setFromCamera(new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, 1 - ((e.clientY - r.top) / r.height) * 2), this.stage.camera);
      const bodies = this.state.view.bodies;
      for (const hit of ray.intersectObjects(bodies, true)) {
        let o = hit.object;
        while (o && !bodies.includes(o)) o = o.parent;
        const body = bodies.indexOf(o);
        if (body < 0) continue;
        const wheel = this.state.model.wheels.findIndex((w) => w.body === body);
        const value = wheel >= 0 ? `wheel:${wheel}` : `body:${body}`;
        if (![...this.$('inspect').options].some((opt) => opt.value === value)) return;
        this.pick(value);
        this.$('inspector').scrollIntoView({ block: 'nearest' });  // the table in sight
        return;
      }
    });
  }

  /** The table and the rings for the frame on show (shown: { a, b, s } of the draw). */
  update(shown) {
    const { state, $ } = this;
    if (!shown || !state.model) return;
    const frame = shown.s < 0.5 ? shown.a : shown.b;
    const key = `${frame[0]} ${this.target?.kind}:${this.target?.index}`;
    const now = performance.now();
    if (key === this.shownKey || (state.playing && now - this.shownAt < REFRESH_MS)) return;
    this.shownKey = key;
    this.shownAt = now;
    for (const ring of this.rings.children) {
      ring.geometry.dispose();
      ring.material.dispose();
    }
    this.rings.clear();
    const table = $('inspect-table');
    if (!this.target) {
      table.hidden = true;
      $('inspect-summary').textContent = '';
      state.inspected = null;
      return;
    }
    const model = state.model;
    const contacts = contactsOf(model, frame, this.target);
    const points = contacts.filter((c) => !c.more);
    const name = this.target.kind === 'wheel' ? model.wheels[this.target.index].name : model.bodies[this.target.index].name;
    const total = (key) => points.reduce((sum, c) => sum + Math.hypot(...c[key]), 0);
    $('inspect-summary').textContent = points.length
      ? `${name} at t = ${frame[0].toFixed(3)} s: ${points.length} contact${points.length > 1 ? 's' : ''}, normal ${total('normalForce').toFixed(1)} N, tangential ${total('tangentialForce').toFixed(1)} N`
      : `${name} at t = ${frame[0].toFixed(3)} s: no contact`;
    const rows = contacts.map((c, i) => {
      const tr = document.createElement('tr');
      const cells = c.more
        ? [`+${c.more}`, 'more contacts than the frame holds', '', '', '', '', '', '']
        : [
          String(i + 1),
          vector(c.point, 3),
          vector(c.normal, 3),
          fixed(1000 * c.depth, 2),
          fixed(Math.hypot(...c.normalForce), 1),
          fixed(Math.hypot(...c.tangentialForce), 1),
          fixed(c.slip, 3),
          featureName(model.terrain.features, c.feature),
        ];
      for (const text of cells) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    table.hidden = contacts.length === 0;
    const radius = 0.05 * (model.wheels[0]?.radius ?? 0.2) / 0.2;
    for (const c of points) {
      const ring = new THREE.Mesh(
        new THREE.TorusGeometry(radius, radius * 0.18, 8, 24),
        new THREE.MeshBasicMaterial({ color: RING_COLOR, depthTest: false, transparent: true, opacity: 0.9 }),
      );
      ring.position.set(...c.point);
      if (Number.isFinite(c.normal[0])) ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...c.normal));
      ring.renderOrder = 10;
      this.rings.add(ring);
    }
    state.inspected = { target: this.target, name, time: frame[0], contacts: points };
  }
}
