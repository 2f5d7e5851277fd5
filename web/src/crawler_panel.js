// Crawler link vs rectangular obstacle (seed 003): a plan view of the link OO1
// turning about its support O from φ_n to φ_k and of the obstacle ABDE, with
// the contact mode n, the kind v, the contact and the suggested correction
// from the core's crawlerLinkContact, updated live. The obstacle is dragged
// with the mouse (inside it moves A; the handle on E sets l and α, the one on
// B sets b). Angles are in degrees in the form and radians in the core.

const DEG = Math.PI / 180; // 90 * DEG === Math.PI / 2 exactly, so α = 90° is seed 003's π/2

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

/** Vertices A, B, D, E of the obstacle (seed 003: B = A + T_A(0, b), D = A + T_A(l, b), E = A + T_A(l, 0)). */
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

    this.element = el('div', { class: 'crawler-panel' });
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
    this.element.append(this.canvas, this.form, this.output);
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
      ctx.fillStyle = '#5a3a1b';
      ctx.font = '13px sans-serif';
      ['A', 'B', 'D', 'E'].forEach((name, i) => ctx.fillText(name, pts[i][0] + 5, pts[i][1] - 5));
      // Handles: E (l and α), B (b).
      ctx.fillStyle = '#fff';
      for (const q of [pts[3], pts[1]]) {
        ctx.fillRect(q[0] - 5, q[1] - 5, 10, 10);
        ctx.strokeRect(q[0] - 5, q[1] - 5, 10, 10);
      }
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
      ctx.fillStyle = '#333';
      ctx.fillText('O1(φn)', ...at(p.phiStart, p.L * 1.04));
      ctx.fillText('O1(φk)', ...at(p.phiEnd, p.L * 1.04));
    }
    // Support O.
    ctx.fillStyle = '#222';
    ctx.beginPath();
    ctx.arc(O[0], O[1], 6, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillText('O', O[0] - 16, O[1] + 16);

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
  }
}
