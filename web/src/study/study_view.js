// A study's results drawn as they come: a heat map for two parameters (a
// cell per pair of values, coloured by the predicate's answer or by a
// measure; a study of more parameters shows the slice picked for the
// others), points on a curve for one parameter (the measure against it,
// each point coloured by the predicate), and for a threshold search the
// threshold against a parameter, one curve per combination of the others,
// with each run of the searches as a dot at the value it tried. Hovering
// tells a cell's or a point's run; clicking one calls onPick with it.
// plotModel is pure (what to draw); StudyPlot draws it on a canvas.
import { formatValue, ticks } from '../plots/plot_format.js';

export const YES = '#2b6cb0';
export const NO = '#e8923a';
const FAILED = '#8a939c';
const PENDING = '#e9edf1';
const INK = '#223';
const GRID = '#d5dce3';
const GROUP_COLOURS = ['#2b6cb0', '#d1401f', '#2e9e44', '#8e44ad', '#c98a00', '#17a2b8', '#6c757d', '#e83e8c', '#5d4037', '#1b5e20'];
const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

/** Viridis at t in [0, 1]. */
export function viridis(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const [a, b] = [hex(VIRIDIS[i]), hex(VIRIDIS[i + 1])];
  const f = x - i;
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * f)).join(', ')})`;
}

/**
 * Tick labels with as many decimals as their step needs and no SI prefix (a study's
 * measures carry their unit in their names: 0.00065 m stays 0.00065, not 0.65m); very
 * small or large numbers in exponent form.
 */
export function tickLabels(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  if (!finite.length) return values.map(() => '');
  const largest = Math.max(...finite.map(Math.abs));
  let step = Infinity;
  for (let i = 1; i < finite.length; i++) step = Math.min(step, Math.abs(finite[i] - finite[i - 1]));
  if (!(step > 0) || !Number.isFinite(step)) step = largest || 1;
  if (largest >= 1e6 || (largest > 0 && largest < 1e-4)) {
    const digits = Math.min(4, Math.max(0, Math.ceil(Math.log10(largest / step))));
    return values.map((v) => (v === 0 ? '0' : v.toExponential(digits).replace(/\.?0+e/, 'e')));
  }
  let decimals = 0;
  while (decimals < 10 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6 * step * 10 ** decimals) decimals++;
  return values.map((v) => {
    const text = v.toFixed(decimals);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  });
}

/** A value as an axis or a tooltip shows it. */
export const showValue = (v) => (typeof v === 'number' ? formatValue(v) : v === null || v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));

/** A value as a Map key: numbers as they are, other values by their JSON. */
const keyOf = (v) => (typeof v === 'number' ? v : JSON.stringify(v ?? null));
/** v → its index among `values` (-1 when it is not one), in constant time. */
function indexer(values) {
  const at = new Map();
  values.forEach((v, i) => at.has(keyOf(v)) || at.set(keyOf(v), i));
  return (v) => at.get(keyOf(v)) ?? -1;
}
const numeric = (values) => values.length > 0 && values.every((v) => typeof v === 'number' && Number.isFinite(v));
const ended = (row) => row && row.outcome !== 'refused' && row.outcome !== 'failed';

/** An axis title: the path and its unit. */
const titleOf = (path, units) => (units?.[path] && units[path] !== '-' ? `${path} (${units[path]})` : path);

/**
 * What to draw for `results` (StudyResults) with options { predicate, measure, colourBy ('predicate' |
 * 'measure'), x, y (parameter indices), slice ({ k: value index } for the other parameters), units ({ path:
 * unit }), measureUnit }: { kind: 'empty' | 'heatmap' | 'curve' | 'threshold', ... }.
 */
export function plotModel(results, options = {}) {
  if (!results) return { kind: 'empty', message: 'Run the study to see its results here.' };
  const { parsed } = results;
  const params = parsed.parameters;
  const units = options.units ?? {};
  const x = Math.min(Math.max(0, options.x ?? 0), Math.max(0, params.length - 1));
  if (results.threshold) return thresholdModel(results, options, x, units);
  if (params.length >= 2) {
    const y = options.y !== undefined && options.y !== x && options.y < params.length ? options.y : x === 0 ? 1 : 0;
    return heatmapModel(results, options, x, y, units);
  }
  return curveModel(results, options, units);
}

// The grid indices whose other parameters (not in `free`) take the slice's values; repeat 0 of each.
function inSlice(results, free, slice) {
  const { grid, parsed } = results;
  const wanted = parsed.parameters.map((p, k) => (free.includes(k) ? null : keyOf(p.values[slice?.[k] ?? 0])));
  return grid
    .map((run, index) => ({ run, index }))
    .filter(({ run }) => run.repeat === 0 && wanted.every((w, k) => w === null || keyOf(run.values[k]) === w));
}

function heatmapModel(results, options, x, y, units) {
  const { parsed } = results;
  const [px, py] = [parsed.parameters[x], parsed.parameters[y]];
  const byMeasure = options.colourBy === 'measure';
  const [xOf, yOf] = [indexer(px.values), indexer(py.values)];
  const cells = inSlice(results, [x, y], options.slice).map(({ run, index }) => {
    const row = results.results[index];
    return {
      index,
      xi: xOf(run.values[x]),
      yi: yOf(run.values[y]),
      row,
      yes: row && ended(row) ? row[options.predicate] : null,
      value: row && ended(row) ? row[options.measure] : null,
    };
  });
  const measured = cells.map((c) => c.value).filter((v) => typeof v === 'number' && Number.isFinite(v));
  const range = measured.length ? [Math.min(...measured), Math.max(...measured)] : null;
  return {
    kind: 'heatmap',
    x: { title: titleOf(px.path, units), values: px.values },
    y: { title: titleOf(py.path, units), values: py.values },
    cells,
    byMeasure,
    predicate: options.predicate,
    measure: options.measure,
    range,
  };
}

function curveModel(results, options, units) {
  const { parsed } = results;
  const p = parsed.parameters[0] ?? { path: '(no parameter)', values: [null] };
  const isNumeric = numeric(p.values);
  const xOf = indexer(p.values);
  const points = results.grid.map((run, index) => {
    const row = results.results[index];
    return { index, xv: run.values[0] ?? null, xi: xOf(run.values[0] ?? null), row, yes: row && ended(row) ? row[options.predicate] : null, y: row && ended(row) ? row[options.measure] : null };
  });
  return {
    kind: 'curve',
    x: { title: titleOf(p.path, units), values: p.values, numeric: isNumeric },
    y: { title: options.measure },
    points,
    predicate: options.predicate,
    measure: options.measure,
  };
}

function thresholdModel(results, options, x, units) {
  const { parsed, grid } = results;
  const t = parsed.threshold;
  const params = parsed.parameters;
  const px = params[x] ?? { path: '', values: [null] };
  const xOf = indexer(px.values);
  const others = params.map((_, k) => k).filter((k) => k !== x);
  const groupKey = (run) => JSON.stringify(others.map((k) => run.values[k] ?? null));
  const groups = new Map();
  grid.forEach((run, index) => {
    if (run.repeat !== 0) return;
    const key = groupKey(run);
    if (!groups.has(key)) {
      const label = others.map((k) => `${params[k].path.split('.').pop()} = ${showValue(run.values[k])}`).join(', ');
      groups.set(key, { label: label || `where ${t.predicate} changes`, colour: GROUP_COLOURS[groups.size % GROUP_COLOURS.length], points: [] });
    }
    const answer = results.results[index];
    groups.get(key).points.push({ index, xv: run.values[x] ?? null, xi: xOf(run.values[x] ?? null), answer });
  });
  const list = [...groups.values()];
  const groupOf = new Map(grid.map((run, index) => [index, list.indexOf(groups.get(groupKey(run)))]));
  const runs = results.runs.map(({ combination, row }) => ({
    combination,
    row,
    group: groupOf.get(combination),
    xv: grid[combination].values[x] ?? null,
    xi: xOf(grid[combination].values[x] ?? null),
    y: row[t.path],
    yes: ended(row) ? row[t.predicate] : null,
  }));
  return {
    kind: 'threshold',
    x: { title: params.length ? titleOf(px.path, units) : '', values: px.values, numeric: numeric(px.values) },
    y: { title: titleOf(t.path, units), range: [Math.min(t.from, t.to), Math.max(t.from, t.to)] },
    groups: list,
    runs,
    predicate: t.predicate,
  };
}

/** The colour of a cell or point: its predicate's answer, its measure on the range, or grey (failed, refused) or pale (not run). */
function colourOf(item, model) {
  if (!item.row) return PENDING;
  if (!ended(item.row)) return FAILED;
  if (model.byMeasure) {
    if (typeof item.value !== 'number' || !model.range) return FAILED;
    const [lo, hi] = model.range;
    return viridis(hi > lo ? (item.value - lo) / (hi - lo) : 0.5);
  }
  return item.yes === true ? YES : item.yes === false ? NO : FAILED;
}

/** Dark text on light colours, white on dark ones. */
function inkOn(colour) {
  const rgb = colour.startsWith('#') ? hex(colour) : colour.match(/\d+/g).map(Number);
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] > 140 ? INK : '#fff';
}

/** A linear scale from [d0, d1] to [r0, r1]. */
const linear = (d0, d1, r0, r1) => (v) => (d1 === d0 ? (r0 + r1) / 2 : r0 + ((v - d0) / (d1 - d0)) * (r1 - r0));

/** Every k-th label so that labels `width` px apart do not overlap. */
const every = (count, span, width) => Math.max(1, Math.ceil((count * width) / Math.max(1, span)));

export class StudyPlot {
  /**
   * @param container  the element the plot lives in (its width is the plot's)
   * @param onPick     onPick(target): a cell or point clicked ({ index } of a grid row, or { row, combination } of a search's run)
   */
  constructor(container, onPick) {
    this.container = container;
    this.onPick = onPick;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'study-plot';
    this.tip = document.createElement('div');
    this.tip.className = 'study-tip';
    this.tip.hidden = true;
    container.append(this.canvas, this.tip);
    this.model = { kind: 'empty', message: '' };
    this.targets = [];
    this.hover = null;
    this.describe = () => '';
    this.canvas.addEventListener('mousemove', (e) => this.moved(e));
    this.canvas.addEventListener('mouseleave', () => this.setHover(null));
    this.canvas.addEventListener('click', (e) => {
      const target = this.targetAt(e);
      if (target) this.onPick(target);
    });
  }

  /** Draws `model` (plotModel's); describe(target) gives a target's tooltip lines. */
  show(model, describe) {
    this.model = model;
    this.describe = describe ?? this.describe;
    this.draw();
    // The target under the mouse, found again where the new drawing put it.
    if (this.hover) this.hover = this.targets.find((t) => t.kind === this.hover.kind && t.index === this.hover.index && t.row === this.hover.row) ?? null;
    if (!this.hover) this.tip.hidden = true;
  }

  draw() {
    const { canvas, model } = this;
    const width = Math.max(260, Math.floor(this.container.clientWidth || 520));
    const height = Math.round(Math.min(440, Math.max(240, width * 0.72)));
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    this.targets = [];
    if (model.kind === 'heatmap') this.drawHeatmap(ctx, width, height);
    else if (model.kind === 'curve') this.drawCurve(ctx, width, height);
    else if (model.kind === 'threshold') this.drawThreshold(ctx, width, height);
    else {
      ctx.fillStyle = '#667';
      ctx.textAlign = 'center';
      ctx.fillText(model.message ?? '', width / 2, height / 2);
    }
  }

  /** The legend of yes / no / failed / not run, from x at y; returns where it ends. */
  legend(ctx, entries, x, y) {
    ctx.textAlign = 'left';
    for (const { colour, label, dot } of entries) {
      ctx.fillStyle = colour;
      if (dot) {
        ctx.beginPath();
        ctx.arc(x + 5, y, 4, 0, 2 * Math.PI);
        ctx.fill();
      } else {
        ctx.fillRect(x, y - 5, 10, 10);
        ctx.strokeStyle = '#9aa6b2';
        ctx.strokeRect(x + 0.5, y - 4.5, 9, 9);
      }
      ctx.fillStyle = INK;
      ctx.fillText(label, x + 14, y);
      x += 14 + ctx.measureText(label).width + 12;
    }
    return x;
  }

  answerLegend(predicate, dot = false) {
    return [
      { colour: YES, label: `${predicate}: yes`, dot },
      { colour: NO, label: 'no', dot },
      { colour: FAILED, label: 'refused or failed', dot },
    ];
  }

  axisTitles(ctx, plot, xTitle, yTitle, height) {
    ctx.fillStyle = INK;
    ctx.textAlign = 'center';
    ctx.fillText(xTitle, plot.x + plot.w / 2, height - 10);
    ctx.save();
    ctx.translate(12, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(yTitle, 0, 0);
    ctx.restore();
  }

  drawHeatmap(ctx, width, height) {
    const m = this.model;
    const bar = m.byMeasure ? 70 : 0;
    const plot = { x: 70, y: 34, w: width - 70 - 14 - bar, h: height - 34 - 50 };
    const nx = m.x.values.length;
    const ny = m.y.values.length;
    const cw = plot.w / nx;
    const ch = plot.h / ny;
    this.canvas.dataset.plot = JSON.stringify(plot);  // the cells' area (CSS px), for the tests
    // Legend.
    if (m.byMeasure) this.legend(ctx, [{ colour: FAILED, label: 'refused or failed' }, { colour: PENDING, label: 'not run yet' }], plot.x, 14);
    else this.legend(ctx, [...this.answerLegend(m.predicate), { colour: PENDING, label: 'not run yet' }], plot.x, 14);
    // Cells: y grows upwards.
    for (const cell of m.cells) {
      if (cell.xi < 0 || cell.yi < 0) continue;
      const x0 = plot.x + cell.xi * cw;
      const y0 = plot.y + plot.h - (cell.yi + 1) * ch;
      const colour = colourOf(cell, m);
      ctx.fillStyle = colour;
      ctx.fillRect(x0, y0, cw, ch);
      if (cw >= 8 && ch >= 8) {
        // A white line between cells, where they are large enough to show it.
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 1;
        ctx.strokeRect(x0 + 0.5, y0 + 0.5, cw - 1, ch - 1);
      }
      if (cell.row && !ended(cell.row)) {
        ctx.strokeStyle = '#fff';
        ctx.beginPath();
        ctx.moveTo(x0 + cw / 2 - 5, y0 + ch / 2 - 5);
        ctx.lineTo(x0 + cw / 2 + 5, y0 + ch / 2 + 5);
        ctx.moveTo(x0 + cw / 2 + 5, y0 + ch / 2 - 5);
        ctx.lineTo(x0 + cw / 2 - 5, y0 + ch / 2 + 5);
        ctx.stroke();
      } else if (cell.row && cw >= 40 && ch >= 18) {
        // The answer, and under it the measure when there is room (or the measure alone).
        ctx.fillStyle = inkOn(colour);
        ctx.textAlign = 'center';
        const two = !m.byMeasure && ch >= 38 && cw >= 56 && typeof cell.value === 'number';
        ctx.fillText(m.byMeasure ? showValue(cell.value) : cell.yes ? 'yes' : 'no', x0 + cw / 2, y0 + ch / 2 - (two ? 8 : 0));
        if (two) {
          ctx.font = '11px system-ui, sans-serif';
          ctx.fillText(`${m.measure} ${showValue(cell.value)}`, x0 + cw / 2, y0 + ch / 2 + 8, cw - 6);
          ctx.font = '12px system-ui, sans-serif';
        }
      }
      this.targets.push({ kind: 'cell', x0, y0, x1: x0 + cw, y1: y0 + ch, index: cell.index, item: cell });
    }
    if (this.hover?.kind === 'cell') {
      ctx.strokeStyle = INK;
      ctx.lineWidth = 2;
      ctx.strokeRect(this.hover.x0 + 1, this.hover.y0 + 1, this.hover.x1 - this.hover.x0 - 2, this.hover.y1 - this.hover.y0 - 2);
    }
    // Axes: a label per value, as many as fit.
    ctx.fillStyle = INK;
    ctx.textAlign = 'center';
    const kx = every(nx, plot.w, 46);
    m.x.values.forEach((v, i) => i % kx === 0 && ctx.fillText(showValue(v), plot.x + (i + 0.5) * cw, plot.y + plot.h + 12));
    ctx.textAlign = 'right';
    const ky = every(ny, plot.h, 16);
    m.y.values.forEach((v, i) => i % ky === 0 && ctx.fillText(showValue(v), plot.x - 6, plot.y + plot.h - (i + 0.5) * ch));
    this.axisTitles(ctx, plot, m.x.title, m.y.title, height);
    if (m.byMeasure) this.colourBar(ctx, m, plot.x + plot.w + 16, plot.y, plot.h);
  }

  colourBar(ctx, m, x, y, h) {
    for (let k = 0; k < h; k++) {
      ctx.fillStyle = viridis(1 - k / h);
      ctx.fillRect(x, y + k, 14, 1);
    }
    ctx.strokeStyle = '#9aa6b2';
    ctx.strokeRect(x + 0.5, y + 0.5, 13, h - 1);
    ctx.fillStyle = INK;
    ctx.textAlign = 'left';
    if (m.range) {
      const [lo, hi] = m.range;
      const marks = hi > lo ? ticks(lo, hi, 5) : [lo];
      const labels = tickLabels(marks);
      marks.forEach((v, i) => ctx.fillText(labels[i], x + 18, y + h - (hi > lo ? ((v - lo) / (hi - lo)) * h : h / 2)));
    }
    ctx.save();
    ctx.translate(x + 7, y - 12);
    ctx.textAlign = 'center';
    ctx.fillText(m.measure, 0, 0);
    ctx.restore();
  }

  /** Where x values go: numeric values on a linear scale, others in equal bands. */
  xScale(axis, plot) {
    if (axis.numeric && axis.values.length > 1) {
      const lo = Math.min(...axis.values);
      const hi = Math.max(...axis.values);
      const pad = (hi - lo) * 0.05;
      const s = linear(lo - pad, hi + pad, plot.x, plot.x + plot.w);
      return { at: (v) => s(v), marks: ticks(lo - pad, hi + pad, Math.max(2, Math.floor(plot.w / 70))), band: 0, numeric: true };
    }
    const n = Math.max(1, axis.values.length);
    return { at: (v, i) => plot.x + ((i < 0 ? 0 : i) + 0.5) * (plot.w / n), marks: null, band: plot.w / n, numeric: false };
  }

  xAxis(ctx, axis, scale, plot) {
    ctx.fillStyle = INK;
    ctx.textAlign = 'center';
    if (scale.numeric) {
      const labels = tickLabels(scale.marks);
      scale.marks.forEach((v, i) => {
        const px = scale.at(v);
        ctx.strokeStyle = GRID;
        ctx.beginPath();
        ctx.moveTo(px + 0.5, plot.y);
        ctx.lineTo(px + 0.5, plot.y + plot.h);
        ctx.stroke();
        ctx.fillText(labels[i], px, plot.y + plot.h + 12);
      });
    } else {
      const k = every(axis.values.length, plot.w, 46);
      axis.values.forEach((v, i) => i % k === 0 && ctx.fillText(showValue(v), scale.at(v, i), plot.y + plot.h + 12));
    }
  }

  yAxis(ctx, lo, hi, plot) {
    const marks = ticks(lo, hi, Math.max(2, Math.floor(plot.h / 40)));
    const labels = tickLabels(marks);
    const s = linear(lo, hi, plot.y + plot.h, plot.y);
    ctx.textAlign = 'right';
    marks.forEach((v, i) => {
      ctx.strokeStyle = GRID;
      ctx.beginPath();
      ctx.moveTo(plot.x, Math.round(s(v)) + 0.5);
      ctx.lineTo(plot.x + plot.w, Math.round(s(v)) + 0.5);
      ctx.stroke();
      ctx.fillStyle = INK;
      ctx.fillText(labels[i], plot.x - 6, s(v));
    });
    ctx.strokeStyle = '#9aa6b2';
    ctx.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w - 1, plot.h - 1);
    return s;
  }

  dot(ctx, x, y, r, colour, ring = false) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    if (ring) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2;
      ctx.stroke();
    } else {
      ctx.fillStyle = colour;
      ctx.fill();
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  cross(ctx, x, y, r, colour) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x - r, y - r);
    ctx.lineTo(x + r, y + r);
    ctx.moveTo(x + r, y - r);
    ctx.lineTo(x - r, y + r);
    ctx.stroke();
  }

  drawCurve(ctx, width, height) {
    const m = this.model;
    const plot = { x: 70, y: 34, w: width - 70 - 14, h: height - 34 - 50 };
    this.legend(ctx, [...this.answerLegend(m.predicate, true), { colour: '#b8c2cc', label: 'not run yet', dot: true }], plot.x, 14);
    const measured = m.points.filter((p) => typeof p.y === 'number' && Number.isFinite(p.y)).map((p) => p.y);
    let [lo, hi] = measured.length ? [Math.min(...measured), Math.max(...measured)] : [0, 1];
    const pad = hi > lo ? (hi - lo) * 0.08 : Math.abs(hi) * 0.1 || 1;
    [lo, hi] = [lo - pad, hi + pad];
    const sy = this.yAxis(ctx, lo, hi, plot);
    const sx = this.xScale(m.x, plot);
    this.xAxis(ctx, m.x, sx, plot);
    const shown = m.points.filter((p) => p.row && typeof p.y === 'number' && Number.isFinite(p.y)).map((p) => ({ ...p, px: sx.at(p.xv, p.xi), py: sy(p.y) }));
    shown.sort((a, b) => a.px - b.px);
    ctx.strokeStyle = '#7a8896';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    shown.forEach((p, i) => (i ? ctx.lineTo(p.px, p.py) : ctx.moveTo(p.px, p.py)));
    ctx.stroke();
    for (const p of shown) {
      this.dot(ctx, p.px, p.py, 5, p.yes === true ? YES : p.yes === false ? NO : FAILED);
      this.targets.push({ kind: 'point', x: p.px, y: p.py, index: p.index, item: p });
    }
    // The values not run yet: pale rings on the x axis.
    for (const p of m.points.filter((q) => !q.row)) this.dot(ctx, sx.at(p.xv, p.xi), plot.y + plot.h - 8, 3, '#b8c2cc', true);
    for (const p of m.points.filter((q) => q.row && !ended(q.row))) {
      const px = sx.at(p.xv, p.xi);
      this.cross(ctx, px, plot.y + plot.h - 8, 4, FAILED);
      this.targets.push({ kind: 'point', x: px, y: plot.y + plot.h - 8, index: p.index, item: p });
    }
    this.ring(ctx);
    this.axisTitles(ctx, plot, m.x.title, m.y.title, height);
  }

  drawThreshold(ctx, width, height) {
    const m = this.model;
    // The groups' legend: as many columns as their longest label lets.
    const widest = Math.max(0, ...m.groups.map((g) => ctx.measureText(g.label).width));
    const columns = Math.max(1, Math.min(m.groups.length, Math.floor((width - 84) / (widest + 36))));
    const legendRows = 1 + Math.ceil(m.groups.length / columns);
    const top = 14 + legendRows * 16 + 4;
    const plot = { x: 70, y: top, w: width - 70 - 14, h: height - top - 50 };
    this.legend(ctx, this.answerLegend(m.predicate, true).map((e) => ({ ...e, label: e.label === 'no' ? 'no (runs of the searches)' : e.label })), 70, 14);
    m.groups.forEach((g, i) => {
      const row = Math.floor(i / columns);
      const col = i % columns;
      ctx.strokeStyle = g.colour;
      ctx.lineWidth = 2.5;
      const lx = 70 + col * ((width - 84) / columns);
      const ly = 30 + row * 16;
      ctx.beginPath();
      ctx.moveTo(lx, ly);
      ctx.lineTo(lx + 16, ly);
      ctx.stroke();
      ctx.fillStyle = INK;
      ctx.textAlign = 'left';
      ctx.fillText(clip(ctx, g.label, (width - 84) / columns - 24), lx + 20, ly);
    });
    const [lo, hi] = m.y.range;
    const pad = (hi - lo) * 0.04;
    const sy = this.yAxis(ctx, lo - pad, hi + pad, plot);
    const sx = this.xScale(m.x, plot);
    this.xAxis(ctx, m.x, sx, plot);
    const n = m.groups.length;
    const spread = sx.numeric ? 0 : Math.min(10, sx.band / (2 * n + 2));
    const shift = (g) => (n > 1 ? (g - (n - 1) / 2) * (sx.numeric ? 3 : spread) : 0);
    // The runs of the searches.
    for (const r of m.runs) {
      if (typeof r.y !== 'number') continue;
      const px = sx.at(r.xv, r.xi) + shift(r.group);
      const py = sy(r.y);
      if (r.yes === null) this.cross(ctx, px, py, 3, FAILED);
      else this.dot(ctx, px, py, 3, r.yes ? YES : NO);
      this.targets.push({ kind: 'point', x: px, y: py, row: r.row, combination: r.combination, item: r });
    }
    // Each group's thresholds: the bracket as a bar, the middle as a marker, joined by a line.
    m.groups.forEach((g, gi) => {
      const found = g.points.filter((p) => p.answer?.found).map((p) => ({ ...p, px: sx.at(p.xv, p.xi) + shift(gi) }));
      found.sort((a, b) => a.px - b.px);
      ctx.strokeStyle = g.colour;
      ctx.lineWidth = 2;
      ctx.beginPath();
      found.forEach((p, i) => (i ? ctx.lineTo(p.px, sy(p.answer.threshold)) : ctx.moveTo(p.px, sy(p.answer.threshold))));
      ctx.stroke();
      for (const p of found) {
        ctx.beginPath();
        ctx.moveTo(p.px, sy(p.answer.lower));
        ctx.lineTo(p.px, sy(p.answer.upper));
        ctx.stroke();
        ctx.fillStyle = g.colour;
        ctx.fillRect(p.px - 4, sy(p.answer.threshold) - 4, 8, 8);
        this.targets.push({ kind: 'threshold', x: p.px, y: sy(p.answer.threshold), index: p.index, item: { ...p, group: g } });
      }
      // A search that found nothing: a ring on the x axis.
      for (const p of g.points.filter((q) => q.answer && !q.answer.found)) {
        const px = sx.at(p.xv, p.xi) + shift(gi);
        this.dot(ctx, px, plot.y + plot.h - 7, 4, g.colour, true);
        this.targets.push({ kind: 'threshold', x: px, y: plot.y + plot.h - 7, index: p.index, item: { ...p, group: g } });
      }
    });
    this.ring(ctx);
    this.axisTitles(ctx, plot, m.x.title, m.y.title, height);
  }

  /** A ring around the point under the mouse. */
  ring(ctx) {
    if (!this.hover || this.hover.kind === 'cell') return;
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(this.hover.x, this.hover.y, 8, 0, 2 * Math.PI);
    ctx.stroke();
  }

  targetAt(event) {
    const r = this.canvas.getBoundingClientRect();
    const x = event.clientX - r.left;
    const y = event.clientY - r.top;
    const cell = this.targets.find((t) => t.kind === 'cell' && x >= t.x0 && x < t.x1 && y >= t.y0 && y < t.y1);
    if (cell) return cell;
    let best = null;
    let bestD = 9;  // px
    for (const t of this.targets) {
      if (t.kind === 'cell') continue;
      const d = Math.hypot(t.x - x, t.y - y);
      if (d <= bestD) [best, bestD] = [t, d];
    }
    return best;
  }

  moved(event) {
    const target = this.targetAt(event);
    this.setHover(target, event);
  }

  setHover(target, event) {
    const changed = target !== this.hover && !(target && this.hover && target.kind === this.hover.kind && target.index === this.hover.index && target.row === this.hover.row);
    this.hover = target;
    this.canvas.style.cursor = target ? 'pointer' : '';
    if (changed) this.draw();
    if (!target) {
      this.tip.hidden = true;
      return;
    }
    const lines = this.describe(target);
    this.tip.replaceChildren(...lines.map((line) => Object.assign(document.createElement('div'), { textContent: line })));
    this.tip.hidden = !lines.length;
    const box = this.container.getBoundingClientRect();
    const r = this.canvas.getBoundingClientRect();
    const x = event ? event.clientX - box.left : 0;
    const y = event ? event.clientY - box.top : 0;
    const left = Math.min(x + 14, Math.max(0, r.width - this.tip.offsetWidth - 4));
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${y + 14 + this.tip.offsetHeight > r.height ? y - this.tip.offsetHeight - 10 : y + 14}px`;
  }
}

/** A label cut to `width` px with "…". */
function clip(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let s = text;
  while (s.length > 1 && ctx.measureText(`${s}…`).width > width) s = s.slice(0, -1);
  return `${s}…`;
}
