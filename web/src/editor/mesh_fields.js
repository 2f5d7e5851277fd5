// The editor's form for a mesh of the scenario (the only one, or the one
// picked): where its OBJ file is placed, with the scenario's own fields
// (docs/scenario-format.md, "Mesh"), which the core applies when it builds the
// scenario: the offset [x, y, z] (m), a uniform scale (m per file unit), the
// yaw (typed in degrees, saved in radians) and the file's up axis (z, or y as
// many modelling tools write). The mesh's text is left as it is. Apply checks
// what was typed and builds the changed scenario in the worker as a load does
// (editor/built_form.js); only if it is valid it becomes the document's, one
// undo step, and the robot restarts on it. The robot moves with the mesh: it
// keeps its place over the same point of the file's ground plane (its height
// found again, lowered onto the ground); when the up axis changes, that plane
// is another, so the robot is put where an import puts it, 1 m inside the
// placed vertices' west end and half-way across (the outermost 0.5 % aside).
import { objBounds, withImportUp } from '../import/mesh_import.js';
import { BuiltForm, el, numbers, short } from './built_form.js';

/** What the form accepts: the core's bounds on scale (m per file unit), and the page's on offset and yaw. */
export const MESH_LIMITS = {
  plan: 1e6,            // |offset x|, |offset y| (m)
  height: 1e5,          // |offset z| (m): heights the core takes
  scale: [1e-6, 1e6],   // m per file unit (core/scenario/mesh_reader.cpp)
  yawDegrees: 360,      // |yaw| (deg)
};

const DEGREE = Math.PI / 180;
const round = (v) => Math.round(v * 1e9) / 1e9 + 0;  // no float dust (1e-9 m) in the saved scenario

/** A mesh's placement with the core's defaults: { offset: [x, y, z], scale: [sx, sy, sz], yaw (rad), up }. */
export function placementOf(mesh) {
  const [x = 0, y = 0, z = 0] = mesh.offset ?? [];
  const scale = Array.isArray(mesh.scale) ? mesh.scale : Array(3).fill(mesh.scale ?? 1);
  return { offset: [x, y, z], scale, yaw: mesh.yaw ?? 0, up: mesh.up ?? 'z' };
}

/** The map of a file vertex [x, y, z] to where the core places it (core/scenario/mesh_reader.cpp). */
export function placeVertex(mesh) {
  const { offset, scale, yaw, up } = placementOf(mesh);
  const [c, s] = [Math.cos(yaw), Math.sin(yaw)];
  return ([x, y, z]) => {
    // A y-up file's (x, y, z) is the ground plane's (x, −z) and height y.
    const [u, v, h] = (up === 'y' ? [x, -z, y] : [x, y, z]).map((w, k) => w * scale[k]);
    return [offset[0] + c * u - s * v, offset[1] + s * u + c * v, offset[2] + h];
  };
}

/** Ground point [x, y] → the same point in the file's ground plane, scaled (placeVertex's plan part, inverted). */
function toFilePlan(mesh, [x, y]) {
  const { offset, scale, yaw } = placementOf(mesh);
  const [c, s] = [Math.cos(yaw), Math.sin(yaw)];
  const [dx, dy] = [x - offset[0], y - offset[1]];
  return [(c * dx + s * dy) / scale[0], (-s * dx + c * dy) / scale[1]];
}

/** The form's texts for `mesh`: offset "x y z", scale "s" (or "sx sy sz"), yaw in degrees, up 'z' or 'y'. */
export function meshTexts(mesh) {
  const { offset, scale, yaw, up } = placementOf(mesh);
  const uniform = scale.every((k) => k === scale[0]);
  return { offset: offset.map(short).join(' '), scale: uniform ? short(scale[0]) : scale.map(short).join(' '), yaw: short(yaw / DEGREE), up };
}

/**
 * Reads the form's texts for `mesh`: { ok: true, offset, scale, yaw, up } (a text the same as in
 * `shown`, the texts the form was filled with, keeps its exact value), or { ok: false, key, message }.
 */
export function readMeshTexts(texts, shown, mesh) {
  const fail = (key, message) => ({ ok: false, key, message });
  const { plan, height, scale: [scaleMin, scaleMax], yawDegrees } = MESH_LIMITS;
  let { offset, scale, yaw } = placementOf(mesh);
  if (texts.offset.trim() !== shown.offset) {
    const v = numbers(texts.offset);
    if (!v || v.length < 2 || v.length > 3) return fail('offset', `offset: type x, y and z in metres, as "1 -0.5 0"; got "${texts.offset}"`);
    const [x, y, z = 0] = v;
    if (Math.abs(x) > plan || Math.abs(y) > plan) return fail('offset', `offset: x and y must lie in [-1e6, 1e6] m; got "${texts.offset}"`);
    if (Math.abs(z) > height) return fail('offset', `offset: z must lie in [-1e5, 1e5] m; got ${z}`);
    offset = [x, y, z];
  }
  if (texts.scale.trim() !== shown.scale) {
    const v = numbers(texts.scale);
    if (!v || v.length !== 1) return fail('scale', `scale: type one number of metres per file unit, as "0.01" for a file in cm; got "${texts.scale}"`);
    if (!(v[0] >= scaleMin && v[0] <= scaleMax)) return fail('scale', `scale: must be in [${scaleMin}, ${scaleMax}] m per file unit; got ${v[0]}`);
    scale = [v[0], v[0], v[0]];
  }
  if (texts.yaw.trim() !== shown.yaw) {
    const v = numbers(texts.yaw);
    if (!v || v.length !== 1) return fail('yaw', `yaw: type one angle in degrees, as "90"; got "${texts.yaw}"`);
    if (Math.abs(v[0]) > yawDegrees) return fail('yaw', `yaw: must be in [-${yawDegrees}, ${yawDegrees}]°; got ${v[0]}`);
    yaw = v[0] * DEGREE;
  }
  return { ok: true, offset, scale, yaw, up: texts.up };
}

/** The scenario with mesh `index` placed by `values` (from readMeshTexts) and the robot moved with it
 * (see the top of this file). The input is not changed. */
export function scenarioWithPlacement(scenario, index, values) {
  const out = structuredClone(scenario);
  const mesh = out.terrain.meshes[index];
  const before = { ...mesh };
  mesh.offset = values.offset.map(round);
  const uniform = values.scale.every((k) => k === values.scale[0]);
  if (mesh.scale !== undefined || !uniform || values.scale[0] !== 1) mesh.scale = uniform ? values.scale[0] : values.scale;
  if (mesh.yaw !== undefined || values.yaw !== 0) mesh.yaw = values.yaw;
  if (mesh.up !== undefined || values.up !== 'z') mesh.up = values.up;
  if (out.description !== undefined) out.description = withImportUp(out.description, values.up);
  const pose = (out.robot.pose ??= {});
  let position;
  if (placementOf(before).up === values.up) {
    const [u, v] = toFilePlan(before, pose.position ?? [0, 0]);
    position = placeVertex(mesh)(values.up === 'y' ? [u, 0, -v] : [u, v, 0]).slice(0, 2);
  } else {
    const { low, high } = objBounds(mesh.obj, placeVertex(mesh));
    position = [low[0] + 1, (low[1] + high[1]) / 2];
  }
  pose.position = position.map(round);
  return out;
}

/** The form in the editor tab; render(scenario) returns its element, the same one every time. */
export class MeshFields extends BuiltForm {
  /** @param {{ doc, client }} deps  the editor's document and the worker's client (sim_client.js) */
  constructor(deps) {
    const up = el('select', { id: 'mesh-up', title: 'The file\'s up axis: z, or y as many modelling tools write (its −z then runs along the ground\'s y)' });
    up.append(el('option', { value: 'z', textContent: 'z' }), el('option', { value: 'y', textContent: 'y' }));
    super(deps, 'mesh', {
      offset: el('input', { type: 'text', id: 'mesh-offset', className: 'point', title: 'x y z (m) where the file\'s origin is placed' }),
      scale: el('input', { type: 'text', id: 'mesh-scale', className: 'num', title: `metres per file unit, ${MESH_LIMITS.scale[0]} … ${MESH_LIMITS.scale[1]} (0.01 for a file in cm)` }),
      yaw: el('input', { type: 'text', id: 'mesh-yaw', className: 'num', title: 'turn about +z (degrees), counter-clockwise seen from above' }),
      up,
    });
    this.index = 0;
    this.shownKey = null;
    this.shown = null;
    this.picker = el('select', { id: 'mesh-index', title: 'Which mesh of the terrain' });
    this.picker.addEventListener('change', () => {
      this.index = Number(this.picker.value);
      this.render(this.doc.scenario);
    });
    this.pickerLabel = el('label', {}, 'mesh ', this.picker);
    this.note = el('p', { className: 'note', id: 'mesh-note' });
    const label = (text, input, unit) => el('label', {}, text, input, unit);
    this.element = el(
      'section',
      { className: 'editor-block', id: 'mesh-fields', hidden: true },
      el('h3', {}, 'Mesh'),
      this.note,
      el(
        'div',
        { className: 'addrow' },
        this.pickerLabel,
        label('offset ', this.inputs.offset, ' m'),
        label('scale ', this.inputs.scale, ' m/unit'),
        label('yaw ', this.inputs.yaw, ' °'),
        label('up ', this.inputs.up, ''),
        this.apply,
      ),
      this.message,
      this.status,
    );
  }

  /** The form for `scenario`'s meshes (hidden when it has none); keeps what was typed while the mesh's
   * placement is unchanged and no message or status said about an older document shows. */
  render(scenario) {
    if (this.dropStale()) this.shownKey = null;
    const meshes = Array.isArray(scenario?.terrain?.meshes) ? scenario.terrain.meshes : [];
    this.element.hidden = meshes.length === 0;
    if (!meshes.length) return this.element;
    this.index = Math.min(this.index, meshes.length - 1);
    const mesh = meshes[this.index] ?? {};
    const { obj, ...rest } = mesh;
    const key = JSON.stringify([this.index, meshes.length, rest, obj?.length]);
    if (key === this.shownKey) return this.element;
    this.shownKey = key;
    this.picker.replaceChildren(...meshes.map((_, i) => el('option', { value: String(i), textContent: `[${i}]`, selected: i === this.index })));
    this.pickerLabel.hidden = meshes.length < 2;
    const editable = typeof obj === 'string';
    for (const input of Object.values(this.inputs)) input.disabled = !editable;
    this.apply.disabled = !editable || this.pending;
    if (!this.pending) this.say();
    if (!editable) {
      this.shown = null;
      this.note.textContent = 'Its OBJ file lies beside the scenario, which only the command-line tool reads.';
      return this.element;
    }
    this.shown = meshTexts(mesh);
    for (const [k, input] of Object.entries(this.inputs)) input.value = this.shown[k];
    this.note.textContent =
      'A file vertex is placed at offset + yaw · (scale × vertex), its up axis the height. ' +
      'Apply rebuilds the terrain and restarts the robot on it, over the same point of the mesh.';
    return this.element;
  }

  /** Checks the form, builds the scenario in the worker and, if valid, makes it the document's (one undo step). */
  submit() {
    if (this.pending || !this.shown) return;
    const scenario = this.doc.scenario;
    const index = this.index;
    const mesh = scenario.terrain.meshes[index];
    const texts = Object.fromEntries(Object.entries(this.inputs).map(([k, input]) => [k, input.value]));
    const read = readMeshTexts(texts, this.shown, mesh);
    if (!read.ok) return this.say(read);
    const next = scenarioWithPlacement(scenario, index, read);
    if (JSON.stringify(next.terrain.meshes[index]) === JSON.stringify(mesh))
      return this.say({ status: 'Nothing to apply: the values are those of the mesh.' });
    this.build(next, `mesh [${index}]: offset, scale, yaw, up`, 'Applied: the robot restarted on the placed mesh (Undo restores the placement before).');
  }
}
