// Plots of the recorded telemetry (uPlot): section pitch angles vs time
// (seed 000 fig. 11), wheel-centre trajectories in the side view (fig. 10,
// a plain canvas: x–z curves are not functions of time), normal and
// tangential force per wheel, slip per wheel, the normal force on each body
// box from the terrain, body roll and pitch.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const PALETTE = ['#d9822b', '#3d7fbf', '#6aa84f', '#b85450', '#8e6bbf', '#2aa198', '#c0a020', '#555555'];
const MAX_POINTS = 1500;
const DEG = 180 / Math.PI;

/** Indices of the columns whose names match, with labels. */
function pick(columns, test, label) {
  const out = [];
  columns.forEach((name, index) => {
    const m = test(name);
    if (m) out.push({ index, label: label(name, m) });
  });
  return out;
}

/** Every k-th frame so that at most MAX_POINTS remain. */
function stride(n) {
  return Math.max(1, Math.ceil(n / MAX_POINTS));
}

export class Plots {
  constructor(container) {
    this.container = container;
    this.charts = [];
  }

  /** Builds the charts for a model's telemetry columns. */
  setModel(model) {
    this.container.textContent = '';
    this.charts = [];
    this.model = model;
    const c = model.columns;
    const wheelNames = model.wheels.map((w) => w.name);
    const perWheel = (suffix) =>
      pick(c, (n) => wheelNames.find((w) => n === `${w}_${suffix}`), (n, w) => w.replace(/^wheel_/, ''));
    this.addChart('Section pitch (deg)', pick(c, (n) => /_pitch_rad$/.test(n), (n) => n.replace(/_pitch_rad$/, '')), DEG);
    this.addTrajectory();
    this.addChart('Normal force (N)', perWheel('normal_N'));
    this.addChart('Tangential force (N)', perWheel('tangential_N'));
    this.addChart('Slip', perWheel('slip'));
    this.addChart('Body contact normal force (N)', pick(c, (n) => /^box_.+_normal_N$/.test(n), (n) => n.slice(4, -9)));
    this.addChart('Base roll, pitch (deg)', pick(c, (n) => /^base_(roll|pitch)_rad$/.test(n), (n) => n.slice(5, -4)), DEG);
  }

  addChart(title, series, scale = 1) {
    const box = document.createElement('div');
    box.className = 'plot';
    this.container.append(box);
    const width = Math.max(280, this.container.clientWidth - 16);
    const chart = new uPlot(
      {
        title,
        width,
        height: 150,
        scales: { x: { time: false } },
        axes: [{ label: 't (s)', size: 30 }, { size: 46 }],
        legend: { live: false },
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length], width: 1.2 }))],
      },
      [[], ...series.map(() => [])],
      box,
    );
    this.charts.push({ kind: 'time', chart, series, scale, title });
  }

  addTrajectory() {
    const box = document.createElement('div');
    box.className = 'plot';
    const title = document.createElement('div');
    title.className = 'plot-title';
    title.textContent = 'Wheel centres, side view (left wheels, x–z in m)';
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(280, this.container.clientWidth - 16);
    canvas.height = 150;
    box.append(title, canvas);
    this.container.append(box);
    const cols = this.model.columns;
    const wheels = this.model.wheels
      .map((w) => ({ name: w.name, x: cols.indexOf(`${w.name}_x_m`), y: cols.indexOf(`${w.name}_y_m`), z: cols.indexOf(`${w.name}_z_m`) }))
      .filter((w) => w.x >= 0 && w.z >= 0);
    this.charts.push({ kind: 'xz', canvas, wheels, title: title.textContent });
  }

  /** Redraws every chart from the telemetry (telemetry.js). */
  update(telemetry) {
    const n = telemetry.rows;
    const k = stride(n);
    const t = [];
    for (let i = 0; i < n; i += k) t.push(telemetry.value(i, 0));
    for (const c of this.charts) {
      if (c.kind === 'time') {
        const data = [t];
        for (const s of c.series) {
          const v = [];
          for (let i = 0; i < n; i += k) v.push(telemetry.value(i, s.index) * c.scale);
          data.push(v);
        }
        c.chart.setData(data);
      } else {
        this.drawTrajectory(c, telemetry, k);
      }
    }
  }

  drawTrajectory(c, telemetry, k) {
    const n = telemetry.rows;
    const at = (i, col) => telemetry.value(i, col);
    const g = c.canvas.getContext('2d');
    const { width, height } = c.canvas;
    g.clearRect(0, 0, width, height);
    const left = n ? c.wheels.filter((w) => w.y < 0 || at(0, w.y) >= -1e-9) : [];
    let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    for (const w of left)
      for (let i = 0; i < n; i += k) {
        const x = at(i, w.x), z = at(i, w.z);
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); z0 = Math.min(z0, z); z1 = Math.max(z1, z);
      }
    if (!(x1 >= x0)) return;
    const pad = 24;
    const s = Math.min((width - 2 * pad) / Math.max(x1 - x0, 0.1), (height - 2 * pad) / Math.max(z1 - z0, 0.1));
    const px = (x) => pad + (x - x0) * s;
    const pz = (z) => height - pad - (z - z0) * s;  // equal scales: the path's true shape
    g.strokeStyle = '#bbb';
    g.strokeRect(pad, pad, width - 2 * pad, height - 2 * pad);
    g.fillStyle = '#555';
    g.font = '10px sans-serif';
    g.fillText(`x ${x0.toFixed(2)} … ${x1.toFixed(2)} m, z ${z0.toFixed(2)} … ${z1.toFixed(2)} m`, pad, 12);
    left.forEach((w, j) => {
      g.strokeStyle = PALETTE[j % PALETTE.length];
      g.beginPath();
      for (let i = 0; i < n; i += k) {
        const X = px(at(i, w.x)), Z = pz(at(i, w.z));
        if (i === 0) g.moveTo(X, Z);
        else g.lineTo(X, Z);
      }
      g.stroke();
    });
  }
}
