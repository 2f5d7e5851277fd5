// The terrain editor's edits, shared by the panel (typed) and the 3-D view
// (dragged): each function changes the EditorDocument by one command (one
// undo step), or, during a drag, previews the change (the drag's end makes
// it one command). Values come parsed and checked for form (numbers, points);
// the core validates the result. Quad edits keep Track1's nodes on their
// edges (refitTrack1), whichever way they are made. A template applied is
// remembered with its values, so that the panel knows which template (and
// values) made the terrain on show, after an undo or redo too.
import { addSegment, removeSegment, setPoint } from './quad_rows.js';
import { applyTemplate } from './templates.js';
import { refitTrack1 } from './track1_edit.js';

// Terrains a template made, remembered (as many as the undo history keeps steps).
const TEMPLATE_MEMORY = 200;

/** A short fingerprint of a scenario's terrain and Track1 (cyrb53 of their JSON). */
export function terrainKey(scenario) {
  const text = JSON.stringify([scenario?.terrain ?? null, scenario?.track1 ?? null]);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${text.length}:${(h2 >>> 0).toString(36)}${(h1 >>> 0).toString(36)}`;
}

export class EditorCommands {
  /**
   * @param doc   the EditorDocument
   * @param core  the WASM core (inspectTerrain for Track1's refit, moveTrack1Node)
   */
  constructor(doc, core) {
    this.doc = doc;
    this.core = core;
    this.madeBy = new Map();  // terrainKey → { id, values } of the template that made that terrain
  }

  /** Changes the quad rows: change(quads) returns the new rows; Track1's nodes follow.
   * During a drag every preview starts from the drag's start, so a drag ends
   * where the same change typed once would. */
  editQuads(label, change) {
    const { doc, core } = this;
    doc.edit(label, (s) => {
      const from = doc.dragStart ? structuredClone(doc.dragStart) : s;
      const before = structuredClone(from);
      from.terrain.quads = change(from.terrain.quads ?? {});
      if (!from.terrain.quads.left && !from.terrain.quads.right) delete from.terrain.quads;
      return refitTrack1(core, before, from);
    });
  }

  /** Point `key` ('a', 'b' of the first segment, 'm' of any) of segment i of a row. */
  moveQuadPoint(side, i, key, point, label = `${side}[${i}].${key}`) {
    this.editQuads(label, (q) => setPoint(q, side, i, key, point));
  }

  addSegment(side, points) {
    this.editQuads(`add ${side} segment`, (q) => addSegment(q, side, points));
  }

  removeSegment(side, i) {
    this.editQuads(`remove ${side}[${i}]`, (q) => removeSegment(q, side, i));
  }

  /** Moves Track1 node `index` along its line so that coordinate `axis` is `value`:
   * { ok: true } or { ok: false, issues } (nothing changed). `nodes`: the current nodes' points. */
  moveTrack1Node(index, axis, value, nodes) {
    const moved = this.core.moveTrack1Node(JSON.stringify(this.doc.scenario), index, axis, value);
    if (!moved.ok) return moved;
    const next = [...nodes];
    next[index] = moved.point;
    this.doc.edit(`Track1 node ${index}`, (s) => {
      s.track1 = { ...(s.track1 ?? {}), nodes: next };
      return s;
    });
    return { ok: true };
  }

  /** Regenerates Track1 with every node at fraction `lateral` across its edge. */
  setTrack1Lateral(lateral) {
    this.doc.edit('Track1 lateral', (s) => {
      s.track1 = { lateral };
      return s;
    });
  }

  /** Field `key` of block i of `kind` ('boxes' or 'wedges'). */
  setBlockField(kind, i, key, value) {
    this.doc.edit(`${kind}[${i}].${key}`, (s) => {
      s.terrain[kind][i][key] = value;
      return s;
    });
  }

  addBlock(kind, block) {
    this.doc.edit(`add ${kind === 'boxes' ? 'box' : 'wedge'}`, (s) => {
      s.terrain[kind] = [...(s.terrain[kind] ?? []), block];
      return s;
    });
  }

  removeBlock(kind, i) {
    this.doc.edit(`remove ${kind}[${i}]`, (s) => {
      s.terrain[kind] = s.terrain[kind].filter((_, k) => k !== i);
      if (!s.terrain[kind].length) delete s.terrain[kind];
      return s;
    });
  }

  /** The robot's start: `key` 'position' ([x, y] or [x, y, z]) or 'yaw' (rad). */
  setPose(key, value) {
    this.doc.edit(`robot ${key}`, (s) => {
      s.robot.pose = { ...(s.robot.pose ?? {}), [key]: value };
      return s;
    });
  }

  /** Replaces the terrain by a template's (one undo step); throws the template's
   * TemplateError, changing nothing, for values it refuses. */
  applyTemplate(template, values) {
    const scenario = applyTemplate(this.doc.scenario, template.id, values);
    const key = terrainKey(scenario);
    this.madeBy.delete(key);
    this.madeBy.set(key, { id: template.id, values: { ...values } });
    if (this.madeBy.size > TEMPLATE_MEMORY) this.madeBy.delete(this.madeBy.keys().next().value);
    this.doc.replace(`template ${template.name}`, scenario, { owned: true });
  }

  /** { id, values } of the template that made the terrain and Track1 of `scenario`
   * (the document's by default) as they are, or null (edited since, loaded, …). */
  templateOf(scenario = this.doc.scenario) {
    const made = this.madeBy.get(terrainKey(scenario));
    return made ? { id: made.id, values: { ...made.values } } : null;
  }

  // A drag in the 3-D view: edits until its end are previews, then one command.
  beginDrag() {
    this.doc.beginDrag();
  }

  endDrag(label) {
    this.doc.endDrag(label);
  }

  cancelDrag() {
    this.doc.cancelDrag();
  }
}
