// The terrain editor panel ([KJ2025] §2.4, extended): a template picker, the
// segment tables of the left and right quad rows with each quad's plane
// equation, side vectors, normal and colour, the "Add" form (side, three
// points typed as "x y z"), Track1 with its node update (one coordinate typed,
// the other two follow), blocks (boxes and wedges), and the file, history and
// run buttons. Every change is one of the editor's commands (commands.js,
// shared with the 3-D view), an undoable command of the EditorDocument; the
// core (core.inspectTerrain) computes the geometry and validates, and its
// {path, message} issues are shown at the field they name. Every message the
// panel shows of its own (a refused entry, a Track1 node or template value
// refused) holds the document's version it was made at and is dropped once
// the document changes (an edit, undo, redo, a template, a file): an error is
// shown only beside the text it is about, and never for a newer document. The
// core here runs on the page, for small interactive edits: a terrain beyond
// EDITOR_LIMITS is not inspected nor listed (it would hold up the page), only
// checked by the simulation worker when it runs.
import { formatPoint, nextSegment, parsePoint, SIDES } from './quad_rows.js';
import { defaultValues, TemplateError, templateIssues, TEMPLATES } from './templates.js';

/** The largest terrain the editor inspects and lists on the page: pieces, and bytes of scenario JSON. */
export const EDITOR_LIMITS = { pieces: 500, bytes: 256 * 1024 };

/** How many terrain pieces a scenario describes (a profile counts one per segment of its polyline). */
export function terrainPieces(scenario) {
  const t = scenario?.terrain ?? {};
  const count = (list) => (Array.isArray(list) ? list.length : 0);
  let n = count(t.quads?.left) + count(t.quads?.right) + count(t.boxes) + count(t.wedges) + count(t.hulls);
  for (const p of Array.isArray(t.profiles) ? t.profiles : []) n += Math.max(1, count(p?.points) - 1);
  return n;
}

/** { pieces, bytes, limit } when the scenario is beyond EDITOR_LIMITS, else null. `text`: its JSON, if at hand. */
export function tooLargeForPage(scenario, text = JSON.stringify(scenario)) {
  const pieces = terrainPieces(scenario);
  if (pieces <= EDITOR_LIMITS.pieces && text.length <= EDITOR_LIMITS.bytes) return null;
  return { pieces, bytes: text.length, limit: `${EDITOR_LIMITS.pieces} pieces, ${EDITOR_LIMITS.bytes / 1024} kB` };
}

const SIDE_LABEL = { left: 'Left row (left_plane)', right: 'Right row (right_plane)' };
const fmt = (v, digits = 3) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits);
const hex = (c) => `#${c.toString(16).padStart(6, '0')}`;

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e[k] = v;
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

/** "0.000x + 0.000y + 1.000z = 0.000" */
export function planeEquation(q) {
  const [a, b, c] = q.normal;
  const term = (v, name, first) => `${first ? (v < 0 ? '−' : '') : v < 0 ? ' − ' : ' + '}${fmt(Math.abs(v))}${name}`;
  return `${term(a, 'x', true)}${term(b, 'y')}${term(c, 'z')} = ${fmt(q.offset)}`;
}

export class EditorPanel {
  /**
   * @param {HTMLElement} root
   * @param {{ doc, core, commands, onRun, onShare, onSave, onLoadFile, onLoadImage, onLoadMesh, onLive, onSelectNode, onRender }} deps
   *   doc: EditorDocument; core: the WASM core (inspectTerrain);
   *   commands: the edits (EditorCommands, shared with the 3-D view);
   *   onRun(): restart the simulation on the document's scenario;
   *   onShare(): make a share link; onLive(on): live restart toggled;
   *   onLoadFile(text, name): a scenario file; onLoadImage(file): a PNG as a heightmap; onLoadMesh(file): an OBJ mesh;
   *   sections(): elements the panel shows under its messages (the heightmap and mesh forms), optional;
   *   onRender(): the panel was drawn again (its validity may have changed without a change of the document).
   */
  constructor(root, deps) {
    Object.assign(this, deps);
    this.root = root;
    this.inspection = null;
    this.fieldErrors = new Map();  // path → { message, text, version } of input the core never saw (unparsable text)
    this.selectedNode = 0;
    this.addSide = 'left';
    this.templateId = TEMPLATES[0]?.id;
    this.templateValues = TEMPLATES[0] ? defaultValues(TEMPLATES[0]) : {};
    this.templateDraft = null;  // { key, text, issues, version } of a template value refused, shown at its field
    this.templateFollowed = null;  // 'id:values' of the template that made the terrain, as the section last followed it
    this.nodeMessage = null;  // { text, version } of a Track1 node move refused
    this.nodeAxis = 0;  // the coordinate typed for a Track1 node: 0 x, 1 y, 2 z
    this.templatesOpen = false;  // the template section: render() keeps it as the person left it
    this.live = false;
  }

  /** Geometry and issues of the document's scenario, from the core; for a
   * terrain beyond EDITOR_LIMITS only its size ({ large }), no geometry. */
  inspect() {
    const text = JSON.stringify(this.doc.scenario);
    const large = tooLargeForPage(this.doc.scenario, text);
    this.inspection = large
      ? { ok: true, large, issues: [], quads: { left: [], right: [] }, track1: [], terrain: null }
      : this.core.inspectTerrain(text);
    this.followTemplate();
    return this.inspection;
  }

  /** When the document's terrain changed to one a template made (applied,
   * or brought back by undo or redo), the template section shows that
   * template and the values it was made with. */
  followTemplate() {
    const made = this.commands.templateOf?.(this.doc.scenario) ?? null;
    const key = made ? `${made.id}:${JSON.stringify(made.values)}` : null;
    if (key === this.templateFollowed) return;
    this.templateFollowed = key;
    if (!made) return;
    this.templateId = made.id;
    this.templateValues = made.values;
    this.templateDraft = null;
  }

  /** The terrain on show is the chosen template's, made with the values shown: a changed value rebuilds it. */
  get templateLive() {
    const made = this.commands.templateOf?.(this.doc.scenario);
    return Boolean(made && made.id === this.templateId && JSON.stringify(made.values) === JSON.stringify(this.templateValues));
  }

  get valid() {
    return Boolean(this.inspection?.ok) && this.currentErrors().size === 0;
  }

  /** The refused entries about the document as it is (older ones are dropped). */
  currentErrors() {
    for (const [path, error] of this.fieldErrors) if (error.version !== this.doc.version) this.fieldErrors.delete(path);
    return this.fieldErrors;
  }

  /** What field `path` shows: the text refused there (beside its error), else `value` as text. */
  shownText(path, value) {
    return this.currentErrors().get(path)?.text ?? value;
  }

  /** `message` if it was made for the document as it is (a { version } object's), else null. */
  current(message) {
    return message && message.version === this.doc.version ? message : null;
  }

  // ------------------------------------------------------------------ edits
  // Each reads and checks what was typed, then makes the edit with the
  // commands the 3-D view uses too (commands.js).

  setQuadPoint(side, i, key, text) {
    const path = `terrain.quads.${side}[${i}].${key}`;
    const parsed = parsePoint(text);
    if (!parsed.ok) return this.fail(path, parsed.message, text);
    this.fieldErrors.delete(path);
    this.commands.moveQuadPoint(side, i, key, parsed.value);
    this.render();
  }

  addQuad(form) {
    const points = {};
    for (const key of ['a', 'b', 'm']) {
      const path = `add.${key}`;
      const parsed = parsePoint(form[key]);
      if (!parsed.ok) return this.fail(path, parsed.message, form[key]);
      this.fieldErrors.delete(path);
      points[key] = parsed.value;
    }
    this.commands.addSegment(form.side, points);
    this.render();
  }

  removeQuad(side, i) {
    this.commands.removeSegment(side, i);
  }

  moveNode(index, axis, text) {
    const value = Number(String(text).trim());
    if (String(text).trim() === '' || Number.isNaN(value)) {
      this.nodeMessage = { text: `'${text}' is not a number`, version: this.doc.version };
      return this.render();
    }
    this.nodeMessage = null;  // before the edit, which renders the panel again
    const moved = this.commands.moveTrack1Node(index, axis, value, this.inspection.track1.map((n) => n.point));
    if (!moved.ok) {
      this.nodeMessage = { text: moved.issues.map((i) => `${i.path}: ${i.message}`).join('\n'), version: this.doc.version };
      this.render();
    }
  }

  setLateral(text) {
    const v = Number(text);
    if (!(v >= 0 && v <= 1)) return this.fail('track1.lateral', `must be a number in [0, 1], got '${text}'`, text);
    this.fieldErrors.delete('track1.lateral');
    this.commands.setTrack1Lateral(v);  // regenerated: nodes at that fraction across every edge
  }

  editBlock(kind, i, key, raw) {
    const path = `terrain.${kind}[${i}].${key}`;
    let value;
    if (['centre', 'start', 'size'].includes(key)) {
      const parsed = parsePoint(raw);
      if (!parsed.ok) return this.fail(path, parsed.message, raw);
      value = parsed.value;
    } else if (key === 'color') {
      value = raw;
    } else {
      value = Number(raw);
      if (String(raw).trim() === '' || !Number.isFinite(value)) return this.fail(path, `must be a finite number, got '${raw}'`, raw);
    }
    this.fieldErrors.delete(path);
    this.commands.setBlockField(kind, i, key, value);
  }

  addBlock(kind) {
    const box = this.inspection?.terrain?.box;
    const x = box ? Math.max(1, (box.min[0] + box.max[0]) / 2) : 2;
    const block =
      kind === 'boxes'
        ? { centre: [x, 0, 0.05], size: [0.6, 1.6, 0.3], yaw: 0 }
        : { start: [x, 0, 0], length: 1, width: 1.6, height: 0.2, yaw: 0 };
    this.commands.addBlock(kind, block);
  }

  removeBlock(kind, i) {
    this.commands.removeBlock(kind, i);
  }

  editPose(key, raw) {
    const path = `robot.pose.${key}`;
    let value;
    if (key === 'position') {
      const parsed = parsePoint(raw, [2, 3]);
      if (!parsed.ok) return this.fail(path, parsed.message, raw);
      value = parsed.value;
    } else {
      value = Number(raw);
      if (String(raw).trim() === '' || !Number.isFinite(value)) return this.fail(path, `must be a finite number (rad), got '${raw}'`, raw);
    }
    this.fieldErrors.delete(path);
    this.commands.setPose(key, value);
  }

  /** Builds the chosen template with the values shown and puts it in place of
   * the terrain (one undo step); values it refuses are shown at their field
   * and change nothing. true when applied. */
  applyTemplate(values = this.templateValues, changedKey = null) {
    const template = TEMPLATES.find((t) => t.id === this.templateId);
    try {
      this.commands.applyTemplate(template, values);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      const key = changedKey ?? error.issues[0]?.key;
      this.templateDraft = { key, text: String(values[key]), issues: error.issues, version: this.doc.version };
      this.render();
      return false;
    }
    this.templateValues = { ...values };
    this.templateDraft = null;
    this.render();
    return true;
  }

  /** A template value typed: refused (marked at its field with the reason) when
   * out of its range or not going with the others; else kept, and when the
   * terrain on show is this template's, rebuilt at once (one undo step). */
  setTemplateValue(key, text) {
    const template = TEMPLATES.find((t) => t.id === this.templateId);
    const value = String(text).trim() === '' ? Number.NaN : Number(text);
    const values = { ...this.templateValues, [key]: value };
    const issues = templateIssues(template, values);
    if (issues.length) {
      this.templateDraft = { key, text: String(text), issues, version: this.doc.version };
      return this.render();
    }
    if (this.templateLive) return this.applyTemplate(values, key);
    this.templateValues = values;
    this.templateDraft = null;
    this.render();
  }

  /** Chooses template `id` in the section: the values the terrain on show was made with when it is that template's, else its defaults. */
  chooseTemplate(id) {
    const made = this.commands.templateOf?.(this.doc.scenario);
    this.templateId = id;
    this.templateValues = made?.id === id ? made.values : defaultValues(TEMPLATES.find((t) => t.id === id));
    this.templateDraft = null;
    this.render();
  }

  /** Picks template `id` with its default values, shows it in the open template section and applies it. */
  useTemplate(id) {
    const template = TEMPLATES.find((t) => t.id === id);
    if (!template) throw new Error(`no template '${id}'`);
    this.templateId = id;
    this.templateValues = defaultValues(template);
    this.templateDraft = null;
    this.templatesOpen = true;
    const shown = this.root?.querySelector('#templates');
    if (shown) shown.open = true;
    this.applyTemplate();
  }

  /** Refuses `text` typed at field `path`: shown there with `message` while the document stays as it is. */
  fail(path, message, text) {
    this.fieldErrors.set(path, { message, text: String(text), version: this.doc.version });
    this.render();
  }

  // ------------------------------------------------------------------ view

  /** Rebuilds the panel from the document (keeps the scroll position). */
  render() {
    if (!this.inspection) this.inspect();
    const scroll = this.root.scrollTop;
    this.templatesOpen = this.root.querySelector('#templates')?.open ?? this.templatesOpen;
    if (this.inspection.large) {
      this.root.replaceChildren(this.toolbar(), this.templates(), this.messages(), ...(this.sections?.() ?? []), this.largeNote(), this.robotStart());
      this.markIssues();
      this.root.scrollTop = scroll;
      this.onRender?.();
      return;
    }
    this.root.replaceChildren(
      this.toolbar(),
      this.templates(),
      this.messages(),
      ...(this.sections?.() ?? []),
      ...SIDES.map((side) => this.rowTable(side)),
      this.addForm(),
      this.robotStart(),
      this.track1(),
      this.blocks('boxes'),
      this.blocks('wedges'),
    );
    this.markIssues();
    this.root.scrollTop = scroll;
    this.onRender?.();
  }

  /** In place of the tables for a terrain beyond EDITOR_LIMITS. */
  largeNote() {
    const { pieces, bytes } = this.inspection.large;
    return el(
      'section',
      { class: 'editor-block', id: 'editor-large' },
      el('h3', {}, 'A large terrain'),
      el(
        'p',
        { class: 'note' },
        `This terrain has ${pieces} pieces (${Math.round(bytes / 1024)} kB of JSON), more than the editor lists ` +
          `(${EDITOR_LIMITS.pieces} pieces, ${EDITOR_LIMITS.bytes / 1024} kB). It is checked when it runs, in the simulation, ` +
          'where its problems are reported. Run, Save, Share, Load, Undo and the templates work as usual.',
      ),
    );
  }

  toolbar() {
    const file = el('input', { type: 'file', accept: '.json,application/json,.png,image/png,.obj', hidden: true, id: 'editor-file' });
    file.addEventListener('change', async () => {
      const f = file.files?.[0];
      if (f && (/\.png$/i.test(f.name) || f.type === 'image/png')) this.onLoadImage?.(f);
      else if (f && /\.obj$/i.test(f.name)) this.onLoadMesh?.(f);
      else if (f) this.onLoadFile?.(await f.text(), f.name);
      file.value = '';
    });
    return el(
      'div',
      { class: 'editor-tools' },
      el('button', { id: 'editor-undo', title: 'Undo (Ctrl+Z)', disabled: !this.doc.canUndo, onclick: () => this.doc.undo() }, '↶ Undo'),
      el('button', { id: 'editor-redo', title: 'Redo (Ctrl+Shift+Z)', disabled: !this.doc.canRedo, onclick: () => this.doc.redo() }, '↷ Redo'),
      el('button', { id: 'editor-save', title: 'Save terrain, Track1 and the rest of the scenario as JSON', onclick: () => this.onSave?.() }, 'Save'),
      el('button', { id: 'editor-load', title: 'Load a scenario JSON file, a grey PNG as a heightmap or an OBJ mesh as the terrain (or drop one on the view)', onclick: () => file.click() }, 'Load'),
      file,
      el('button', { id: 'editor-share', title: 'Copy a link that opens this scenario', onclick: () => this.onShare?.() }, 'Share'),
      el('button', { id: 'editor-run', class: 'primary', disabled: !this.valid, title: this.valid ? 'Restart the robot on this terrain' : 'Fix the marked fields first', onclick: () => this.onRun?.() }, '▶ Run on this terrain'),
      el(
        'label',
        { title: 'Restart the robot after every edit' },
        el('input', { type: 'checkbox', id: 'editor-live', checked: this.live, onchange: (e) => { this.live = e.target.checked; this.onLive?.(this.live); } }),
        ' live',
      ),
    );
  }

  templates() {
    const template = TEMPLATES.find((t) => t.id === this.templateId);
    const draft = this.current(this.templateDraft);
    const live = this.templateLive;
    const select = el('select', { id: 'template', onchange: () => this.chooseTemplate(select.value) });
    for (const t of TEMPLATES) select.append(el('option', { value: t.id, textContent: t.name, selected: t.id === this.templateId }));
    const params = (template?.params ?? []).map((p) => {
      const bad = draft?.key === p.key;
      const input = el('input', {
        type: 'number',
        step: p.step ?? 'any',
        min: p.min,
        max: p.max,
        value: bad ? draft.text : this.templateValues[p.key],
        class: bad ? 'bad' : '',
        title: bad ? draft.issues.map((i) => i.message).join('\n') : '',
        dataset: { key: p.key },
        onchange: (e) => this.setTemplateValue(p.key, e.target.value),
      });
      return el('label', { class: 'tparam', title: `${p.min} … ${p.max} ${p.unit}` }, `${p.label} `, input, ` ${p.unit}`);
    });
    const label = (key) => template?.params.find((p) => p.key === key)?.label ?? key;
    const message = draft ? draft.issues.map((i) => `${label(i.key)}: ${i.message}`).join('\n') : '';
    return el(
      'details',
      { class: 'editor-block', id: 'templates', open: this.templatesOpen },
      el('summary', {}, 'Start from a template'),
      template?.description ? el('p', { class: 'note', id: 'template-description' }, template.description) : null,
      el('div', { class: 'tparams' }, select, ...params),
      el('div', { class: 'message', id: 'template-message' }, message),
      el('button', { id: 'template-apply', onclick: () => this.applyTemplate() }, 'Replace the terrain with this template'),
      live ? el('p', { class: 'note', id: 'template-live' }, 'The terrain is this template’s: a changed value rebuilds it at once (each change one undo step).') : null,
    );
  }

  messages() {
    const box = el('div', { id: 'editor-messages', class: 'editor-messages' });
    return box;
  }

  pointInput(path, value, { editable = true, title } = {}) {
    const input = el('input', {
      type: 'text',
      class: 'point',
      value: this.shownText(path, formatPoint(value)),
      readOnly: !editable,
      title: title ?? (editable ? 'x y z (m)' : 'shared with the previous segment'),
      dataset: { path },
    });
    return input;
  }

  rowTable(side) {
    const row = this.doc.scenario.terrain?.quads?.[side] ?? [];
    const quads = this.inspection.quads[side];
    const table = el('table', { class: 'quads', id: `quads-${side}` });
    table.append(
      el('tr', {}, ...[['#', 'idx'], ['a'], ['b'], ['m (far midpoint)'], ['', 'remove']].map(([h, cls]) => el('th', cls ? { class: cls } : {}, h))),
    );
    row.forEach((seg, i) => {
      const q = quads[i];
      const base = `terrain.quads.${side}[${i}]`;
      const cells = ['a', 'b', 'm'].map((key) => {
        const editable = key === 'm' || i === 0;
        const input = this.pointInput(`${base}.${key}`, seg[key], { editable });
        if (editable) input.addEventListener('change', () => this.setQuadPoint(side, i, key, input.value));
        return el('td', {}, input, el('div', { class: 'message' }));
      });
      const info = q
        ? [
            el('span', { class: 'eq', title: 'plane equation n · x = d (m)' }, planeEquation(q)),
            el('span', { class: 'vec' }, `n (${q.normal.map((v) => fmt(v)).join(', ')})`),
            el('span', { class: 'vec' }, `ab (${q.sideAB.map((v) => fmt(v, 2)).join(', ')})`),
            el('span', { class: 'vec' }, `am (${q.sideAM.map((v) => fmt(v, 2)).join(', ')})`),
          ]
        : [el('span', { class: 'vec' }, 'no quad: see the message above')];
      table.append(
        el(
          'tr',
          { dataset: { path: base } },
          el('td', { rowSpan: 2 }, el('span', { class: 'swatch', style: q ? `background:${hex(q.color)}` : '' }), String(i)),
          ...cells,
          el('td', {}, el('button', { class: 'icon', title: 'Remove this segment (the next ones join the previous)', onclick: () => this.removeQuad(side, i) }, '×')),
        ),
        el('tr', { class: 'planerow' }, el('td', { colSpan: 4, class: 'plane' }, el('div', { class: 'planeinfo' }, ...info))),
      );
    });
    if (!row.length) table.append(el('tr', {}, el('td', { colSpan: 5, class: 'empty' }, 'no segments yet: add one below')));
    return el('section', { class: 'editor-block' }, el('h3', {}, SIDE_LABEL[side]), table);
  }

  addForm() {
    const quads = this.doc.scenario.terrain?.quads;
    const offer = nextSegment(quads, this.addSide);
    const shared = (quads?.[this.addSide] ?? []).length > 0;
    const side = el('select', { id: 'add-side', onchange: () => { this.addSide = side.value; this.render(); } });
    for (const s of SIDES) side.append(el('option', { value: s, textContent: `${s}_plane`, selected: s === this.addSide }));
    const inputs = {};
    for (const key of ['a', 'b', 'm']) {
      inputs[key] = this.pointInput(`add.${key}`, offer[key], {
        editable: key === 'm' || !shared,
        title: key === 'm' ? 'midpoint of the far side: x y z (m)' : shared ? 'shared with the last segment of the row' : 'x y z (m)',
      });
      inputs[key].id = `add-${key}`;
    }
    const labelled = (key, text) => el('label', {}, text, inputs[key], el('div', { class: 'message' }));
    return el(
      'section',
      { class: 'editor-block', id: 'add-form' },
      el('h3', {}, 'Add a segment'),
      el('div', { class: 'addrow' }, el('label', {}, 'side ', side), labelled('a', 'a '), labelled('b', 'b '), labelled('m', 'm ')),
      el(
        'button',
        {
          id: 'add-segment',
          onclick: () => this.addQuad({ side: side.value, a: inputs.a.value, b: inputs.b.value, m: inputs.m.value }),
        },
        'Add',
      ),
    );
  }

  robotStart() {
    const pose = this.doc.scenario.robot?.pose ?? {};
    const input = (key, value, cls, title) => {
      const path = `robot.pose.${key}`;
      const e = el('input', { type: 'text', class: cls, value: this.shownText(path, value), title, dataset: { path }, id: `pose-${key}` });
      e.addEventListener('change', () => this.editPose(key, e.value));
      return el('label', {}, `${key} `, e, el('div', { class: 'message' }));
    };
    return el(
      'section',
      { class: 'editor-block', id: 'robot-start' },
      el('h3', {}, 'Robot start'),
      el(
        'div',
        { class: 'addrow' },
        input('position', formatPoint(pose.position ?? [0, 0]), 'point', 'x y (m): lowered onto the ground; or x y z'),
        input('yaw', String(pose.yaw ?? 0), 'num', 'heading (rad), 0 = along +x'),
      ),
    );
  }

  track1() {
    const nodes = this.inspection.track1 ?? [];
    const table = el('table', { class: 'track1', id: 'track1-nodes' });
    table.append(el('tr', {}, ...['', '#', 'node x y z (m)', 'surface normal'].map((h) => el('th', {}, h))));
    nodes.forEach((n, i) => {
      table.append(
        el(
          'tr',
          { class: i === this.selectedNode ? 'selected' : '', dataset: { path: `track1.nodes[${i}]` } },
          el('td', {}, el('input', { type: 'radio', name: 'track1-node', checked: i === this.selectedNode, onchange: () => { this.selectedNode = i; this.onSelectNode?.(i); this.render(); } })),
          el('td', {}, `${i}${i === this.selectedNode ? ' *' : ''}`),
          el('td', { class: 'node' }, formatPoint(n.point)),
          el('td', { class: 'vec' }, `(${n.normal.map((v) => fmt(v)).join(', ')})`),
        ),
      );
    });
    const axis = el(
      'select',
      { id: 'node-axis', onchange: () => (this.nodeAxis = Number(axis.value)) },
      ...['x', 'y', 'z'].map((a, k) => el('option', { value: String(k), textContent: a, selected: k === this.nodeAxis })),
    );
    const value = el('input', { type: 'text', id: 'node-value', class: 'num', placeholder: 'value (m)' });
    const lateral = this.doc.scenario.track1?.lateral ?? 0.5;
    return el(
      'section',
      { class: 'editor-block', id: 'track1' },
      el('h3', {}, 'Track1'),
      nodes.length
        ? table
        : el('p', { class: 'empty' }, 'Track1 is generated on the left row: add left segments first.'),
      nodes.length
        ? el(
            'div',
            { class: 'addrow' },
            `Update node ${this.selectedNode}: `,
            axis,
            ' = ',
            value,
            el('button', { id: 'node-update', onclick: () => this.moveNode(this.selectedNode, Number(axis.value), value.value) }, 'Update'),
          )
        : null,
      el('div', { class: 'message', id: 'node-message' }, this.current(this.nodeMessage)?.text ?? ''),
      nodes.length
        ? el(
            'label',
            { title: 'Regenerates every node at this fraction across its edge (0 = at a, 1 = at b)' },
            'regenerate at fraction ',
            el('input', { type: 'text', class: 'num', value: this.shownText('track1.lateral', String(lateral)), dataset: { path: 'track1.lateral' }, onchange: (e) => this.setLateral(e.target.value) }),
            el('div', { class: 'message' }),
          )
        : null,
    );
  }

  blocks(kind) {
    const list = this.doc.scenario.terrain?.[kind] ?? [];
    const fields = kind === 'boxes' ? ['centre', 'size', 'yaw', 'color'] : ['start', 'length', 'width', 'height', 'yaw', 'color'];
    const units = { centre: 'x y z (m)', size: 'length width height (m)', start: 'x y z of the low edge middle (m)', length: 'm', width: 'm', height: 'm', yaw: 'rad', color: '#rrggbb' };
    const section = el('section', { class: 'editor-block', id: `blocks-${kind}` }, el('h3', {}, kind === 'boxes' ? 'Boxes' : 'Wedges (ramps)'));
    list.forEach((block, i) => {
      const base = `terrain.${kind}[${i}]`;
      const row = el('div', { class: 'blockrow', dataset: { path: base } }, el('span', {}, `${i}`));
      for (const key of fields) {
        const v = block[key];
        const input = el('input', {
          type: 'text',
          class: Array.isArray(v) || ['centre', 'size', 'start'].includes(key) ? 'point' : 'num',
          value: this.shownText(`${base}.${key}`, v === undefined ? '' : Array.isArray(v) ? formatPoint(v) : String(v)),
          placeholder: key,
          title: `${key}: ${units[key]}`,
          dataset: { path: `${base}.${key}` },
        });
        input.addEventListener('change', () => this.editBlock(kind, i, key, input.value));
        row.append(el('label', {}, `${key} `, input, el('div', { class: 'message' })));
      }
      row.append(el('button', { class: 'icon', title: 'Remove', onclick: () => this.removeBlock(kind, i) }, '×'));
      section.append(row);
    });
    section.append(el('button', { id: `add-${kind}`, onclick: () => this.addBlock(kind) }, kind === 'boxes' ? '+ Box' : '+ Wedge'));
    return section;
  }

  /** Marks each field an issue names; issues no field shows are listed on top. */
  markIssues() {
    const issues = [
      ...[...this.currentErrors()].map(([path, { message }]) => ({ path, message })),
      ...(this.inspection?.issues ?? []),
    ];
    const fields = [...this.root.querySelectorAll('[data-path]')];
    const unplaced = [];
    for (const issue of issues) {
      // The most specific field whose path is the issue's or a prefix of it.
      let best = null;
      for (const f of fields) {
        const p = f.dataset.path;
        const match = issue.path === p || issue.path.startsWith(`${p}.`) || issue.path.startsWith(`${p}[`);
        if (match && (!best || p.length > best.dataset.path.length)) best = f;
      }
      if (!best) {
        unplaced.push(issue);
        continue;
      }
      best.classList.add('bad');
      const holder = best.closest('td, label') ?? best;
      const message = holder.querySelector('.message');
      const text = `${issue.path}: ${issue.message}`;
      if (message && holder !== best) message.textContent = message.textContent ? `${message.textContent}\n${text}` : text;
      else unplaced.push(issue);
    }
    const box = this.root.querySelector('#editor-messages');
    box.replaceChildren(...unplaced.map((i) => el('div', { class: 'issue' }, `${i.path || '(scenario)'}: ${i.message}`)));
    box.hidden = unplaced.length === 0;
  }
}

