// Crawler link vs rectangular obstacle ([BSTU2019]): a plan view of the link OO1
// turning about its support O from φ_n to φ_k and of the obstacle ABDE, with
// the contact mode n, the kind v, the contact and the suggested correction
// from the core's crawlerLinkContact, updated live. The obstacle is dragged
// with the mouse (inside it moves A; the handle on E sets l and α, the one on
// B sets b). Angles are in degrees in the form and radians in the core.

const DEG = Math.PI / 180; // 90 * DEG === Math.PI / 2 exactly, so α = 90° is [BSTU2019]'s π/2

const MODE_TEXT = {
  1: 'passing needs a correction (α ≥ 0)',
  2: 'passing needs a correction (α < 0)',
  3: 'passable by touching (α ≥ 0)',
  4: 'passable by touching (α < 0)',
  5: 'passable without contact',
};

// Form fields: key in the params object, label, unit, step.
const FIELDS = [
  ['L', 'L', 'm', 0.01],
  ['phiStart', 'φn', '°', 1],
  ['phiEnd', 'φk', '°', 1],
  ['Ax', 'xA', 'm', 0.01],
  ['Ay', 'yA', 'm', 0.01],
  ['l', 'l', 'm', 0.01],
  ['b', 'b', 'm', 0.01],
  ['alpha', 'α', '°', 1],
];
const ANGLES = new Set(['phiStart', 'phiEnd', 'alpha']);

/** Default parameters (m, rad): a case of kind v = 4 (O1 on side AE) needing a correction. */
export function demoCrawler() {
  return {
    L: 1,
    phiStart: 10 * DEG,
    phiEnd: 80 * DEG,
    A: [0.42, 0.73],
    l: 0.45,
    b: 0.35,
    alpha: 20 * DEG,
  };
}

/** Worked examples, one per situation the panel tells apart (the link turns from 10° to 80°, L = 1 m). */
export const CRAWLER_EXAMPLES = [
  { id: 'side-ae', name: 'O1 meets side AE: a correction is needed (n = 1, v = 4)', params: demoCrawler() },
  { id: 'vertex-a', name: 'the link meets vertex A (n = 1, v = 7)', params: { ...demoCrawler(), A: [0.3, 0.45], l: 0.25, b: 0.2, alpha: 70 * DEG } },
  { id: 'tilted', name: 'α < 0: the link meets vertex E (n = 2, v = 8)', params: { ...demoCrawler(), A: [0.35, 0.55], l: 0.45, b: 0.35, alpha: -30 * DEG } },
  { id: 'touching', name: 'O1 just touches vertex A: passable (n = 3, v = 1)', params: { ...demoCrawler(), A: [Math.cos(40 * DEG), Math.sin(40 * DEG)], l: 0.3, b: 0.3 } },
  { id: 'clear', name: 'the obstacle is out of reach: no contact (n = 5)', params: { ...demoCrawler(), A: [1.1, 0.6], l: 0.4, b: 0.3, alpha: 10 * DEG } },
];

// What the panel shows, for someone who has not read [BSTU2019]: the symbols and the figure.
const INTRO = 'A crawling robot turns its link OO1 about the support O; will it pass the rectangular obstacle ABDE, touch it, or need a correction? Type the values or drag the obstacle in the figure.';
const SYMBOLS = [
  ['n', 'contact mode 1–5: 1, 2 a correction is needed; 3, 4 passable by touching; 5 no contact (odd: α ≥ 0, even: α < 0)'],
  ['v', 'contact kind 1–10: which point meets which first, e.g. v = 4: O1 on side AE'],
  ['L', 'link length |OO1| (m)'],
  ['φn, φk', 'start and end angle of the link from the x axis, counterclockwise (°)'],
  ['xA, yA', 'vertex A of the obstacle (m); O is the origin'],
  ['l, b', 'the obstacle\'s sides |AE| and |AB| (m)'],
  ['α', 'angle of side AE to the x axis (°)'],
];
const FIGURE = 'Figure: the link at φn (black) and at φk (dashed), the swept sector (blue), the obstacle (brown: drag it; the square handles on E and B set l, α and b), the first contact (red) and, when a correction is needed, the arc of the shortened link (green).';

/**
 * Places labels next to their anchors without overlapping: each label in turn
 * takes the first spot, tried around its anchor from its preferred direction
 * outwards, that overlaps no box placed before it nor `obstacles` and lies
 * inside width × height (else its preferred spot).
 * labels: [{ text, at: [x, y], w, h, angle }] (angle: preferred direction, rad, canvas axes);
 * obstacles: [{ x, y, w, h }]; returns [{ text, x, y, w, h }] (x, y: top left).
 */
export function placeLabels(labels, obstacles, width, height) {
  const taken = [...obstacles];
  const placed = [];
  const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const inside = (r) => r.x >= 0 && r.y >= 0 && r.x + r.w <= width && r.y + r.h <= height;
  for (const { text, at, w, h, angle = -Math.PI / 4 } of labels) {
    const spots = [];
    for (const gap of [3, 12, 24])
      for (let k = 0; k < 16; k++) {
        const a = angle + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * (Math.PI / 8);
        const cx = at[0] + Math.cos(a) * (w / 2 + gap);
        const cy = at[1] + Math.sin(a) * (h / 2 + gap);
        spots.push({ text, x: cx - w / 2, y: cy - h / 2, w, h });
      }
    const spot = spots.find((r) => inside(r) && !taken.some((t) => overlaps(r, t))) ?? spots[0];
    placed.push(spot);
    taken.push(spot);
  }
  return placed;
}

/** Vertices A, B, D, E of the obstacle ([BSTU2019]: B = A + T_A(0, b), D = A + T_A(l, b), E = A + T_A(l, 0)). */
export function obstacleVertices({ A, l, b, alpha }) {
  const c = Math.cos(alpha);
  const s = Math.sin(alpha);
  const at = (x, y) => [A[0] + c * x - s * y, A[1] + s * x + c * y];
  return { A: at(0, 0), B: at(0, b), D: at(l, b), E: at(l, 0) };
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const fmt = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toFixed(digits)).toString() : String(x));
const fmtDeg = (rad) => `${fmt(rad / DEG, 2)}°`;

export class CrawlerPanel {
  /**
   * @param {HTMLElement} root  element the panel builds its DOM in
   * @param {{crawlerLinkContact: Function}} core  the WASM core (loadCore())
   */
  constructor(root, core) {
    this.root = root;
    this.core = core;
    this.params = demoCrawler();
    this.result = null;
    this.drag = null;

    this.labels = [];  // the figure's labels as drawn: [{ text, x, y, w, h }] (canvas pixels)

    this.element = el('div', { class: 'crawler-panel' });
    const intro = el('details', { class: 'crawler-intro', id: 'crawler-intro', open: '' });
    intro.append(el('summary', {}, 'What this shows'), el('p', {}, INTRO));
    const symbols = el('dl', { class: 'crawler-symbols' });
    for (const [name, meaning] of SYMBOLS) symbols.append(el('dt', {}, name), el('dd', {}, meaning));
    intro.append(symbols, el('p', {}, FIGURE));
    this.example = el('select', { id: 'crawler-example' });
    this.example.append(el('option', { value: '' }, 'your values'));
    for (const e of CRAWLER_EXAMPLES) this.example.append(el('option', { value: e.id }, e.name));
    this.example.value = CRAWLER_EXAMPLES[0].id;
    this.example.addEventListener('change', () => this.example.value && this.showExample(this.example.value));
    const examples = el('label', { class: 'crawler-examples' }, 'Example ');
    examples.append(this.example);
    this.canvas = el('canvas', { width: 560, height: 420, class: 'crawler-canvas' });
    this.canvas.style.touchAction = 'none';
    this.canvas.style.maxWidth = '100%';
    this.form = el('form', { class: 'crawler-form' });
    this.inputs = {};
    for (const [key, label, unit, step] of FIELDS) {
      const input = el('input', { type: 'number', step: String(step), name: key });
      input.style.width = '5.5em';
      input.addEventListener('input', () => this.readForm());
      const row = el('label', {}, `${label} (${unit}) `);
      row.style.display = 'inline-block';
      row.style.margin = '0 0.8em 0.3em 0';
      row.appendChild(input);
      this.form.appendChild(row);
      this.inputs[key] = input;
    }
    this.form.addEventListener('submit', (e) => e.preventDefault());
    this.output = el('div', { class: 'crawler-output', 'aria-live': 'polite' });
    this.element.append(intro, examples, this.canvas, this.form, this.output);
    root.appendChild(this.element);

    this.onPointerDown = (e) => this.pointerDown(e);
    this.onPointerMove = (e) => this.pointerMove(e);
    this.onPointerUp = (e) => this.pointerUp(e);
    this.canvas.addEventListener('pointerdown', this.onPointerDown);
    this.canvas.addEventListener('pointermove', this.onPointerMove);
    this.canvas.addEventListener('pointerup', this.onPointerUp);
    this.canvas.addEventListener('pointercancel', this.onPointerUp);

    this.setParams(this.params);
  }

  /** Replaces all parameters ({L, phiStart, phiEnd, A: [x, y], l, b, alpha}, m and rad). */
  setParams(params) {
    this.params = { ...params, A: [...params.A] };
    this.fitView();
    this.writeForm();
    this.update();
  }

  /** Shows example `id` of CRAWLER_EXAMPLES. */
  showExample(id) {
    const example = CRAWLER_EXAMPLES.find((e) => e.id === id);
    if (!example) throw new Error(`no crawler example '${id}'`);
    this.setParams(example.params);
    this.example.value = id;
  }

  /** Removes the panel's DOM and listeners. */
  destroy() {
    this.canvas.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas.removeEventListener('pointermove', this.onPointerMove);
    this.canvas.removeEventListener('pointerup', this.onPointerUp);
    this.canvas.removeEventListener('pointercancel', this.onPointerUp);
    this.element.remove();
  }

  // ---------------------------------------------------------------- form

  writeForm() {
    const p = this.params;
    const values = {
      L: p.L,
      phiStart: p.phiStart / DEG,
      phiEnd: p.phiEnd / DEG,
      Ax: p.A[0],
      Ay: p.A[1],
      l: p.l,
      b: p.b,
      alpha: p.alpha / DEG,
    };
    for (const [key, input] of Object.entries(this.inputs)) {
      const v = values[key];
      input.value = Number.isFinite(v) ? String(Number(v.toFixed(ANGLES.has(key) ? 3 : 4))) : '';
    }
  }

  readForm() {
    this.example.value = '';
    const v = {};
    for (const [key, input] of Object.entries(this.inputs)) {
      v[key] = input.value === '' ? NaN : Number(input.value);
    }
    const lengthChanged = v.L !== this.params.L;
    this.params = {
      L: v.L,
      phiStart: v.phiStart * DEG,
      phiEnd: v.phiEnd * DEG,
      A: [v.Ax, v.Ay],
      l: v.l,
      b: v.b,
      alpha: v.alpha * DEG,
    };
    if (lengthChanged) this.fitView();
    this.update();
  }

  // ---------------------------------------------------------------- view

  /**
   * World → canvas scale and origin: the quarter disc of radius L around O and the
   * obstacle, with a margin. Set when the parameters are replaced or L changes, kept
   * while dragging so that the view holds still under the pointer.
   */
  fitView() {
    const p = this.params;
    const L = Number.isFinite(p.L) && p.L > 0 ? p.L : 1;
    const xs = [-0.3 * L, 1.3 * L];
    const ys = [-0.3 * L, 1.3 * L];
    if ([p.A[0], p.A[1], p.l, p.b, p.alpha].every(Number.isFinite)) {
      for (const [x, y] of Object.values(obstacleVertices(p))) xs.push(x), ys.push(y);
    }
    const pad = 0.1 * L;
    const x0 = Math.min(...xs) - pad;
    const y0 = Math.min(...ys) - pad;
    const { width, height } = this.canvas;
    const scale = Math.min(width / (Math.max(...xs) + pad - x0), height / (Math.max(...ys) + pad - y0));
    this.view = { scale, x0: -x0, y0: -y0 };
  }

  toCanvas([x, y]) {
    const { scale, x0, y0 } = this.view;
    return [(x + x0) * scale, this.canvas.height - (y + y0) * scale];
  }

  toWorld(cx, cy) {
    const { scale, x0, y0 } = this.view;
    return [cx / scale - x0, (this.canvas.height - cy) / scale - y0];
  }

  eventPoint(e) {
    const rect = this.canvas.getBoundingClientRect();
    const sx = this.canvas.width / (rect.width || this.canvas.width);
    const sy = this.canvas.height / (rect.height || this.canvas.height);
    return this.toWorld((e.clientX - rect.left) * sx, (e.clientY - rect.top) * sy);
  }

  // ---------------------------------------------------------------- drag

  pointerDown(e) {
    const p = this.eventPoint(e);
    const v = obstacleVertices(this.params);
    const near = (q) => Math.hypot(q[0] - p[0], q[1] - p[1]) * this.view.scale < 9;
    let mode = null;
    if (near(v.E)) mode = 'E';
    else if (near(v.B)) mode = 'B';
    else if (this.insideObstacle(p)) mode = 'move';
    if (!mode) return;
    this.drag = { mode, start: p, A: [...this.params.A] };
    this.canvas.setPointerCapture?.(e.pointerId);
    e.preventDefault();
  }

  pointerMove(e) {
    if (!this.drag) return;
    const p = this.eventPoint(e);
    const prm = this.params;
    if (this.drag.mode === 'move') {
      prm.A = [this.drag.A[0] + p[0] - this.drag.start[0], this.drag.A[1] + p[1] - this.drag.start[1]];
    } else if (this.drag.mode === 'E') {
      // E sets l (|AE|) and α (direction of AE).
      const dx = p[0] - prm.A[0];
      const dy = p[1] - prm.A[1];
      prm.l = Math.hypot(dx, dy);
      prm.alpha = Math.atan2(dy, dx);
    } else {
      // B sets b: the pointer's offset from A along AB's direction (α + 90°).
      prm.b = -(p[0] - prm.A[0]) * Math.sin(prm.alpha) + (p[1] - prm.A[1]) * Math.cos(prm.alpha);
    }
    this.example.value = '';
    this.writeForm();
    this.update();
  }

  pointerUp(e) {
    if (!this.drag) return;
    this.drag = null;
    this.canvas.releasePointerCapture?.(e.pointerId);
  }

  insideObstacle([x, y]) {
    const { A, l, b, alpha } = this.params;
    const dx = x - A[0];
    const dy = y - A[1];
    const u = dx * Math.cos(alpha) + dy * Math.sin(alpha);
    const w = -dx * Math.sin(alpha) + dy * Math.cos(alpha);
    return u >= 0 && u <= l && w >= 0 && w <= b;
  }

  // ---------------------------------------------------------------- update

  /** Runs the core on the current parameters, redraws and rewrites the text. */
  update() {
    this.result = this.core.crawlerLinkContact(this.params);
    this.draw();
    this.writeOutput();
  }

  writeOutput() {
    const r = this.result;
    this.output.replaceChildren();
    const line = (text, cls) => this.output.appendChild(el('div', cls ? { class: cls } : {}, text));
    if (!r.ok) {
      line('Cannot classify:', 'crawler-issues');
      for (const issue of r.issues) line(`${issue.path}: ${issue.message}`, 'crawler-issue');
      return;
    }
    line(`n = ${r.mode}: ${MODE_TEXT[r.mode]}`, 'crawler-mode');
    if (!r.contact) {
      line('v: no contact (every point of the obstacle outside the swept sector)');
      return;
    }
    line(`v = ${r.kind}: ${r.kindName}`, 'crawler-kind');
    const point = `(${fmt(r.point[0])}, ${fmt(r.point[1])}) m`;
    line(
      `contact at φp = ${fmtDeg(r.phiContact)} (αp = ${fmtDeg(r.alphaContact)}), ` +
        `point ${point}, ${fmt(r.contactDistance)} m from O`,
    );
    if (r.correction.needed) {
      line(
        `correction: stop at φk = ${fmtDeg(r.correction.endAngle)}, ` +
          `or shorten the link to L = ${fmt(r.correction.length)} m, or lift it over the obstacle`,
        'crawler-correction',
      );
    }
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { width, height } = this.canvas;
    const p = this.params;
    const r = this.result;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#fbfbfb';
    ctx.fillRect(0, 0, width, height);
    const s = this.view.scale;
    const O = this.toCanvas([0, 0]);
    const labels = [];  // names to place once everything is drawn: { text, at, angle, color }
    const marks = [];  // points a name must not cover

    // Axes.
    ctx.strokeStyle = '#ccc';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, O[1]);
    ctx.lineTo(width, O[1]);
    ctx.moveTo(O[0], 0);
    ctx.lineTo(O[0], height);
    ctx.stroke();

    const validTurn = [p.L, p.phiStart, p.phiEnd].every(Number.isFinite) && p.L > 0;
    const at = (phi, len = p.L) => this.toCanvas([len * Math.cos(phi), len * Math.sin(phi)]);
    if (validTurn) {
      // Swept sector and O1's arc (canvas y points down: angles negate).
      ctx.fillStyle = 'rgba(70, 130, 200, 0.10)';
      ctx.beginPath();
      ctx.moveTo(...O);
      ctx.arc(O[0], O[1], p.L * s, -p.phiStart, -p.phiEnd, true);
      ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = 'rgba(70, 130, 200, 0.6)';
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.arc(O[0], O[1], p.L * s, -p.phiStart, -p.phiEnd, true);
      ctx.stroke();
      if (r.ok && r.correction.needed) {
        ctx.strokeStyle = 'rgba(40, 150, 60, 0.8)';
        ctx.beginPath();
        ctx.arc(O[0], O[1], r.correction.length * s, -p.phiStart, -p.phiEnd, true);
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }

    // Obstacle.
    const finiteObstacle = [p.A[0], p.A[1], p.l, p.b, p.alpha].every(Number.isFinite);
    if (finiteObstacle) {
      const v = obstacleVertices(p);
      const pts = [v.A, v.B, v.D, v.E].map((q) => this.toCanvas(q));
      ctx.fillStyle = 'rgba(160, 110, 60, 0.35)';
      ctx.strokeStyle = '#8a5a2b';
      ctx.lineWidth = 2;
      ctx.beginPath();
      pts.forEach((q, i) => (i ? ctx.lineTo(...q) : ctx.moveTo(...q)));
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      // Handles: E (l and α), B (b).
      ctx.fillStyle = '#fff';
      for (const q of [pts[3], pts[1]]) {
        ctx.fillRect(q[0] - 5, q[1] - 5, 10, 10);
        ctx.strokeRect(q[0] - 5, q[1] - 5, 10, 10);
      }
      // Each vertex's name outwards from the obstacle's centre.
      const centre = [(pts[0][0] + pts[2][0]) / 2, (pts[0][1] + pts[2][1]) / 2];
      ['A', 'B', 'D', 'E'].forEach((name, i) =>
        labels.push({ text: name, at: pts[i], angle: Math.atan2(pts[i][1] - centre[1], pts[i][0] - centre[0]), color: '#5a3a1b' }),
      );
      marks.push(...pts);
    }

    if (validTurn) {
      const segment = (phi, color, dash = []) => {
        ctx.strokeStyle = color;
        ctx.lineWidth = 3;
        ctx.setLineDash(dash);
        ctx.beginPath();
        ctx.moveTo(...O);
        ctx.lineTo(...at(phi));
        ctx.stroke();
        ctx.setLineDash([]);
      };
      segment(p.phiStart, '#444');
      segment(p.phiEnd, '#888', [8, 5]);
      if (r.ok && r.contact) segment(r.phiContact, '#c0392b');
      for (const [name, phi] of [['O1(φn)', p.phiStart], ['O1(φk)', p.phiEnd]]) {
        const end = at(phi);
        marks.push(end);
        labels.push({ text: name, at: end, angle: -phi, color: '#333' });
      }
    }
    // Support O.
    ctx.fillStyle = '#222';
    ctx.beginPath();
    ctx.arc(O[0], O[1], 6, 0, 2 * Math.PI);
    ctx.fill();
    marks.push(O);
    labels.unshift({ text: 'O', at: O, angle: (3 * Math.PI) / 4, color: '#222' });

    // Contact point (or stretch, for the link along a side).
    if (r.ok && r.contact) {
      const a = this.toCanvas(r.point);
      const b = this.toCanvas(r.pointEnd);
      ctx.strokeStyle = '#e74c3c';
      ctx.lineWidth = 6;
      ctx.beginPath();
      ctx.moveTo(...a);
      ctx.lineTo(...b);
      ctx.stroke();
      ctx.fillStyle = '#e74c3c';
      ctx.beginPath();
      ctx.arc(a[0], a[1], 5, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.fillStyle = '#222';
    ctx.font = '14px sans-serif';
    const label = r.ok ? (r.contact ? `n = ${r.mode}, v = ${r.kind}` : 'n = 5') : 'input issue';
    ctx.fillText(label, 10, 20);

    // The names, placed so that none covers another, a handle or a point.
    ctx.font = '13px sans-serif';
    const heading = { x: 6, y: 4, w: ctx.measureText(label).width + 10, h: 22 };
    const around = marks.map(([x, y]) => ({ x: x - 6, y: y - 6, w: 12, h: 12 }));
    const sized = labels.map((l) => ({ ...l, w: Math.ceil(ctx.measureText(l.text).width) + 2, h: 15 }));
    this.labels = placeLabels(sized, [heading, ...around], width, height);
    ctx.textBaseline = 'middle';
    this.labels.forEach((box, i) => {
      ctx.fillStyle = sized[i].color;
      ctx.fillText(box.text, box.x + 1, box.y + box.h / 2);
    });
    ctx.textBaseline = 'alphabetic';
  }
}
