// The charts of the plot dock, one card each: a title and a one-line legend
// (the value of each series at the cursor, or the newest), then the chart.
// TimeChart draws columns against time with uPlot (readable axes: sized to
// their labels, one SI prefix per axis); SideChart draws the wheel centres'
// paths in the side view (x–z, equal scales) on a canvas of its own, with
// ticks, labels and the same legend. Both show a cursor at a time (the
// timeline's, while it scrubs; the legends give the values there) and draw
// themselves into a PNG at any resolution (drawInto). Pinned runs
// (pinned_runs.js) are drawn with the current one: each run's series of the
// chart's quantity, dashed in its colour, on one time base joining the
// runs' own, and one legend item naming it.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

import { formatTicks, formatValue, ticks } from './plot_format.js';
import { continuousAngles, titleWithUnit } from './plot_quantities.js';

export const PALETTE = ['#d9822b', '#3d7fbf', '#6aa84f', '#b85450', '#8e6bbf', '#2aa198', '#c0a020', '#555555', '#e377c2', '#17becf'];
const FONT = '11px system-ui, sans-serif';
const AXIS_COLOR = '#445';
const GRID = { stroke: '#e4e8ec', width: 1 };

/** The card: head (title, ×, legend) and the chart's host. */
function makeCard(q, onRemove) {
  const card = document.createElement('div');
  card.className = 'plot-card';
  card.dataset.key = q.key;
  const head = document.createElement('div');
  head.className = 'plot-head';
  const title = document.createElement('span');
  title.className = 'plot-title';
  title.textContent = titleWithUnit(q);
  title.title = q.single ? q.title : `${titleWithUnit(q)}: ${(q.series ?? q.wheels).map((s) => s.name ?? s.label).join(', ')}`;
  const close = document.createElement('button');
  close.className = 'plot-close';
  close.textContent = '×';
  close.title = 'Remove this chart';
  close.addEventListener('click', () => onRemove(q.key));
  const legend = document.createElement('span');
  legend.className = 'plot-legend';
  head.append(title, legend, close);
  const body = document.createElement('div');
  body.className = 'plot-body';
  card.append(head, body);
  return { card, head, legend, body };
}

/** Legend items (swatch, label, value) of the current run's series, then one (swatch, label) per pinned
 * run ({ label, colour }); returns the value elements of the current run's. */
function fillLegend(legend, labels, runs = []) {
  legend.textContent = '';
  const item = (colour, label) => {
    const element = document.createElement('span');
    element.className = 'plot-key';
    const swatch = document.createElement('i');
    swatch.style.background = colour;
    element.append(swatch, label);
    legend.append(element);
    return element;
  };
  const values = labels.map((label, i) => {
    const value = document.createElement('b');
    item(PALETTE[i % PALETTE.length], `${label} `).append(value);
    return value;
  });
  for (const run of runs) item(run.colour, run.label).classList.add('pinned');
  return values;
}

/** A series' values from a run's telemetry, every k-th row (unit-converted, angles continuous): q a
 * quantity and s one of its series, both of that run's columns (plot_quantities.js). */
function seriesValues(q, s, telemetry, k) {
  const v = [];
  for (let i = 0; i < telemetry.rows; i += k) {
    const x = (s.value ? s.value(telemetry, i) : telemetry.value(i, s.index)) * q.scale;
    v.push(Number.isNaN(x) ? null : x);  // not known then (a program's plot value before its first)
  }
  if (s.angle) continuousAngles(v, s.angle === 'tilt');
  return v;
}

/** Values at their slots of a joined time base of n times, null elsewhere (uPlot spans the gaps). */
function spread(values, slots, n) {
  const out = new Array(n).fill(null);
  for (let j = 0; j < values.length; j++) out[slots[j]] = values[j];
  return out;
}

/** Every pinned run of a comparison ({ runs: [{ run }] }) with its series of the quantity `key`
 * (from the run's own columns: another robot has its own wheels), and its rows every k-th. */
function pinnedSeries(compare, key) {
  return (compare?.runs ?? []).map(({ run, k, slots }) => ({ run, k, slots, q: run.quantities.find((x) => x.key === key) ?? null }));
}

const PINNED_DASH = [6, 4];

/** The pinned runs drawn, for the tests: { run, label, series, points } each (points: the values of its first series). */
function pinnedSummary(pinned, arrays) {
  const runs = new Map();
  pinned.forEach((p, i) => {
    if (!runs.has(p.run.n)) runs.set(p.run.n, { run: p.run.n, label: p.run.label, series: 0, points: arrays[i].filter((v) => v !== null).length });
    runs.get(p.run.n).series++;
  });
  return [...runs.values()];
}

/** An axis as wide (or tall) as its labels need. */
function axisSize(self, values, axisIdx, cycleNum) {
  const axis = self.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  let size = axis.ticks.size + axis.gap;
  const longest = (values ?? []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
  if (longest) {
    self.ctx.font = axis.font[0];
    size += self.ctx.measureText(longest).width / uPlot.pxRatio;
  }
  return Math.ceil(size + 2);
}

/**
 * uPlot's options for a quantity's chart of `width` × `height` CSS px, every
 * length (fonts, axes, lines) × `scale`: 1 on the page; for a PNG, the image's
 * pixels per device pixel (uPlot draws at the device's pixel ratio). `pinned`:
 * the pinned runs' series after the current run's ({ label, colour }, dashed).
 */
function timeOptions(q, scale, width, height, pinned = []) {
  const px = (n) => n * scale;
  const font = `${px(11)}px system-ui, sans-serif`;
  const values = (u, splits) => formatTicks(splits);
  const grid = { ...GRID, width: px(GRID.width) };
  const ticks = { size: px(3), width: px(1) };
  return {
    width,
    height,
    scales: { x: { time: false } },
    axes: [
      { font, labelFont: font, label: 't (s)', labelSize: px(13), labelGap: 0, size: px(18), gap: px(2), space: px(50), ticks, values, grid, stroke: AXIS_COLOR },
      { font, size: axisSize, gap: px(3), space: px(30), ticks, values, grid, stroke: AXIS_COLOR },
    ],
    legend: { show: false },
    series: [
      {},
      ...q.series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length], width: px(1.2), spanGaps: true })),
      ...pinned.map((s) => ({ label: s.label, stroke: s.colour, width: px(1.2), dash: PINNED_DASH.map(px), spanGaps: true, points: { show: false } })),
    ],
  };
}

/** Draws a card's head (title, legend) and its chart's image ({ canvas, width, height }, CSS px) at (x, y) of a 2-D context (CSS px). */
function drawCard(g, { card, head, legend }, image, x, y) {
  const w = card.offsetWidth;
  g.fillStyle = '#fff';
  g.fillRect(x, y, w, card.offsetHeight);
  g.textBaseline = 'top';
  g.font = `600 ${FONT}`;
  g.fillStyle = '#223';
  const title = head.querySelector('.plot-title').textContent;
  g.fillText(title, x + 4, y + 3);
  let cx = x + 10 + g.measureText(title).width;
  let cy = y + 3;
  g.font = FONT;
  for (const item of legend.children) {
    const text = item.textContent;
    const width = 12 + g.measureText(text).width + 8;
    if (cx + width > x + w) {
      cx = x + 4;
      cy += 14;
    }
    g.fillStyle = item.querySelector('i').style.background;
    g.fillRect(cx, cy + 2, 9, 9);
    g.fillStyle = '#334';
    g.fillText(text, cx + 12, cy);
    cx += width;
  }
  g.drawImage(image.canvas, x, y + head.offsetHeight, image.width, image.height);
}

export class TimeChart {
  /** q: a quantity (plot_quantities.js); onRemove(key); onPick(time): the user picked a time on the chart. */
  constructor(q, { onRemove, onPick }) {
    this.q = q;
    Object.assign(this, makeCard(q, onRemove));
    this.onPick = onPick;
    this.values = fillLegend(this.legend, q.series.map((s) => s.label));
    this.cursorTime = null;
    this.data = [[], ...q.series.map(() => [])];  // the current run: its times, then each series
    this.shown = this.data;   // what uPlot draws: the current run's, or with the pinned runs' on a joined time base
    this.currentAt = null;    // with pinned runs: per time of the joined base, the current run's index at or before it (-1: none)
    this.pinned = [];         // the pinned runs' series drawn: { run, label, colour }
    this.pinnedKey = '';
    this.size = { width: 300, height: 120 };
    this.makeUPlot();
  }

  /** The uPlot of the current series and the pinned ones (made again when the pinned series change). */
  makeUPlot() {
    this.chart?.destroy();
    this.chart = new uPlot(
      {
        ...timeOptions(this.q, 1, this.size.width, this.size.height, this.pinned),
        // While the timeline scrubs, the cursor stays at its time (the pointer over the chart does not
        // move it; pressing moves the timeline, and the cursor with it); otherwise it follows the pointer.
        cursor: {
          y: false,
          drag: { x: false, y: false, setScale: false },
          points: { size: 5 },
          move: (u, left, top) => (this.cursorTime === null || !this.data[0].length ? [left, top] : [u.valToPos(this.cursorTime, 'x'), top]),
        },
        hooks: { setCursor: [(u) => this.showValues(u.cursor.idx)] },
      },
      this.shown,
      this.body,
    );
    // Pressing (and dragging) on the chart picks a time: the timeline moves there.
    const over = this.chart.over;
    const pick = (e) => {
      if (e.buttons & 1) this.onPick(this.chart.posToVal(e.offsetX, 'x'));
    };
    over.addEventListener('pointerdown', pick);
    over.addEventListener('pointermove', pick);
  }

  get element() {
    return this.card;
  }

  setSize(width, height) {
    this.size = { width, height: Math.max(60, height) };
    this.chart.setSize(this.size);
  }

  /** The quantity's columns from the telemetry, every k-th row (unit-converted, angles continuous), and
   * with `compare` (plots.js) each pinned run's, every time on its joined base. */
  setData(telemetry, k, compare = null) {
    const t = [];
    for (let i = 0; i < telemetry.rows; i += k) t.push(telemetry.value(i, 0));
    this.data = [t, ...this.q.series.map((s) => seriesValues(this.q, s, telemetry, k))];
    const runs = pinnedSeries(compare, this.q.key).filter((r) => r.q);
    const pinned = runs.flatMap(({ run, q }) => q.series.map((s) => ({ run, label: `${run.label}: ${s.label}`, colour: run.colour })));
    const key = pinned.map((p) => `${p.run.n} ${p.colour} ${p.label}`).join('\n');
    const changed = key !== this.pinnedKey;  // other pinned series: uPlot is made again with their options
    if (changed) {
      this.pinnedKey = key;
      this.pinned = pinned;
      this.values = fillLegend(this.legend, this.q.series.map((s) => s.label), runs.map(({ run }) => run));
      this.legendChanged = true;
    }
    if (compare) {
      const n = compare.x.length;
      this.shown = [compare.x, ...this.data.slice(1).map((v) => spread(v, compare.current, n))];
      for (const { run, k: kr, slots, q } of runs) for (const s of q.series) this.shown.push(spread(seriesValues(q, s, run.telemetry, kr), slots, n));
      this.currentAt = new Int32Array(n).fill(-1);
      compare.current.forEach((slot, j) => (this.currentAt[slot] = j));
      for (let i = 1; i < n; i++) if (this.currentAt[i] < 0) this.currentAt[i] = this.currentAt[i - 1];
    } else {
      this.shown = this.data;
      this.currentAt = null;
    }
    if (changed) this.makeUPlot();
    else this.chart.setData(this.shown);
    this.applyCursor();
  }

  /** The cursor at a time (s), or none (null): the legend then shows the newest values. */
  setCursor(time) {
    this.cursorTime = time;
    this.applyCursor();
  }

  applyCursor() {
    const u = this.chart;
    if (this.cursorTime === null || !this.data[0].length) {
      if (u.cursor.left >= 0 && !this.hovered()) u.setCursor({ left: -10, top: -10 });
      this.showValues(null);
      return;
    }
    u.setCursor({ left: u.valToPos(this.cursorTime, 'x'), top: u.bbox.height / uPlot.pxRatio / 2 });
  }

  hovered() {
    return this.chart.over.matches(':hover');
  }

  /** Index of the current run's sample shown in the legend: at the cursor's (uPlot's index, of the
   * joined times with pinned runs) or before it, or the newest; null for none. */
  shownIndex(idx) {
    if (idx === null || idx === undefined) return this.data[0].length ? this.data[0].length - 1 : null;
    const i = this.currentAt ? this.currentAt[idx] : idx;
    return i >= 0 ? i : null;
  }

  showValues(idx) {
    const i = this.shownIndex(idx);
    this.values.forEach((el, j) => {
      el.textContent = i === null ? '–' : formatValue(this.data[j + 1][i]);
    });
  }

  /** What the tests read: size, series, points and the cursor's time and values. */
  snapshot() {
    const cursorIdx = this.chart.cursor.idx;
    const idx = cursorIdx === null || cursorIdx === undefined ? null : this.shownIndex(cursorIdx);
    const atCursor = this.cursorTime !== null && idx !== null;
    const last = this.data[0].length - 1;
    return {
      key: this.q.key,
      title: titleWithUnit(this.q),
      columns: this.q.series.map((s) => s.name),
      width: this.chart.width,
      height: this.chart.height,
      points: this.data[0].length,
      last: last >= 0 ? this.data.slice(1).map((v) => v[last]) : [],
      cursor: atCursor ? { time: this.data[0][idx], values: this.data.slice(1).map((v) => v[idx]) } : null,
      pinned: pinnedSummary(this.pinned, this.shown.slice(1 + this.q.series.length)),
    };
  }

  /** Draws the card into a 2-D context at (x, y) (CSS px) whose pixels are `ratio` per CSS px: the
   * chart drawn again for it by an uPlot of its own, every length scaled (text and lines stay sharp). */
  drawInto(g, x, y, ratio) {
    const scale = ratio / uPlot.pxRatio;
    const { width, height } = this.chart;
    const options = timeOptions(this.q, scale, width * scale, height * scale, this.pinned);
    const u = new uPlot({ ...options, cursor: { show: false } }, this.shown, (self, init) => self.batch(init));
    drawCard(g, this, { canvas: u.ctx.canvas, width, height }, x, y);
    if (this.cursorTime !== null && this.data[0].length) {
      // The cursor line (an HTML element on the page) drawn into the image.
      const css = (v) => v / uPlot.pxRatio / scale;  // the copy's canvas pixels → the card's CSS px
      const left = x + css(u.bbox.left) + u.valToPos(this.cursorTime, 'x') / scale;
      const top = y + this.head.offsetHeight + css(u.bbox.top);
      g.strokeStyle = '#607080';
      g.setLineDash([4, 3]);
      g.beginPath();
      g.moveTo(left, top);
      g.lineTo(left, top + css(u.bbox.height));
      g.stroke();
      g.setLineDash([]);
    }
    u.destroy();
  }

  destroy() {
    this.chart.destroy();
  }
}

export class SideChart {
  constructor(q, { onRemove }) {
    this.q = q;
    Object.assign(this, makeCard(q, onRemove));
    this.canvas = document.createElement('canvas');
    this.body.append(this.canvas);
    this.cursorTime = null;
    this.width = 300;
    this.height = 120;
    this.telemetry = null;
    this.k = 1;
    this.values = [];
    this.pinned = [];  // the pinned runs' paths: { run, k, telemetry, wheels }
  }

  get element() {
    return this.card;
  }

  setSize(width, height) {
    this.width = width;
    this.height = Math.max(60, height);
    const r = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.width * r);
    this.canvas.height = Math.round(this.height * r);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${this.height}px`;
    this.draw();
  }

  /** The wheels drawn of a run: the left ones (y ≥ 0 at the start), or every wheel without a y column. */
  static leftWheels(wheels, telemetry) {
    return telemetry.rows ? wheels.filter((w) => w.y < 0 || telemetry.value(0, w.y) >= -1e-9) : [];
  }

  /** The run's paths every k-th row, and with `compare` (plots.js) each pinned run's, from its own columns. */
  setData(telemetry, k, compare = null) {
    this.telemetry = telemetry;
    this.k = k;
    const left = SideChart.leftWheels(this.q.wheels, telemetry);
    this.pinned = pinnedSeries(compare, this.q.key)
      .filter((r) => r.q)
      .map(({ run, k: kr, q }) => ({ run, k: kr, telemetry: run.telemetry, wheels: SideChart.leftWheels(q.wheels, run.telemetry) }));
    const key = [...left.map((w) => w.label), ...this.pinned.map((p) => `${p.run.n} ${p.run.colour} ${p.run.label}`)].join('\n');
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.shown = left;
      this.values = fillLegend(this.legend, left.map((w) => w.label), this.pinned.map((p) => p.run));
      this.legendChanged = true;
    }
    this.draw();
  }

  setCursor(time) {
    this.cursorTime = time;
    this.draw();
  }

  /** The row at or just before the cursor's time (binary search), or the newest. */
  cursorRow() {
    const tel = this.telemetry;
    if (!tel?.rows) return null;
    if (this.cursorTime === null) return tel.rows - 1;
    let lo = 0;
    let hi = tel.rows - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tel.value(mid, 0) <= this.cursorTime) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Draws the paths on its canvas and the values at the cursor (or the newest) in the legend. */
  draw() {
    const row = this.paint(this.canvas, window.devicePixelRatio || 1);
    if (row === null) return;
    const wheels = this.shown;
    this.values.forEach((el, j) => {
      el.textContent = `${formatValue(this.telemetry.value(row, wheels[j].x))}, ${formatValue(this.telemetry.value(row, wheels[j].z))}`;
    });
  }

  /** Paints the chart on a canvas of `ratio` pixels per CSS px; returns the row marked (the cursor's), or null with nothing to draw. */
  paint(canvas, ratio) {
    const g = canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, this.width, this.height);
    const tel = this.telemetry;
    const wheels = this.shown ?? [];
    if (!tel?.rows || !wheels.length) return null;
    const k = this.k;
    const at = (i, col) => tel.value(i, col);
    // Every path drawn: the pinned runs' (dashed, in their colours), then the current run's.
    const paths = [
      ...this.pinned.flatMap((p) => p.wheels.map((wheel) => ({ tel: p.telemetry, k: p.k, wheel, colour: p.run.colour, dash: PINNED_DASH }))),
      ...wheels.map((wheel, j) => ({ tel, k, wheel, colour: PALETTE[j % PALETTE.length], dash: [] })),
    ];
    let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    for (const { tel: pt, k: pk, wheel: w } of paths)
      for (let i = 0; i < pt.rows; i += pk) {
        const x = pt.value(i, w.x), z = pt.value(i, w.z);
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); z0 = Math.min(z0, z); z1 = Math.max(z1, z);
      }
    if (!(x1 >= x0)) return null;
    // Equal scales on x and z (the paths' true shape), the ranges widened to fill the plot.
    g.font = FONT;
    const zLabels = formatTicks(ticks(z0 - 0.05, z1 + 0.05, 5));
    const left = 16 + Math.max(...zLabels.map((s) => g.measureText(s).width)) + 6;
    const box = { left, top: 6, right: this.width - 10, bottom: this.height - 30 };
    const w = Math.max(10, box.right - box.left);
    const h = Math.max(10, box.bottom - box.top);
    const s = Math.min(w / Math.max(x1 - x0 + 0.1, 0.2), h / Math.max(z1 - z0 + 0.1, 0.2));
    const cx = (x0 + x1) / 2, cz = (z0 + z1) / 2;
    const X = (x) => box.left + w / 2 + (x - cx) * s;
    const Z = (z) => box.top + h / 2 - (z - cz) * s;
    const xMin = cx - w / 2 / s, xMax = cx + w / 2 / s, zMin = cz - h / 2 / s, zMax = cz + h / 2 / s;
    // Grid, ticks and labels.
    g.lineWidth = 1;
    g.strokeStyle = GRID.stroke;
    g.fillStyle = AXIS_COLOR;
    g.textBaseline = 'top';
    g.textAlign = 'center';
    const xt = ticks(xMin, xMax, Math.max(2, Math.floor(w / 60)));
    formatTicks(xt).forEach((label, i) => {
      const px = Math.round(X(xt[i])) + 0.5;
      g.beginPath(); g.moveTo(px, box.top); g.lineTo(px, box.bottom + 3); g.stroke();
      g.fillText(label, px, box.bottom + 5);
    });
    g.fillText('x (m)', box.left + w / 2, box.bottom + 17);
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    const zt = ticks(zMin, zMax, Math.max(2, Math.floor(h / 30)));
    formatTicks(zt).forEach((label, i) => {
      const pz = Math.round(Z(zt[i])) + 0.5;
      g.beginPath(); g.moveTo(box.left - 3, pz); g.lineTo(box.right, pz); g.stroke();
      g.fillText(label, box.left - 5, pz);
    });
    g.save();
    g.translate(2, box.top + h / 2);
    g.rotate(-Math.PI / 2);
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.fillText('z (m)', 0, 0);
    g.restore();
    g.strokeStyle = AXIS_COLOR;
    g.strokeRect(box.left + 0.5, box.top + 0.5, w, h);
    // The paths, and each wheel's centre at the cursor (or the newest).
    const row = this.cursorRow();
    g.save();
    g.beginPath();
    g.rect(box.left, box.top, w, h);
    g.clip();
    g.lineWidth = 1.2;
    for (const { tel: pt, k: pk, wheel, colour, dash } of paths) {
      g.strokeStyle = colour;
      g.setLineDash(dash);
      g.beginPath();
      for (let i = 0; i < pt.rows; i += pk) {
        if (i === 0) g.moveTo(X(pt.value(i, wheel.x)), Z(pt.value(i, wheel.z)));
        else g.lineTo(X(pt.value(i, wheel.x)), Z(pt.value(i, wheel.z)));
      }
      g.stroke();
    }
    g.setLineDash([]);
    wheels.forEach((wheel, j) => {
      g.fillStyle = PALETTE[j % PALETTE.length];
      g.beginPath();
      g.arc(X(at(row, wheel.x)), Z(at(row, wheel.z)), this.cursorTime === null ? 2.5 : 4, 0, 2 * Math.PI);
      g.fill();
    });
    g.restore();
    return row;
  }

  snapshot() {
    const row = this.cursorRow();
    return {
      key: this.q.key,
      title: titleWithUnit(this.q),
      columns: (this.shown ?? []).flatMap((w) => [this.telemetry.columns[w.x], this.telemetry.columns[w.z]]),
      width: this.width,
      height: this.height,
      points: this.telemetry?.rows ? Math.ceil(this.telemetry.rows / this.k) : 0,
      last: [],
      cursor: this.cursorTime !== null && row !== null ? { time: this.telemetry.value(row, 0), values: [] } : null,
      pinned: this.pinned.map((p) => ({ run: p.run.n, label: p.run.label, series: p.wheels.length, points: Math.ceil(p.telemetry.rows / p.k) })),
    };
  }

  /** Draws the card into a 2-D context at (x, y) (CSS px) whose pixels are `ratio` per CSS px. */
  drawInto(g, x, y, ratio) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(this.width * ratio);
    canvas.height = Math.round(this.height * ratio);
    this.paint(canvas, ratio);
    drawCard(g, this, { canvas, width: this.width, height: this.height }, x, y);
  }

  destroy() {}
}
