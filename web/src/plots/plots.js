// The plot dock under the 3-D view: charts of the run's telemetry ([GKS2025]'s
// section pitch and wheel-centre paths, wheel loads, tangential forces and
// slip, body contact forces, base roll and pitch by default), and any other
// quantity or column picked in "Add a chart" (plot_quantities.js groups the
// columns by their names). The dock opens and closes, grows by its grip or
// the Enlarge button (the view keeps MIN_VIEW_PX), and lays its charts out
// in a grid that fills it. While the timeline scrubs, every chart shows a
// cursor at its time (the legends show the values there); pressing on a
// chart moves the timeline there. A controller program's plot values come as
// more columns while the run plays (setColumns): a chart per unit of them is
// put first. A chart added is scrolled into view; one
// picked again is scrolled to, with a note that it is shown. PNG draws the
// charts, titles and legends into one image at print resolution. The
// pinned runs shown (pinned_runs.js, signal pinsChanged) are drawn in every
// chart with the current run, on one time base joining theirs. The
// charts' state is published as state.plots for the browser tests. The dock
// is laid out with the page; the charts (plot_charts.js, uPlot) are loaded
// once the page's first frame is drawn (`whenDrawn`) and made then.
import { download } from '../common/files.js';
import { exportName } from '../common/export_names.js';
import { joinTimes } from '../runs/pinned_data.js';
import { DEFAULT_KEYS, PLOT_PREFIX, quantities, titleWithUnit } from './plot_quantities.js';
import './plots.css';

const MAX_POINTS = 1500;   // points per series drawn (every k-th sample beyond)
const MIN_VIEW_PX = 220;   // the 3-D view keeps at least this height
const MIN_DOCK_PX = 140;   // an open dock's smallest height
const CELL_MIN_W = 360;    // a chart's narrowest width (px) before the grid drops a column
const CELL_ROW_H = 280;    // the dock shows another row of charts at once for each such height (px)
const GAP = 6;             // between charts (px)
const PNG_SCALE = 2;       // the PNG's pixels per device pixel: print resolution (2 per CSS px on a 1× screen)
const PNG_MAX_PX = 16384;  // the PNG's largest side (a canvas's limit in browsers)
const NOTE_MS = 4000;      // how long the bar's note stays
const DOCK_TABS = ['sim', 'controller'];  // the side panel's tabs that leave the dock under the view

export class Plots {
  /** dock: the #plot-dock element; state: the app state (state.plots is written); signals: the app's;
   * whenDrawn: a promise after which the charts are loaded (the page's first frame; at once without it). */
  constructor(dock, { state, signals, whenDrawn = Promise.resolve() } = {}, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { dock, state, signals, $ });
    this.chartKinds = null;  // plot_charts.js once loaded
    this.body = dock.querySelector('#plots');
    this.picker = dock.querySelector('#plot-add');
    this.charts = [];
    this.keys = [...DEFAULT_KEYS];
    this.list = [];
    this.telemetry = null;
    this.pins = [];          // the pinned runs shown with the current one (pinned_runs.js)
    this.open = true;
    this.height = null;      // the open dock's height (px); null: the default for the window
    this.restHeight = null;  // the height before Enlarge
    this.cursorTime = null;

    dock.querySelector('#plot-toggle').addEventListener('click', () => this.setOpen(!this.open));
    dock.querySelector('#plot-max').addEventListener('click', () => this.toggleEnlarged());
    dock.querySelector('#plot-reset').addEventListener('click', () => {
      this.keys = [...DEFAULT_KEYS];
      this.build();
    });
    dock.querySelector('#plot-png').addEventListener('click', () => this.exportPng());
    // A chart picked with the mouse is added at once and the keys drive the robot again; with the
    // keyboard, the arrows go through the list and Enter adds the chart (the picker keeps the focus).
    let byPointer = false;
    const pick = () => {
      const key = this.picker.value;
      this.picker.value = '';
      if (key) this.addChart(key);
    };
    this.picker.addEventListener('pointerdown', () => {
      byPointer = true;
    });
    this.picker.addEventListener('change', () => {
      if (!byPointer) return;
      byPointer = false;
      pick();
      this.picker.blur();
    });
    this.picker.addEventListener('keydown', (e) => {
      byPointer = false;
      if (e.key === 'Enter') pick();
    });
    // A button pressed with the mouse gives the keys back to driving (Space would press it again).
    for (const button of dock.querySelectorAll('#plot-bar button')) button.addEventListener('pointerup', () => button.blur());
    this.wireGrip(dock.querySelector('#plot-grip'));
    new ResizeObserver(() => this.layout()).observe(this.body);
    window.addEventListener('resize', () => this.applyHeight());
    signals?.scrubbed.add((t) => this.setCursor(t));
    signals?.pinsChanged.add((runs) => {
      this.pins = runs.filter((r) => r.shown);
      if (this.telemetry) this.update(this.telemetry);
    });
    signals?.tabChanged.add((tab) => {
      dock.hidden = !DOCK_TABS.includes(tab);  // the other tabs need the view
      if (!dock.hidden && this.telemetry) this.update(this.telemetry);
      this.publish();
    });
    this.applyHeight();
    // Resolves once the charts are loaded (and made, for a model there by then).
    this.chartsLoaded = whenDrawn
      .then(() => import('./plot_charts.js'))
      .then((kinds) => {
        this.chartKinds = kinds;
        if (this.model) this.build();
      });
  }

  /** Builds the charts for a model's telemetry columns (the charts picked before stay when the columns have them). */
  setModel(model) {
    this.model = model;
    this.telemetry = null;
    this.cursorTime = null;
    this.list = quantities(model.columns, model.wheels.map((w) => w.name));
    this.fillPicker();
    this.build();
  }

  /**
   * The run's telemetry gained columns (a controller program's plot values, `plot.NAME`):
   * they are offered in Add a chart, and a chart of each unit they bring first shows at the top.
   */
  setColumns(columns) {
    const before = new Set(this.list.map((q) => q.key));
    this.list = quantities(columns, this.model.wheels.map((w) => w.name));
    const added = this.list.filter((q) => !before.has(q.key) && q.series?.every((s) => s.name.startsWith(PLOT_PREFIX)) && !q.single);
    this.keys = [...added.map((q) => q.key).filter((k) => !this.keys.includes(k)), ...this.keys];
    this.fillPicker();
    this.build();
  }

  /** Redraws every chart from the telemetry (telemetry.js). */
  update(telemetry) {
    this.telemetry = telemetry;
    if (!this.open || this.dock.hidden || !this.chartKinds) return;  // drawn when shown again, or once made
    const k = Math.max(1, Math.ceil(telemetry.rows / MAX_POINTS));
    this.cursorTime = this.state?.scrubbing ? this.state.scrubTime : null;
    const compare = this.compareWith(telemetry, k);
    for (const c of this.charts) {
      c.cursorTime = this.cursorTime;
      c.setData(telemetry, k, compare);
    }
    // A legend filled anew (the side view's, once it knows its wheels): the charts laid out again.
    if (this.charts.some((c) => c.legendChanged)) this.layout();
    this.showCursorTime();
    this.publish();
  }

  /**
   * The pinned runs to draw with the current one's rows (every k-th), or null
   * with none: { x, current, runs: [{ run, k, slots }] }, x the times of all of
   * them joined, current and slots where each run's drawn rows (every k-th of
   * its own, at most MAX_POINTS) fall in x.
   */
  compareWith(telemetry, k) {
    if (!this.pins.length) return null;
    const times = (tel, every) => {
      const t = [];
      for (let i = 0; i < tel.rows; i += every) t.push(tel.value(i, 0));
      return t;
    };
    const runs = this.pins.map((run) => ({ run, k: Math.max(1, Math.ceil(run.telemetry.rows / MAX_POINTS)) }));
    const { x, slots } = joinTimes([times(telemetry, k), ...runs.map((r) => times(r.run.telemetry, r.k))]);
    return { x, current: slots[0], runs: runs.map((r, i) => ({ ...r, slots: slots[i + 1] })) };
  }

  /** The cursor at a time (s) on every chart, or none (null). */
  setCursor(time) {
    this.cursorTime = time;
    for (const c of this.charts) c.setCursor(time);
    this.showCursorTime();
    this.publish();
  }

  showCursorTime() {
    this.dock.querySelector('#plot-cursor').textContent =
      this.cursorTime === null ? '' : `cursor t = ${this.cursorTime.toFixed(3)} s`;
  }

  fillPicker() {
    const p = this.picker;
    p.textContent = '';
    p.append(new Option('Add a chart…', ''));
    const groups = [
      ['Quantities', this.list.filter((q) => !q.single)],
      ['One column', this.list.filter((q) => q.single)],
    ];
    for (const [label, items] of groups) {
      const g = document.createElement('optgroup');
      g.label = label;
      for (const q of items) g.append(new Option(q.single ? q.title : `${q.title}${q.unit ? ` (${q.unit})` : ''}`, q.key));
      p.append(g);
    }
  }

  /** The charts of this.keys that the model's columns have (a program's plot charts once its values come). */
  build() {
    if (!this.chartKinds) return;  // made (and published) once they are loaded
    for (const c of this.charts) c.destroy();
    this.charts = [];
    this.body.textContent = '';
    for (const key of this.keys) this.makeChart(key);
    this.layout();
    if (this.telemetry) this.update(this.telemetry);
    else this.publish();
  }

  makeChart(key) {
    const q = this.list.find((x) => x.key === key);
    if (!q) return null;
    const handlers = {
      onRemove: (k) => this.removeChart(k),
      onPick: (time) => this.pickTime(time),
    };
    const { SideChart, TimeChart } = this.chartKinds;
    const chart = q.key === 'side_view' ? new SideChart(q, handlers) : new TimeChart(q, handlers);
    chart.cursorTime = this.cursorTime;
    this.body.append(chart.element);
    this.charts.push(chart);
    return chart;
  }

  /** Adds a quantity's chart, or says it is shown already; either way the dock scrolls to it. */
  addChart(key) {
    const shown = this.charts.find((c) => c.q.key === key);
    if (shown) this.note(`${titleWithUnit(shown.q)} is already shown`);
    else if (!this.chartKinds) {
      if (!this.keys.includes(key)) this.keys.push(key);  // made with the others once they are loaded
      return this.publish();
    } else {
      this.keys.push(key);
      this.makeChart(key);
      this.layout();
      if (this.telemetry) this.update(this.telemetry);
      else this.publish();
    }
    if (!this.open) this.setOpen(true);
    this.scrollTo(shown ?? this.charts[this.charts.length - 1]);
  }

  /** Scrolls the dock (only the dock) so that a chart's card is in view, whole when it fits. */
  scrollTo(chart) {
    const card = chart.element.getBoundingClientRect();
    const box = this.body.getBoundingClientRect();
    const below = card.bottom - box.bottom;
    const above = card.top - box.top;
    if (above < 0) this.body.scrollTop += above - GAP;
    else if (below > 0) this.body.scrollTop += Math.min(below + GAP, above - GAP);
  }

  /** A short note in the dock's bar (cleared after NOTE_MS). */
  note(text) {
    const el = this.dock.querySelector('#plot-note');
    el.textContent = text;
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => {
      el.textContent = '';
    }, NOTE_MS);
  }

  removeChart(key) {
    this.keys = this.keys.filter((k) => k !== key);
    const i = this.charts.findIndex((c) => c.q.key === key);
    if (i < 0) return;
    const [chart] = this.charts.splice(i, 1);
    chart.destroy();
    chart.element.remove();
    this.layout();
    this.publish();
  }

  /** A time picked on a chart: the run shows it (run.js scrubs there). */
  pickTime(time) {
    this.signals?.scrubRequested.dispatch(time);
  }

  // ------------------------------------------------------------ size

  /** The height the dock and the view share (px). */
  available() {
    const stage = this.$('stage');
    return (stage?.offsetHeight ?? 0) + (this.dock.hidden ? 0 : this.dock.offsetHeight);
  }

  maxHeight() {
    return Math.max(MIN_DOCK_PX, this.available() - MIN_VIEW_PX);
  }

  defaultHeight() {
    return Math.round(Math.min(Math.max(0.36 * this.available(), 200), 360));
  }

  applyHeight() {
    this.dock.classList.toggle('open', this.open);
    this.dock.querySelector('#plot-toggle').setAttribute('aria-expanded', String(this.open));
    this.dock.querySelector('#plot-toggle').textContent = this.open ? '▾ Plots' : '▸ Plots';
    if (!this.open) {
      this.dock.style.height = '';
      this.publish();
      return;
    }
    const enlarged = this.restHeight !== null;  // enlarged, the dock follows the window's height
    const h = Math.round(Math.min(Math.max(enlarged ? Infinity : (this.height ?? this.defaultHeight()), MIN_DOCK_PX), this.maxHeight()));
    this.dock.style.height = `${h}px`;
    this.dock.querySelector('#plot-max').textContent = enlarged ? '⤡ Smaller' : '⤢ Enlarge';
    this.publish();
  }

  setOpen(open) {
    this.open = open;
    this.applyHeight();
    if (open && this.telemetry) this.update(this.telemetry);
  }

  /** Enlarge: the dock takes all but MIN_VIEW_PX of the height; again: back to the height before. */
  toggleEnlarged() {
    if (this.restHeight !== null) {
      this.height = this.restHeight;
      this.restHeight = null;
    } else {
      this.restHeight = this.height ?? this.defaultHeight();
    }
    this.open = true;
    this.applyHeight();
  }

  /** Dragging the grip (the dock's top edge) sets its height. */
  wireGrip(grip) {
    let start = null;
    grip.addEventListener('pointerdown', (e) => {
      start = { y: e.clientY, h: this.dock.offsetHeight };
      grip.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    grip.addEventListener('pointermove', (e) => {
      if (!start) return;
      this.open = true;
      this.restHeight = null;
      this.height = start.h + (start.y - e.clientY);
      this.applyHeight();
    });
    const end = () => {
      start = null;
    };
    grip.addEventListener('pointerup', end);
    grip.addEventListener('pointercancel', end);
  }

  /** Charts in a grid filling the dock's width; as many rows at once as its height holds. */
  layout() {
    if (!this.open || this.dock.hidden) return;
    const W = this.body.clientWidth;
    const H = this.body.clientHeight;
    const n = this.charts.length;
    if (!n || W <= 0 || H <= 0) return;
    const cols = Math.max(1, Math.min(n, Math.floor((W + GAP) / (CELL_MIN_W + GAP))));
    const rows = Math.max(1, Math.min(Math.ceil(n / cols), Math.floor((H + GAP) / (CELL_ROW_H + GAP))));
    const cellW = Math.floor((W - (cols - 1) * GAP) / cols);
    const cellH = Math.max(100, Math.floor((H - (rows - 1) * GAP) / rows));
    this.body.style.gridTemplateColumns = `repeat(${cols}, ${cellW}px)`;
    this.body.style.gridAutoRows = `${cellH}px`;
    // Each head keeps the height its title and legend take now (values have a fixed width):
    // a value that makes the legend wrap clips the legend, never the chart.
    for (const c of this.charts) c.head.style.height = '';
    const heads = this.charts.map((c) => c.head.offsetHeight);
    this.charts.forEach((c, i) => {
      c.head.style.height = `${heads[i]}px`;
      c.legendChanged = false;
      c.setSize(cellW - 2, cellH - heads[i] - 2);
    });
    this.publish();
  }

  // ------------------------------------------------------------ export, tests

  /** The charts as one PNG image at print resolution (PNG_SCALE × the device's pixels): a title line,
   * then each card where it stands in the dock, each chart drawn again at that resolution. */
  exportPng(date = new Date()) {
    const body = this.body;
    if (!this.charts.length) return;
    const top = 22;
    const width = body.scrollWidth;
    const height = top + Math.max(...this.charts.map((c) => c.element.offsetTop + c.element.offsetHeight)) + 4;
    const r = Math.min(PNG_SCALE * (window.devicePixelRatio || 1), PNG_MAX_PX / Math.max(width, height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * r);
    canvas.height = Math.round(height * r);
    const g = canvas.getContext('2d');
    g.scale(r, r);
    g.fillStyle = '#f6f8fa';
    g.fillRect(0, 0, width, height);
    g.fillStyle = '#223';
    g.font = '600 12px system-ui, sans-serif';
    g.textBaseline = 'top';
    const tel = this.telemetry;
    const range = tel?.rows ? `, t = ${tel.value(0, 0).toFixed(2)} … ${tel.value(tel.rows - 1, 0).toFixed(2)} s` : '';
    const cursor = this.cursorTime === null ? '' : `, cursor at t = ${this.cursorTime.toFixed(3)} s`;
    g.fillText(`Roverlab · ${this.state?.scenario?.name ?? this.model?.name ?? ''}${range}${cursor}`, 6, 5);
    for (const c of this.charts) c.drawInto(g, c.element.offsetLeft, top + c.element.offsetTop, r);
    canvas.toBlob((blob) => {
      if (blob) download(exportName(this.state?.scenario?.name ?? this.model?.name, date, 'png', 'plots'), blob, 'image/png');
    }, 'image/png');
  }

  /** state.plots: the dock and its charts, plain data (test_hooks.js publishes it). */
  publish() {
    if (!this.state) return;
    this.state.plots = {
      open: this.open,
      hidden: this.dock.hidden,
      height: this.dock.offsetHeight,
      keys: [...this.keys],
      quantities: this.list.map((q) => q.key),
      cursorTime: this.cursorTime,
      charts: this.charts.map((c) => c.snapshot()),
    };
  }
}
