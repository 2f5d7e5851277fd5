// The terrain editor in the 3-D view: handles on the points a person can move
// (a and b of each row's first segment, every segment's far midpoint m),
// markers on the shared vertices, Track1 as a polyline with its nodes and the
// surface normals. Dragging a handle moves it in the horizontal plane (with
// Shift: vertically), snapped to a grid and to nearby vertices; the move is
// the editor's command for a quad point (commands.js, as typed in the panel),
// and one drag is one undo step.
import * as THREE from 'three';

import { handles, vertices } from './quad_rows.js';

const HANDLE_COLOR = { a: 0x2b6cb0, b: 0x2b6cb0, m: 0xdd6b20 };
const TRACK_COLOR = 0xc026d3;

export class EditorView {
  /**
   * @param stage     the Stage (scene, camera, controls, renderer)
   * @param commands  the editor's commands (EditorCommands, shared with the panel)
   * @param {{ onSelectNode?(i), snap?: { grid: number, vertex: number } }} options
   *   grid: step (m) of the snapping grid (0: none); vertex: snapping distance to vertices (m)
   */
  constructor(stage, commands, { onSelectNode, snap = { grid: 0.05, vertex: 0.08 } } = {}) {
    this.stage = stage;
    this.commands = commands;
    this.doc = commands.doc;
    this.onSelectNode = onSelectNode;
    this.snap = snap;
    this.group = new THREE.Group();
    this.group.name = 'editor';
    this.group.visible = false;
    stage.scene.add(this.group);
    this.raycaster = new THREE.Raycaster();
    this.drag = null;
    this.selectedNode = 0;
    this.handleMeshes = [];
    this.nodeMeshes = [];
    const canvas = stage.renderer.domElement;
    // Capture phase: ahead of the orbit controls' own listener on the canvas.
    canvas.addEventListener('pointerdown', (e) => this.pointerDown(e), { capture: true });
    canvas.addEventListener('pointermove', (e) => this.pointerMove(e));
    canvas.addEventListener('pointerup', (e) => this.pointerUp(e));
    canvas.addEventListener('pointercancel', () => this.cancel());
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.drag) this.cancel();
    });
  }

  get visible() {
    return this.group.visible;
  }

  setVisible(on) {
    this.group.visible = on;
    if (!on) this.cancel();
  }

  /** Rebuilds the handles, markers and Track1 from the scenario and the core's inspection. */
  update(scenario, inspection) {
    for (const child of [...this.group.children]) {
      child.traverse((o) => {
        o.geometry?.dispose();
        o.material?.dispose();
      });
      this.group.remove(child);
    }
    const quads = scenario.terrain?.quads;
    const box = inspection?.terrain?.box;
    const size = box ? Math.max(box.max[0] - box.min[0], box.max[1] - box.min[1], 1) : 4;
    this.radius = Math.min(0.08, Math.max(0.03, size / 150));
    const sphere = new THREE.SphereGeometry(this.radius, 16, 12);
    const small = new THREE.SphereGeometry(this.radius * 0.55, 10, 8);

    for (const p of vertices(quads)) {
      const m = new THREE.Mesh(small, new THREE.MeshBasicMaterial({ color: 0x4a5568 }));
      m.position.set(...p);
      this.group.add(m);
    }
    this.handleMeshes = handles(quads).map((h) => {
      const m = new THREE.Mesh(sphere, new THREE.MeshLambertMaterial({ color: HANDLE_COLOR[h.key], emissive: 0x111111 }));
      m.position.set(...h.point);
      m.userData = { handle: h };
      this.group.add(m);
      return m;
    });

    const nodes = inspection?.track1 ?? [];
    if (nodes.length >= 2) {
      const line = new THREE.Line(
        new THREE.BufferGeometry().setFromPoints(nodes.map((n) => new THREE.Vector3(...n.point).add(new THREE.Vector3(0, 0, 0.005)))),
        new THREE.LineBasicMaterial({ color: TRACK_COLOR, linewidth: 2 }),
      );
      line.name = 'track1';
      this.group.add(line);
    }
    this.nodeMeshes = nodes.map((n, i) => {
      const selected = i === this.selectedNode;
      const m = new THREE.Mesh(sphere, new THREE.MeshLambertMaterial({ color: selected ? 0xffd400 : TRACK_COLOR }));
      m.scale.setScalar(selected ? 1.3 : 0.9);
      m.position.set(...n.point);
      m.userData = { node: i };
      this.group.add(m);
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(...n.normal), m.position, Math.max(0.25, size / 25), TRACK_COLOR);
      this.group.add(arrow);
      return m;
    });
  }

  selectNode(i) {
    this.selectedNode = i;
  }

  // --------------------------------------------------------------- picking

  ray(event) {
    const rect = this.stage.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.stage.camera);
    return this.raycaster.ray;
  }

  pick(event) {
    this.ray(event);
    const hits = this.raycaster.intersectObjects([...this.handleMeshes, ...this.nodeMeshes], false);
    return hits[0]?.object ?? null;
  }

  pointerDown(event) {
    if (!this.visible || event.button !== 0) return;
    const hit = this.pick(event);
    if (!hit) return;
    if (hit.userData.node !== undefined) {
      this.selectedNode = hit.userData.node;
      this.onSelectNode?.(hit.userData.node);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    this.stage.controls.enabled = false;
    this.stage.renderer.domElement.setPointerCapture?.(event.pointerId);
    const start = hit.position.clone();
    // Horizontal drag plane through the point; with Shift, a vertical plane facing the camera.
    const vertical = event.shiftKey;
    const normal = vertical
      ? new THREE.Vector3().subVectors(this.stage.camera.position, start).setZ(0).normalize()
      : new THREE.Vector3(0, 0, 1);
    this.drag = { handle: hit.userData.handle, mesh: hit, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, start), vertical, start };
    this.commands.beginDrag();
  }

  pointerMove(event) {
    if (!this.drag) {
      if (this.visible) this.stage.renderer.domElement.style.cursor = this.pick(event) ? 'pointer' : '';
      return;
    }
    const hit = new THREE.Vector3();
    if (!this.ray(event).intersectPlane(this.drag.plane, hit)) return;
    const point = this.snapPoint(hit);
    const { side, index, key } = this.drag.handle;
    this.drag.mesh.position.set(...point);
    this.commands.moveQuadPoint(side, index, key, point, `drag ${side}[${index}].${key}`);
  }

  snapPoint(p) {
    const { grid, vertex } = this.snap;
    const start = this.drag.start;
    const q = [p.x, p.y, this.drag.vertical ? p.z : start.z];
    if (!this.drag.vertical) q[2] = start.z;
    else {
      q[0] = start.x;
      q[1] = start.y;
    }
    if (grid > 0) for (const k of this.drag.vertical ? [2] : [0, 1]) q[k] = Math.round(q[k] / grid) * grid;
    // Snap to the nearest vertex of the rows (other than the dragged point itself).
    if (vertex > 0) {
      let best = null;
      let bestD = vertex;
      const own = this.drag.handle.point;
      for (const v of vertices(this.doc.dragStart?.terrain?.quads ?? this.doc.scenario.terrain?.quads)) {
        if (v.every((c, k) => Math.abs(c - own[k]) < 1e-9)) continue;
        const d = Math.hypot(v[0] - q[0], v[1] - q[1], this.drag.vertical ? v[2] - q[2] : 0);
        if (d < bestD) {
          bestD = d;
          best = v;
        }
      }
      if (best) return this.drag.vertical ? [q[0], q[1], best[2]] : [best[0], best[1], q[2]];
    }
    return q.map((v) => Math.round(v * 1e6) / 1e6);
  }

  pointerUp(event) {
    if (!this.drag) return;
    const { side, index, key } = this.drag.handle;
    this.drag = null;
    this.stage.controls.enabled = true;
    this.stage.renderer.domElement.releasePointerCapture?.(event.pointerId);
    this.commands.endDrag(`drag ${side}[${index}].${key}`);
  }

  cancel() {
    if (!this.drag) return;
    this.drag = null;
    this.stage.controls.enabled = true;
    this.commands.cancelDrag();
  }
}
