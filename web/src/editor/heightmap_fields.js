// The editor's form for a heightmap of the scenario (the only one, or the one
// picked): its origin [x, y] (m), its cell size (m) and its heights' scale
// (for an image: how far white stands above black, m; for inline heights: the
// factor they are multiplied by). Apply checks what was typed, builds the
// changed scenario in the worker as a load does, and only if it is valid puts
// it in the document (one undo step) and restarts the robot on it. The robot
// moves with the field: it keeps its place over the same point of the grid
// (its height is found again, lowered onto the ground); a robot that stood off
// a field that is the whole terrain is put where an import puts it, 1 m inside
// the west edge, half-way across. Its message and status (editor/built_form.js)
// are about the document's version they were said at, and cleared once it
// changes.
import { BuiltForm, el, numbers, short } from './built_form.js';
import { pngHeader } from '../import/heightmap_import.js';

/** What the core accepts (core/scenario/heightmap_reader.cpp, docs/scenario.schema.json). */
export const FIELD_LIMITS = {
  coordinate: 1e6,     // |origin x|, |origin y| (m)
  cell: [0.001, 1000], // cell size (m)
  scale: 1000,         // |height_scale| (m per grey level, or per metre of inline heights)
  height: 1e5,         // |height| of every sample after scaling (m)
};

const PNG_PREFIX = 'data:image/png;base64,';

/** Width, height and bit depth of an embedded PNG, from the first bytes of its data URL; null if it is none. */
export function dataUrlHeader(png) {
  if (typeof png !== 'string' || !png.startsWith(PNG_PREFIX)) return null;
  try {
    const head = atob(png.slice(PNG_PREFIX.length, PNG_PREFIX.length + 44));  // 33 bytes: signature and IHDR
    return pngHeader(Uint8Array.from(head, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** A heightmap's grid and source: { kind: 'png' | 'heights' | 'file', nx, ny, top (the image's white: 255 or 65535) }, or null when unreadable. */
export function gridOf(field) {
  if (typeof field?.png === 'string') {
    const header = dataUrlHeader(field.png);
    if (!header) return null;
    return { kind: 'png', nx: header.width, ny: header.height, top: header.bits === 16 ? 65535 : 255 };
  }
  if (Array.isArray(field?.heights) && Array.isArray(field.heights[0]))
    return { kind: 'heights', nx: field.heights[0].length, ny: field.heights.length, top: null };
  if (field?.file !== undefined) return { kind: 'file', nx: 0, ny: 0, top: null };
  return null;
}

const cellOf = (field) => (Array.isArray(field.cell) ? field.cell : [field.cell, field.cell]);
const round = (v) => Math.round(v * 1e9) / 1e9;  // no float dust (1e-9 m) in the saved scenario

/** The form's texts for heightmap `field` (grid from gridOf): origin "x y", cell "d" or "dx dy", height. */
export function fieldTexts(field, grid) {
  const origin = field.origin ?? [0, 0];
  const [dx, dy] = cellOf(field);
  const scale = field.height_scale ?? 1;
  return {
    origin: origin.map(short).join(' '),
    cell: dx === dy ? short(dx) : `${short(dx)} ${short(dy)}`,
    height: short(grid.top ? scale * grid.top : scale),
  };
}

/**
 * Reads the form's texts for heightmap `field`: { ok: true, origin, cell, heightScale } (only what
 * differs from `shown`, the texts the form was filled with, is read anew: the rest keeps its exact
 * value), or { ok: false, key ('origin', 'cell' or 'height'), message }.
 */
export function readFieldTexts(texts, shown, field, grid) {
  const fail = (key, message) => ({ ok: false, key, message });
  const { coordinate, cell: [cellMin, cellMax], scale: scaleMax, height: heightMax } = FIELD_LIMITS;
  let origin = field.origin ?? [0, 0];
  if (texts.origin.trim() !== shown.origin) {
    const v = numbers(texts.origin);
    if (!v || v.length < 2 || v.length > 3) return fail('origin', `origin: type x and y in metres, as "-1 -2.5"; got "${texts.origin}"`);
    if (v.some((c) => Math.abs(c) > coordinate)) return fail('origin', `origin: x and y must lie in [-1e6, 1e6] m; got "${texts.origin}"`);
    origin = v;
  }
  let cell = field.cell;
  if (texts.cell.trim() !== shown.cell) {
    const v = numbers(texts.cell);
    if (!v || v.length > 2) return fail('cell', `cell: type the cell size in metres, as "0.05" (or "dx dy"); got "${texts.cell}"`);
    const bad = v.find((c) => !(c >= cellMin && c <= cellMax));
    if (bad !== undefined) return fail('cell', `cell: must be in [${cellMin}, ${cellMax}] m; got ${bad}`);
    cell = v.length === 1 || v[0] === v[1] ? v[0] : v;
  }
  let heightScale = field.height_scale;
  if (texts.height.trim() !== shown.height) {
    const v = numbers(texts.height);
    const what = grid.top ? 'white above black' : 'height scale';
    if (!v || v.length !== 1) return fail('height', `${what}: type one number${grid.top ? ' of metres' : ''}, as "0.5"; got "${texts.height}"`);
    heightScale = grid.top ? v[0] / grid.top : v[0];
    if (Math.abs(heightScale) > scaleMax)
      return fail('height', `${what}: at most ${grid.top ? `${scaleMax * grid.top} m (height_scale ±${scaleMax} m per grey level)` : `±${scaleMax}`}; got ${v[0]}`);
    const offset = field.height_offset ?? 0;
    const [low, high] = grid.top ? [0, grid.top] : rawRange(field.heights);
    const extremes = [offset + heightScale * low, offset + heightScale * high];
    if (extremes.some((z) => !(Math.abs(z) <= heightMax)))
      return fail('height', `${what}: ${v[0]} makes heights up to ${short(Math.max(...extremes.map(Math.abs)))} m; they must lie in [-1e5, 1e5] m`);
  }
  return { ok: true, origin, cell, heightScale };
}

function rawRange(rows) {
  let low = Infinity;
  let high = -Infinity;
  for (const row of rows)
    for (const z of row) {
      if (z < low) low = z;
      if (z > high) high = z;
    }
  return [low, high];
}

/**
 * The scenario with heightmap `index` given `values` (from readFieldTexts) and the robot placed on it
 * (see the top of this file). `grid`: gridOf(the heightmap). The input is not changed.
 */
export function scenarioWithFields(scenario, index, values, grid) {
  const out = structuredClone(scenario);
  const field = out.terrain.heightmaps[index];
  const [ox, oy] = field.origin ?? [0, 0];
  const [dx, dy] = cellOf(field);
  if (field.origin !== undefined || values.origin.some((c) => c !== 0)) field.origin = values.origin.map(round);
  if (values.cell !== undefined) field.cell = values.cell;
  if (values.heightScale !== undefined) field.height_scale = values.heightScale;
  const [px, py] = field.origin ?? [0, 0];
  const [ex, ey] = cellOf(field);
  const pose = (out.robot.pose ??= {});
  const [x, y] = pose.position ?? [0, 0];
  const u = (x - ox) / dx;  // the robot's place in the grid (cells from the origin)
  const v = (y - oy) / dy;
  const t = out.terrain;
  const pieces = (t.quads?.left?.length ?? 0) + (t.quads?.right?.length ?? 0) +
    ['boxes', 'wedges', 'hulls', 'profiles'].reduce((n, k) => n + (t[k]?.length ?? 0), 0);
  if (u >= 0 && u <= grid.nx - 1 && v >= 0 && v <= grid.ny - 1) pose.position = [round(px + u * ex), round(py + v * ey)];
  else if (t.heightmaps.length === 1 && pieces === 0)
    pose.position = [round(px + Math.min(1, ((grid.nx - 1) * ex) / 2)), round(py + ((grid.ny - 1) * ey) / 2)];
  return out;
}

/** The form in the editor tab; render(scenario) returns its element, the same one every time. */
export class HeightmapFields extends BuiltForm {
  /** @param {{ doc, client }} deps  the editor's document and the worker's client (sim_client.js) */
  constructor(deps) {
    super(deps, 'hm', {
      origin: el('input', { type: 'text', id: 'hm-origin', className: 'point', title: 'x y (m) of the sample at the field\'s south-west corner (its bottom-left pixel)' }),
      cell: el('input', { type: 'text', id: 'hm-cell', className: 'num', title: 'sample spacing (m), 0.001 … 1000; "dx dy" for unequal sides' }),
      height: el('input', { type: 'text', id: 'hm-height', className: 'num' }),
    });
    this.index = 0;
    this.shownKey = null;
    this.shown = null;
    this.heightLabel = el('span');
    this.picker = el('select', { id: 'hm-index', title: 'Which heightmap of the terrain' });
    this.picker.addEventListener('change', () => {
      this.index = Number(this.picker.value);
      this.render(this.doc.scenario);
    });
    this.pickerLabel = el('label', {}, 'heightmap ', this.picker);
    this.note = el('p', { className: 'note', id: 'hm-note' });
    const label = (text, input, unit) => el('label', {}, text, input, unit);
    this.element = el(
      'section',
      { className: 'editor-block', id: 'heightmap-fields', hidden: true },
      el('h3', {}, 'Heightmap'),
      this.note,
      el(
        'div',
        { className: 'addrow' },
        this.pickerLabel,
        label('origin ', this.inputs.origin, ' m'),
        label('cell ', this.inputs.cell, ' m'),
        el('label', {}, this.heightLabel, this.inputs.height),
        this.apply,
      ),
      this.message,
      this.status,
    );
  }

  /** The form for `scenario`'s heightmaps (hidden when it has none); keeps what was typed while the
   * heightmap is unchanged and no message or status said about an older document shows. */
  render(scenario) {
    if (this.dropStale()) this.shownKey = null;
    const fields = Array.isArray(scenario?.terrain?.heightmaps) ? scenario.terrain.heightmaps : [];
    this.element.hidden = fields.length === 0;
    if (!fields.length) return this.element;
    this.index = Math.min(this.index, fields.length - 1);
    const field = fields[this.index];
    const grid = gridOf(field);
    const { png, heights, ...rest } = field ?? {};
    const key = JSON.stringify([this.index, fields.length, grid, rest, png?.length ?? heights?.length]);
    if (key === this.shownKey) return this.element;
    this.shownKey = key;
    this.picker.replaceChildren(...fields.map((_, i) => el('option', { value: String(i), textContent: `[${i}]`, selected: i === this.index })));
    this.pickerLabel.hidden = fields.length < 2;
    const editable = grid && grid.kind !== 'file';
    for (const input of Object.values(this.inputs)) input.disabled = !editable;
    this.apply.disabled = !editable || this.pending;
    if (!this.pending) this.say();
    if (!editable) {
      this.shown = null;
      this.note.textContent = grid
        ? 'Its image is a file beside the scenario, which only the command-line tool reads.'
        : 'Its heights are missing or unreadable: see the message above.';
      for (const input of Object.values(this.inputs)) input.value = '';
      return this.element;
    }
    this.shown = fieldTexts(field, grid);
    for (const [k, input] of Object.entries(this.inputs)) input.value = this.shown[k];
    this.heightLabel.textContent = grid.top ? 'white above black ' : 'height scale ';
    this.inputs.height.title = grid.top
      ? `metres from black to white (height_scale × ${grid.top}); negative turns the image upside down`
      : 'factor on the inline heights (height_scale)';
    this.note.textContent =
      `${grid.nx} × ${grid.ny} samples${grid.kind === 'png' ? ` of ${grid.top === 65535 ? 'a 16' : 'an 8'}-bit image` : ''}. ` +
      'Apply rebuilds the terrain and restarts the robot on it, over the same point of the field.';
    return this.element;
  }

  /** Checks the form, builds the scenario in the worker and, if valid, makes it the document's (one undo step). */
  submit() {
    if (this.pending || !this.shown) return;
    const scenario = this.doc.scenario;
    const index = this.index;
    const field = scenario.terrain.heightmaps[index];
    const grid = gridOf(field);
    const texts = Object.fromEntries(Object.entries(this.inputs).map(([k, input]) => [k, input.value]));
    const read = readFieldTexts(texts, this.shown, field, grid);
    if (!read.ok) return this.say(read);
    const next = scenarioWithFields(scenario, index, read, grid);
    if (JSON.stringify(next.terrain.heightmaps[index]) === JSON.stringify(field))
      return this.say({ status: 'Nothing to apply: the values are those of the heightmap.' });
    this.build(next, `heightmap [${index}]: origin, cell, height`, 'Applied: the robot restarted on the rebuilt terrain (Undo restores the values before).');
  }
}
