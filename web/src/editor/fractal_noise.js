// Seeded fractal value noise for generated heightmaps: the editor's
// rough-field template (templates.js) and the scenarios that
// scripts/make-terrains.mjs writes into terrains/. No DOM; the same module runs
// in the browser and in Node, and a seed gives the same heights on both.

/** mulberry32: a small seeded PRNG giving the same sequence on every platform; returns numbers in [0, 1). */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fractal value noise on an nx × ny grid: `octaves` layers, the first with
 * lattice points `period` samples apart (it may be fractional), each next one
 * of twice the frequency and `roughness` times the amplitude of the one
 * before (the persistence: 0 leaves the first layer alone, 1 weighs every
 * layer equally); layers finer than one sample are left out. The sum is
 * scaled so that its largest magnitude is `amplitude` (m), then rounded to
 * multiples of `quantum` (m). Returns the rows along +y, each an array of
 * nx heights along +x (heights[j][i]).
 */
export function fractalNoise({ nx, ny, seed, octaves = 5, roughness = 0.5, amplitude = 0.05, period = 32, quantum = 1e-3 }) {
  const next = mulberry32(seed);
  const z = Array.from({ length: ny }, () => new Float64Array(nx));
  let weight = 1;
  let p = period;
  for (let o = 0; o < octaves && p >= 1; o++, weight *= roughness, p /= 2) {
    const gx = Math.ceil(nx / p) + 2;
    const gy = Math.ceil(ny / p) + 2;
    const lattice = Array.from({ length: gy }, () => Array.from({ length: gx }, () => next() * 2 - 1));
    const smooth = (t) => t * t * (3 - 2 * t);
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const u = i / p;
        const v = j / p;
        const i0 = Math.floor(u);
        const j0 = Math.floor(v);
        const s = smooth(u - i0);
        const t = smooth(v - j0);
        const a = lattice[j0][i0] + s * (lattice[j0][i0 + 1] - lattice[j0][i0]);
        const b = lattice[j0 + 1][i0] + s * (lattice[j0 + 1][i0 + 1] - lattice[j0 + 1][i0]);
        z[j][i] += weight * (a + t * (b - a));
      }
  }
  let peak = 0;
  for (const row of z) for (const h of row) peak = Math.max(peak, Math.abs(h));
  // Dividing by a whole number of steps per metre (not multiplying by the
  // quantum) gives each height as the double nearest its decimal: short JSON.
  const steps = Math.round(1 / quantum);
  if (!(peak > 0)) return z.map((row) => Array.from(row, () => 0));
  return z.map((row) => Array.from(row, (h) => Math.round((h / peak) * amplitude * steps) / steps + 0));
}
