// The terrain editor's logic without a browser: [KJ2025]'s three points →
// quad, plane, normal and side vectors (as the WASM core computes them for
// the editor); shared points of a row; the Track1 node constraint (one
// coordinate typed, the node stays on its intersection line and on the left
// row); the undo history (one drag, one step) and the autosave; the edits
// the panel (typed) and the 3-D view (dragged) share; template values
// changed in the panel (the rough field rebuilt, one undo step per change,
// refused values changing nothing); quad rows and Track1 edited beside a
// heightmap; refused entries belonging to the document's version they were
// typed at.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { beforeAll, describe, expect, test, vi } from 'vitest';

import { EditorCommands } from '../../web/src/editor/commands.js';
import { AUTOSAVE_KEY, EditorDocument } from '../../web/src/editor/document.js';
import { EditorPanel, planeEquation } from '../../web/src/editor/editor_panel.js';
import { EditorView } from '../../web/src/editor/editor_view.js';
import { addSegment, farSide, nextSegment, parsePoint, rechain, removeSegment, setPoint } from '../../web/src/editor/quad_rows.js';
import { defaultValues, getTemplate } from '../../web/src/editor/templates.js';
import { refitTrack1 } from '../../web/src/editor/track1_edit.js';
import { loadWasmCore, root } from './support.mjs';

let core;

beforeAll(async () => {
  core = await loadWasmCore();
});

const sub = (p, q) => p.map((v, k) => v - q[k]);
const cross = (p, q) => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
const dot = (p, q) => p.reduce((s, v, k) => s + v * q[k], 0);
const norm = (p) => Math.hypot(...p);

/** A scenario with the given quad rows and a wheel rig on them. */
function scenarioWith(quads, extra = {}) {
  return {
    format: 'roverlab-scenario',
    version: 1,
    terrain: { quads },
    robot: { preset: 'rocker8', pose: { position: [1.2, 0] } },
    ...extra,
  };
}

const inspect = (s) => core.inspectTerrain(JSON.stringify(s));

/** A bumpy, cross-sloped 4-segment left row and a flat right row, built through the editor's functions. */
function bumpyRows() {
  let q = addSegment({}, 'left', { a: [0, 0, 0.05], b: [0, 1.6, 0], m: [1, 0.8, 0.1] });
  for (const m of [[2, 0.9, 0.3], [3.1, 0.85, 0.2], [4, 0.8, 0]]) q = addSegment(q, 'left', { ...nextSegment(q, 'left'), m });
  q = addSegment(q, 'right', { a: [0, -1.6, 0], b: [0, 0, 0], m: [1, -0.8, 0] });
  for (let i = 0; i < 3; i++) q = addSegment(q, 'right', nextSegment(q, 'right'));
  return q;
}

describe('three points to a quad', () => {
  test('corners, plane equation, normal and sides match a hand computation', () => {
    // a, b: near side; m: far midpoint, raised by 0.2 m over 1 m.
    const seg = { a: [0, 0, 0], b: [0, 1.6, 0], m: [1, 0.8, 0.2] };
    expect(farSide(seg)).toEqual({ a: [1, 0, 0.2], b: [1, 1.6, 0.2] });
    const result = inspect(scenarioWith({ left: [seg] }));
    expect(result.ok).toBe(true);
    const q = result.quads.left[0];
    expect(q.corners).toEqual([[0, 0, 0], [0, 1.6, 0], [1, 1.6, 0.2], [1, 0, 0.2]]);
    expect(q.sideAB).toEqual([0, 1.6, 0]);
    expect(q.sideAM).toEqual([1, 0, 0.2]);
    // n ∝ AB × AM = (0.32, 0, −1.6), turned up: (−0.2, 0, 1)/√1.04.
    const n = [-0.2, 0, 1].map((v) => v / Math.sqrt(1.04));
    q.normal.forEach((v, k) => expect(v).toBeCloseTo(n[k], 14));
    expect(q.offset).toBeCloseTo(0, 14);  // through the origin
    for (const c of q.corners) expect(dot(q.normal, c) - q.offset).toBeCloseTo(0, 14);
    expect(planeEquation(q)).toBe('−0.196x + 0.000y + 0.981z = 0.000');
    expect(q.color).toBeGreaterThan(0);
  });

  test('every quad of a bumpy row is flat, faces up and has its own colour in turn', () => {
    const result = inspect(scenarioWith(bumpyRows()));
    expect(result.issues).toEqual([]);
    const colours = result.quads.left.map((q) => q.color);
    expect(new Set(colours).size).toBeGreaterThan(1);
    for (const q of [...result.quads.left, ...result.quads.right]) {
      expect(q.normal[2]).toBeGreaterThan(0);
      expect(norm(q.normal)).toBeCloseTo(1, 14);
      const n = cross(q.sideAB, q.sideAM);
      expect(Math.abs(dot(n, q.normal)) / norm(n)).toBeCloseTo(1, 12);
      for (const c of q.corners) expect(Math.abs(dot(q.normal, c) - q.offset)).toBeLessThan(1e-12);
    }
    expect(result.terrain.pieces).toHaveLength(8);
  });

  test('collinear points, a folded row, overlapping rows and non-finite numbers are named at their field', () => {
    const collinear = inspect(scenarioWith({ left: [{ a: [0, 0, 0], b: [0, 1.6, 0], m: [0, 0.8, 0] }] }));
    expect(collinear.ok).toBe(false);
    expect(collinear.issues).toEqual([{ path: 'terrain.quads.left[0].m', message: expect.stringMatching(/no area/) }]);
    expect(collinear.quads.left).toEqual([null]);

    let folded = addSegment({}, 'left', { a: [0, 0, 0], b: [0, 1.6, 0], m: [1, 0.8, 0] });
    folded = addSegment(folded, 'left', { ...nextSegment(folded, 'left'), m: [0.3, 0.8, 0] });
    const f = inspect(scenarioWith(folded));
    expect(f.issues.map((i) => i.path)).toEqual(['terrain.quads.left[1].m']);
    expect(f.issues[0].message).toMatch(/folds back/);

    const overlap = inspect(scenarioWith({ left: [{ a: [0, 0, 0], b: [0, 1.6, 0], m: [1, 0.8, 0] }], right: [{ a: [0, -1, 0], b: [0, 0.5, 0], m: [1, -0.25, 0] }] }));
    expect(overlap.issues).toEqual([{ path: 'terrain.quads.right[0]', message: expect.stringMatching(/overlaps left-row segment 0/) }]);

    // JSON cannot carry NaN: the editor's own parser stops it at the field.
    expect(parsePoint('1 NaN 2')).toEqual({ ok: false, message: "y = 'NaN' is not a number" });
    expect(parsePoint('1 2 Infinity')).toEqual({ ok: false, message: 'z = Infinity is not finite' });
    expect(parsePoint('1 2')).toEqual({ ok: false, message: 'needs three numbers x y z separated by spaces, got 2' });
    expect(parsePoint('1, 2.5 -3e-2')).toEqual({ ok: true, value: [1, 2.5, -0.03] });
    expect(parsePoint('4 5', [2, 3])).toEqual({ ok: true, value: [4, 5] });
  });
});

describe('shared points', () => {
  test('a new segment starts at the far side of the last; the next one is offered one length on', () => {
    const q0 = addSegment({}, 'left', { a: [0, 0, 0], b: [0, 1.6, 0], m: [1, 0.8, 0.1] });
    const offer = nextSegment(q0, 'left');
    expect(offer).toEqual({ a: [1, 0, 0.1], b: [1, 1.6, 0.1], m: [2, 0.8, 0.2] });
    // Whatever a and b are typed, the row keeps its shared points.
    const q1 = addSegment(q0, 'left', { a: [9, 9, 9], b: [8, 8, 8], m: [2, 0.8, 0] });
    expect(q1.left[1]).toEqual({ a: [1, 0, 0.1], b: [1, 1.6, 0.1], m: [2, 0.8, 0] });
    expect(q1.right).toBeUndefined();
    expect(q0.left).toHaveLength(1);  // nothing mutated
  });

  test('moving m moves the next segment start; moving the first a re-chains the row; removal joins the rest', () => {
    const rows = bumpyRows();
    const moved = setPoint(rows, 'left', 1, 'm', [2.2, 0.9, 0.5]);
    expect(moved.left[2].a).toEqual(farSide(moved.left[1]).a);
    expect(moved.left[2].b).toEqual(farSide(moved.left[1]).b);
    // Only the segment after changes (the one after that to rounding: b − a is recomputed).
    for (const key of ['a', 'b', 'm']) moved.left[3][key].forEach((v, k) => expect(v).toBeCloseTo(rows.left[3][key][k], 14));
    const turned = setPoint(rows, 'left', 0, 'a', [0, 0.1, 0.1]);
    for (let i = 1; i < 4; i++) expect(turned.left[i].a).toEqual(farSide(turned.left[i - 1]).a);
    expect(inspect(scenarioWith(turned)).ok).toBe(true);
    expect(() => setPoint(rows, 'left', 2, 'a', [0, 0, 0])).toThrow(/shared point/);
    const removed = removeSegment(rows, 'left', 1);
    expect(removed.left).toHaveLength(3);
    expect(removed.left[1].a).toEqual(farSide(removed.left[0]).a);
    expect(inspect(scenarioWith(removed)).ok).toBe(true);
    expect(rechain(rows.left)).toEqual(rows.left);
  });
});

describe('Track1', () => {
  test('nodes lie on the intersection line of adjacent left-row planes, at the middle of each edge', () => {
    const result = inspect(scenarioWith(bumpyRows()));
    expect(result.track1).toHaveLength(5);
    result.track1.forEach((node, i) => {
      // Inner nodes are on both planes: the line is their intersection.
      for (const q of [result.quads.left[i - 1], result.quads.left[i]].filter(Boolean))
        expect(Math.abs(dot(q.normal, node.point) - q.offset)).toBeLessThan(1e-12);
      expect(norm(sub(node.point, node.linePoint))).toBeCloseTo(node.edgeLength / 2, 12);
    });
  });

  test('setting one coordinate moves the node along its line; the other two follow', () => {
    const s = scenarioWith(bumpyRows());
    const lines = inspect(s).track1;
    for (const [index, axis, value] of [[2, 1, 1.1], [2, 2, 0.3], [3, 1, 0.3], [0, 1, 1.5]]) {
      const moved = core.moveTrack1Node(JSON.stringify(s), index, axis, value);
      expect(moved.ok).toBe(true);
      expect(moved.point[axis]).toBe(value);  // exactly as typed
      const line = lines[index];
      const off = sub(moved.point, line.linePoint);
      // On the line: no component across it (1e-12 m: the solve divides by a line component ≥ 0.03).
      expect(norm(cross(off, line.lineDir))).toBeLessThan(1e-12);
      // And the scenario with this node is accepted by the validator.
      const nodes = lines.map((n) => n.point);
      nodes[index] = moved.point;
      expect(inspect({ ...s, track1: { nodes } }).ok).toBe(true);
    }
  });

  test('a value that would leave the left row, a perpendicular axis and bad indices are refused with a message', () => {
    const s = JSON.stringify(scenarioWith(bumpyRows()));
    const off = core.moveTrack1Node(s, 2, 1, 2.5);
    expect(off.ok).toBe(false);
    expect(off.issues[0]).toEqual({ path: 'track1.nodes[2].y', message: expect.stringMatching(/off the left row; on its edge y runs from 0.1 to 1.7 m/) });
    // The first edge runs across at x = 0: x cannot change along it.
    const perpendicular = core.moveTrack1Node(s, 0, 0, 0.5);
    expect(perpendicular.issues[0].path).toBe('track1.nodes[0].x');
    expect(perpendicular.issues[0].message).toMatch(/perpendicular to the x axis/);
    expect(core.moveTrack1Node(s, 9, 0, 0).issues[0].message).toMatch(/has no node 9/);
    expect(core.moveTrack1Node(s, 1, 1, NaN).issues[0].message).toMatch(/not finite/);
    // A node placed off the row in a file is refused too.
    const nodes = inspect(JSON.parse(s)).track1.map((n) => n.point);
    nodes[1] = [1, 2.0, nodes[1][2]];
    const bad = inspect({ ...JSON.parse(s), track1: { nodes } });
    expect(bad.issues.map((i) => i.path)).toContain('track1.nodes[1]');
  });

  test('moved nodes keep their place along their edges when the left row changes', () => {
    const before = scenarioWith(bumpyRows());
    const lines = inspect(before).track1;
    const nodes = lines.map((n) => n.point);
    // Node 2's edge runs from y = 0.1 to 1.7: y = 1.2 is 1.1/1.6 of the way.
    nodes[2] = core.moveTrack1Node(JSON.stringify(before), 2, 1, 1.2).point;
    before.track1 = { nodes };
    const after = structuredClone(before);
    after.terrain.quads = setPoint(after.terrain.quads, 'left', 1, 'm', [2.1, 0.9, 0.6]);
    const refit = refitTrack1(core, before, after);
    const result = inspect(refit);
    expect(result.ok).toBe(true);
    const line = result.track1[2];
    expect(dot(sub(refit.track1.nodes[2], line.linePoint), line.lineDir) / line.edgeLength).toBeCloseTo(1.1 / 1.6, 12);
    // One segment more: one node more, at the default fraction.
    const longer = structuredClone(refit);
    longer.terrain.quads = addSegment(longer.terrain.quads, 'left', nextSegment(longer.terrain.quads, 'left'));
    expect(refitTrack1(core, refit, longer).track1.nodes).toHaveLength(6);
  });
});

describe('undo history and autosave', () => {
  /** An in-memory Storage (the browser tests use the real localStorage). */
  const memoryStorage = () => {
    const items = new Map();
    return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), items };
  };
  const depression = JSON.parse(readFileSync(path.join(root, 'terrains/depression-rocker8.json'), 'utf8'));

  test('edits undo and redo; a new edit clears the redo list; nothing changes on a no-op', () => {
    const doc = new EditorDocument(depression);
    const seen = [];
    doc.onChange((s, info) => seen.push(info.kind));
    doc.edit('raise', (s) => {
      s.terrain.quads.right[7].m[2] = 0.1;
      return s;
    });
    doc.edit('nothing', (s) => s);
    expect(doc.undoStack).toHaveLength(1);
    doc.undo();
    expect(doc.scenario).toEqual(depression);
    doc.redo();
    expect(doc.scenario.terrain.quads.right[7].m[2]).toBe(0.1);
    doc.undo();
    doc.replace('other', { ...depression, name: 'x' });
    expect(doc.canRedo).toBe(false);
    expect(seen).toEqual(['edit', 'undo', 'redo', 'undo', 'edit']);
  });

  test('a change recorded a moment later (a large import) is recorded first by an undo, an edit or the autosave', () => {
    const imported = { ...depression, name: 'imported' };
    const deferred = (doc) => doc.deferRecord(() => doc.replace('import big.png', imported, { restart: true, loaded: true }));
    // Undo at once: the import is recorded, then undone; redo brings it back.
    let doc = new EditorDocument(depression);
    doc.edit('rename', (s) => ({ ...s, name: 'renamed' }));
    deferred(doc);
    expect(doc.canUndo).toBe(true);
    doc.undo();
    expect(doc.scenario.name).toBe('renamed');
    expect(doc.undoStack.map((c) => c.label)).toEqual(['rename']);
    doc.redo();
    expect(doc.scenario.name).toBe('imported');
    // Its moment comes: recorded once, however often the recorder is called.
    doc = new EditorDocument(depression);
    const recordNow = deferred(doc);
    recordNow();
    recordNow();
    expect(doc.undoStack.map((c) => c.label)).toEqual(['import big.png']);
    // An edit before then: the import first, then the edit, two undo steps.
    doc = new EditorDocument(depression);
    deferred(doc);
    doc.edit('rename', (s) => ({ ...s, description: 'edited' }));
    expect(doc.undoStack.map((c) => c.label)).toEqual(['import big.png', 'rename']);
    expect(doc.scenario.name).toBe('imported');
    // The autosave (page hide) before then holds the import.
    const storage = memoryStorage();
    doc = new EditorDocument(depression, { storage });
    deferred(doc);
    doc.saveNow();
    expect(EditorDocument.restore(storage).scenario.name).toBe('imported');
  });

  test('one drag of many moves is one undo step; a cancelled drag leaves nothing', () => {
    const doc = new EditorDocument(depression);
    doc.beginDrag();
    for (let k = 1; k <= 20; k++)
      doc.edit('drag', (s) => {
        s.terrain.quads = setPoint(s.terrain.quads, 'right', 3, 'm', [4, -0.8, -0.25 - k * 0.01]);
        return s;
      });
    doc.endDrag('drag right[3].m');
    expect(doc.undoStack).toHaveLength(1);
    expect(doc.scenario.terrain.quads.right[3].m[2]).toBeCloseTo(-0.45, 12);
    doc.undo();
    expect(doc.scenario).toEqual(depression);
    doc.beginDrag();
    doc.edit('drag', (s) => ({ ...s, name: 'moved' }));
    doc.cancelDrag();
    expect(doc.scenario).toEqual(depression);
    expect(doc.undoStack).toHaveLength(0);
  });

  test('the autosave holds the latest scenario and restores it; unreadable saves are ignored', async () => {
    const storage = memoryStorage();
    const doc = new EditorDocument(depression, { storage, delayMs: 10 });
    doc.replace('rename', { ...depression, name: 'mine' });
    doc.replace('rename', { ...depression, name: 'mine too' });
    await new Promise((r) => setTimeout(r, 50));
    const saved = EditorDocument.restore(storage);
    expect(saved.scenario.name).toBe('mine too');
    expect(saved.savedAt).toBeGreaterThan(0);
    storage.setItem(AUTOSAVE_KEY, '{not json');
    expect(EditorDocument.restore(storage)).toBeNull();
    expect(EditorDocument.restore(null)).toBeNull();
  });

  test('the autosave keeps the undo history: after a reload, Undo and Redo go on', () => {
    const storage = memoryStorage();
    const doc = new EditorDocument(depression, { storage });
    doc.replace('rename', { ...depression, name: 'one' });
    doc.replace('rename', { ...depression, name: 'two' });
    doc.undo();
    doc.saveNow();
    const saved = EditorDocument.restore(storage);
    const again = new EditorDocument(saved.scenario, { storage, history: saved.history });
    expect(again.scenario.name).toBe('one');
    again.undo();
    expect(again.scenario).toEqual(depression);
    again.redo();
    again.redo();
    expect(again.scenario.name).toBe('two');
    // A history of another shape is dropped, not trusted.
    expect(new EditorDocument(depression, { history: { undo: [{ label: 1 }], redo: 'x' } }).canUndo).toBe(false);
  });

  test('a history too large for the browser storage keeps its newest steps', () => {
    const storage = memoryStorage();
    const doc = new EditorDocument(depression, { storage });
    // Each step holds two ~0.3 MB scenarios: only the newest few fit in 2 MB.
    const big = (k) => ({ ...depression, name: `big ${k}`, description: 'x'.repeat(300_000) });
    for (let k = 0; k < 10; k++) doc.replace('big', big(k));
    doc.saveNow();
    const text = storage.getItem(AUTOSAVE_KEY);
    expect(text.length).toBeLessThan(2_100_000);
    const { history, scenario } = EditorDocument.restore(storage);
    expect(scenario.name).toBe('big 9');
    expect(history.undo.length).toBeGreaterThan(0);
    expect(history.undo.length).toBeLessThan(10);
    expect(history.undo.at(-1).after.name).toBe('big 9');  // the newest step kept
  });
});

describe('edits shared by the panel and the 3-D view', () => {
  const depression = JSON.parse(readFileSync(path.join(root, 'terrains/depression-rocker8.json'), 'utf8'));
  const WIDTH = 800;
  const HEIGHT = 600;

  /** The depression terrain with Track1's node 2 placed by hand (y = 1.2 instead of the edge's middle). */
  function withPlacedNode() {
    const s = structuredClone(depression);
    const nodes = inspect(s).track1.map((n) => n.point);
    nodes[2] = core.moveTrack1Node(JSON.stringify(s), 2, 1, 1.2).point;
    s.track1 = { nodes };
    return s;
  }

  /** The depression terrain with the rough field (its heightmap and rocks) placed beyond the rows, from x = 8.5 m. */
  function besideField() {
    const s = structuredClone(depression);
    const { terrain } = getTemplate('rough-field').build(defaultValues('rough-field'));
    const [dx, dy] = [8.5 - terrain.heightmaps[0].origin[0], -1.5 - terrain.heightmaps[0].origin[1]];
    s.terrain.materials = { ...s.terrain.materials, field: terrain.materials.soil };  // the depression's own soil stays
    s.terrain.heightmaps = [{ ...terrain.heightmaps[0], origin: [8.5, -1.5], material: 'field' }];
    s.terrain.hulls = terrain.hulls.map((h) => ({ ...h, points: h.points.map(([x, y, z]) => [x + dx, y + dy, z]) }));
    return s;
  }

  /** The editor's 3-D view on a stage without a renderer: a camera above the rows, a canvas of WIDTH × HEIGHT px. */
  function headlessView(commands) {
    const canvas = Object.assign(new EventTarget(), {
      style: {},
      getBoundingClientRect: () => ({ left: 0, top: 0, width: WIDTH, height: HEIGHT }),
      setPointerCapture() {},
      releasePointerCapture() {},
    });
    const camera = new THREE.PerspectiveCamera(45, WIDTH / HEIGHT, 0.01, 100);
    camera.up.set(0, 0, 1);
    camera.position.set(3, -4, 7);
    camera.lookAt(3, 0.5, 0);
    camera.updateMatrixWorld();
    const stage = { scene: new THREE.Scene(), camera, controls: { enabled: true }, renderer: { domElement: canvas } };
    vi.stubGlobal('window', new EventTarget());  // the view listens for Escape on the window
    try {
      const view = new EditorView(stage, commands);
      view.setVisible(true);
      return view;
    } finally {
      vi.unstubAllGlobals();
    }
  }

  /** A pointer event at the page position of world point p. */
  function pointerAt(camera, p) {
    const v = new THREE.Vector3(...p).project(camera);
    return {
      clientX: ((v.x + 1) / 2) * WIDTH,
      clientY: ((1 - v.y) / 2) * HEIGHT,
      button: 0,
      pointerId: 1,
      shiftKey: false,
      preventDefault() {},
      stopImmediatePropagation() {},
    };
  }

  test('dragging a quad point gives the same document as typing it, Track1 refit included, in one undo step', () => {
    const start = withPlacedNode();
    // Dragged: m of the left row's segment 1 (the far edge of quad 1 holds node 2) in eight moves.
    const dragged = new EditorDocument(start);
    const view = headlessView(new EditorCommands(dragged, core));
    view.update(dragged.scenario, inspect(dragged.scenario));
    view.stage.scene.updateMatrixWorld();
    const m = start.terrain.quads.left[1].m;
    const target = [m[0] + 0.4, m[1] + 0.3, m[2]];  // away from the right row: the terrain stays valid
    view.pointerDown(pointerAt(view.stage.camera, m));
    expect(view.drag?.handle).toMatchObject({ side: 'left', index: 1, key: 'm' });
    for (let k = 1; k <= 8; k++) view.pointerMove(pointerAt(view.stage.camera, m.map((v, i) => v + ((target[i] - v) * k) / 8)));
    view.pointerUp(pointerAt(view.stage.camera, target));
    const moved = dragged.scenario.terrain.quads.left[1].m;
    expect(moved[0]).toBeCloseTo(target[0], 1);
    expect(moved[1]).toBeCloseTo(target[1], 1);
    expect(dragged.undoStack).toHaveLength(1);

    // Typed: the same point into the panel's field.
    const typed = new EditorDocument(start);
    const panel = new EditorPanel(null, { doc: typed, core, commands: new EditorCommands(typed, core) });
    panel.render = () => {};  // no page here: the panel's fields are not drawn
    panel.setQuadPoint('left', 1, 'm', moved.join(' '));
    expect(typed.undoStack).toHaveLength(1);

    expect(dragged.scenario).toEqual(typed.scenario);
    expect(inspect(dragged.scenario).ok).toBe(true);
    // Track1 was refit: node 2 kept its place along its (moved) edge, not its old coordinates.
    const fraction = (scenario) => {
      const line = inspect(scenario).track1[2];
      return dot(sub(scenario.track1.nodes[2], line.linePoint), line.lineDir) / line.edgeLength;
    };
    expect(dragged.scenario.track1.nodes[2]).not.toEqual(start.track1.nodes[2]);
    expect(fraction(dragged.scenario)).toBeCloseTo(fraction(start), 12);
    expect(fraction(start)).not.toBeCloseTo(0.5, 3);  // a node placed by hand, not the default
    dragged.undo();
    expect(dragged.scenario).toEqual(start);
  });
  test('beside a heightmap: quad rows, planes and Track1 as without it, and the field in the terrain the view draws', () => {
    const plain = inspect(depression);
    const mixed = inspect(besideField());
    expect(mixed.issues).toEqual([]);
    expect(mixed.quads).toEqual(plain.quads);
    expect(mixed.track1).toEqual(plain.track1);
    expect(mixed.terrain.heightmaps).toHaveLength(1);
    expect(mixed.terrain.heightmaps[0]).toMatchObject({ nx: 121, ny: 61 });
    expect(mixed.terrain.pieces).toHaveLength(plain.terrain.pieces.length + 6);  // the 16 quads and 6 rocks
    expect(mixed.terrain.box.max[0]).toBeCloseTo(14.5, 9);  // the field ends 6 m beyond x = 8.5
  });

  test('beside a heightmap: typed and dragged quad edits, Track1 node moves and its fraction leave the field alone, one undo step each', () => {
    const start = besideField();
    start.track1 = { nodes: inspect(start).track1.map((n) => n.point) };
    const doc = new EditorDocument(start);
    const commands = new EditorCommands(doc, core);
    const field = () => ({ heightmaps: doc.scenario.terrain.heightmaps, hulls: doc.scenario.terrain.hulls });
    const before = structuredClone(field());

    // A Track1 node placed by hand, then a quad edit it follows.
    expect(commands.moveTrack1Node(2, 1, 1.2, doc.scenario.track1.nodes)).toEqual({ ok: true });  // 1.2 of 1.6 m along its edge
    const panel = new EditorPanel(null, { doc, core, commands });
    panel.render = () => {};
    panel.setQuadPoint('left', 1, 'm', '2.1 0.9 0.2');
    const result = inspect(doc.scenario);
    expect(result.issues).toEqual([]);
    const line = result.track1[2];
    expect(dot(sub(doc.scenario.track1.nodes[2], line.linePoint), line.lineDir) / line.edgeLength).toBeCloseTo(1.2 / 1.6, 12);
    expect(doc.scenario.track1.nodes[2]).not.toEqual(start.track1.nodes[2]);

    // A drag of a right-row far midpoint in the 3-D view.
    const view = headlessView(commands);
    view.update(doc.scenario, inspect(doc.scenario));
    view.stage.scene.updateMatrixWorld();
    const m = doc.scenario.terrain.quads.right[3].m;
    view.pointerDown(pointerAt(view.stage.camera, m));
    expect(view.drag?.handle).toMatchObject({ side: 'right', index: 3, key: 'm' });
    for (let k = 1; k <= 4; k++) view.pointerMove(pointerAt(view.stage.camera, [m[0] + 0.05 * k, m[1] - 0.05 * k, m[2]]));
    view.pointerUp(pointerAt(view.stage.camera, [m[0] + 0.2, m[1] - 0.2, m[2]]));
    expect(doc.scenario.terrain.quads.right[3].m).not.toEqual(m);
    expect(inspect(doc.scenario).issues).toEqual([]);

    commands.setTrack1Lateral(0.3);
    expect(inspect(doc.scenario).track1[4].point[1]).toBeCloseTo(0.3 * 1.6, 12);
    expect(doc.undoStack).toHaveLength(4);
    expect(field()).toEqual(before);
    for (let k = 0; k < 4; k++) doc.undo();
    expect(doc.scenario).toEqual(start);
  });
});

describe('template values in the panel', () => {
  const flat = JSON.parse(readFileSync(path.join(root, 'terrains/flat-rocker8.json'), 'utf8'));
  const field = getTemplate('rough-field');

  /** The panel on a document (no page: its fields are not drawn), inspecting on every change as the Edit terrain tab does. */
  function panelOn(scenario) {
    const doc = new EditorDocument(scenario);
    const commands = new EditorCommands(doc, core);
    const panel = new EditorPanel(null, { doc, core, commands });
    panel.render = () => {};
    doc.onChange(() => panel.inspect());
    return { doc, commands, panel };
  }

  test('the rough field: each changed value rebuilds it as one undo step; undo and redo bring back the field and the values shown', () => {
    const { doc, panel } = panelOn(flat);
    panel.chooseTemplate('rough-field');
    expect(panel.templateLive).toBe(false);
    panel.setTemplateValue('amplitude', '0.1');  // not applied yet: the value waits for Apply
    expect(doc.undoStack).toHaveLength(0);
    expect(panel.applyTemplate()).toBe(true);
    const values = { ...defaultValues(field), amplitude: 0.1 };
    expect(doc.scenario.terrain).toEqual(field.build(values).terrain);
    expect(doc.scenario.robot).toEqual(flat.robot);  // the robot stays at the start, x = 0 on the field
    expect(panel.inspection.issues).toEqual([]);
    expect(panel.templateLive).toBe(true);

    panel.setTemplateValue('seed', '7');
    panel.setTemplateValue('roughness', '0.8');
    expect(doc.undoStack).toHaveLength(3);
    expect(doc.scenario.terrain).toEqual(field.build({ ...values, seed: 7, roughness: 0.8 }).terrain);
    doc.undo();
    expect(panel.templateValues).toEqual({ ...values, seed: 7 });
    doc.undo();
    expect(panel.templateValues).toEqual(values);
    expect(doc.scenario.terrain).toEqual(field.build(values).terrain);
    doc.redo();
    expect(panel.templateValues.seed).toBe(7);
    // The same seed again: the same field, as a new step.
    panel.setTemplateValue('seed', '1');
    expect(doc.scenario.terrain).toEqual(field.build(values).terrain);
    expect(doc.undoStack).toHaveLength(3);
    doc.undo();
    doc.undo();
    doc.undo();
    expect(doc.scenario).toEqual(flat);
  });

  test('values out of range, values that do not go together and rocks without room are refused at their field; nothing changes', () => {
    const { doc, panel } = panelOn(flat);
    panel.useTemplate('rough-field');
    const applied = structuredClone(doc.scenario);
    const shown = { ...panel.templateValues };
    const refused = (key, text, message) => {
      panel.setTemplateValue(key, text);
      expect(panel.templateDraft).toEqual({ key, text, issues: [expect.objectContaining({ message: expect.stringMatching(message) })], version: doc.version });
      expect(panel.templateValues).toEqual(shown);
      expect(doc.scenario).toEqual(applied);
      expect(doc.undoStack).toHaveLength(1);
    };
    refused('amplitude', '0.9', /must be a number in \[0.01, 0.5\] m, got 0.9/);
    refused('roughness', '-0.1', /must be a number in \[0, 1\]/);
    refused('seed', '2.5', /whole number/);
    refused('cell', '', /must be a number/);
    refused('rock_min', '0.5', /at least the smallest rock's 0.5 m/);
    refused('rocks', '100', /^only \d+ of 100 rocks/);
    panel.setTemplateValue('rocks', '3');  // a good value clears the refusal
    expect(panel.templateDraft).toBeNull();
    expect(doc.scenario.terrain.hulls).toHaveLength(3);
    // Each in range, together too many samples: 40 m at 0.02 m is 2001 × 151.
    panel.setTemplateValue('size_x', '40');
    const large = structuredClone(doc.scenario);
    panel.setTemplateValue('cell', '0.02');
    expect(panel.templateDraft.issues).toEqual([{ key: 'cell', message: expect.stringMatching(/2001 × 151 = 302151 samples, more than 100000/) }]);
    expect(doc.scenario).toEqual(large);
    expect(doc.undoStack).toHaveLength(3);
  });

  test('a value changed after the terrain was edited waits for Apply; choosing the template again shows the values it was made with', () => {
    const { doc, commands, panel } = panelOn(flat);
    panel.useTemplate('rough-field');
    panel.setTemplateValue('amplitude', '0.2');
    expect(commands.templateOf()).toEqual({ id: 'rough-field', values: { ...defaultValues(field), amplitude: 0.2 } });
    panel.chooseTemplate('flat');
    expect(panel.templateValues).toEqual(defaultValues('flat'));
    panel.chooseTemplate('rough-field');
    expect(panel.templateValues.amplitude).toBe(0.2);
    commands.addBlock('boxes', { centre: [3, 0, 0.5], size: [0.4, 0.4, 0.4] });
    expect(commands.templateOf()).toBeNull();
    expect(panel.templateLive).toBe(false);
    const edited = structuredClone(doc.scenario);
    panel.setTemplateValue('amplitude', '0.3');
    expect(doc.scenario).toEqual(edited);
    expect(panel.templateValues.amplitude).toBe(0.3);
    panel.applyTemplate();
    expect(doc.scenario.terrain.boxes).toBeUndefined();
    expect(doc.scenario.terrain.heightmaps[0].heights).toEqual(field.build(panel.templateValues).terrain.heightmaps[0].heights);
  });
});

describe('refused entries and the document version', () => {
  const depression = JSON.parse(readFileSync(path.join(root, 'terrains/depression-rocker8.json'), 'utf8'));

  /** The panel on a document, inspecting on every change as the Edit terrain tab does (no page: nothing drawn). */
  function panelOn(scenario) {
    const doc = new EditorDocument(scenario);
    const commands = new EditorCommands(doc, core);
    const panel = new EditorPanel(null, { doc, core, commands });
    panel.render = () => {};
    doc.onChange(() => panel.inspect());
    panel.inspect();
    return { doc, commands, panel };
  }
  const path4 = 'terrain.quads.right[4].m';

  test('every change the document hears is a new version; a no-op edit is none', () => {
    const { doc, commands } = panelOn(depression);
    expect(doc.version).toBe(0);
    commands.setPose('yaw', 0.1);
    expect(doc.version).toBe(1);
    commands.setPose('yaw', 0.1);
    expect(doc.version).toBe(1);
    doc.undo();
    doc.redo();
    expect(doc.version).toBe(3);
  });

  test('a refused entry shows its text until the document changes: an edit, undo, redo or template drops it', () => {
    const { doc, commands, panel } = panelOn(depression);
    const typo = () => {
      panel.setQuadPoint('right', 4, 'm', '5 -0.8 abc');
      expect(panel.valid).toBe(false);
      expect(panel.shownText(path4, '5 -0.8 -0.25')).toBe('5 -0.8 abc');
      expect([...panel.currentErrors()]).toEqual([[path4, { message: "z = 'abc' is not a number", text: '5 -0.8 abc', version: doc.version }]]);
    };
    typo();
    panel.setQuadPoint('right', 4, 'm', '5 -0.8 -0.25');  // the value it had: no change, no error
    expect(panel.valid).toBe(true);
    expect(doc.undoStack).toHaveLength(0);

    commands.setPose('yaw', 0.1);
    typo();
    doc.undo();
    expect(panel.valid).toBe(true);
    expect(panel.shownText(path4, '5 -0.8 -0.25')).toBe('5 -0.8 -0.25');
    typo();
    doc.redo();
    expect(panel.valid).toBe(true);
    typo();
    panel.useTemplate('flat');
    expect(panel.valid).toBe(true);
    expect(panel.fieldErrors.size).toBe(0);
  });

  test('a refused Track1 node value and a refused template value are dropped with the version they were made at', () => {
    const { commands, panel } = panelOn(depression);
    panel.moveNode(3, 1, 'far');
    expect(panel.current(panel.nodeMessage)?.text).toBe("'far' is not a number");
    panel.chooseTemplate('depression');
    panel.setTemplateValue('depth', '5');
    expect(panel.current(panel.templateDraft)?.key).toBe('depth');
    commands.setPose('yaw', 0.2);
    expect(panel.current(panel.nodeMessage)).toBeNull();
    expect(panel.current(panel.templateDraft)).toBeNull();
  });
});
