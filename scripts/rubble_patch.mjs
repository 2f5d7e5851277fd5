// A rubble patch as a scanner would deliver it: an OBJ mesh of irregular
// triangles (vertices jittered off a grid, each cell split along a random
// diagonal) over flat ground with scanning noise, with stones piled on it
// (lumpy mounds of random outline, merged where they touch). Seeded: the
// same options give the same text.
import { mulberry32 } from '../web/src/editor/fractal_noise.js';

/**
 * OBJ text (z up, metres) of a patch `length` × `width` m from (x0, y0) with
 * cells of about `cell` m and `stones` stones up to `height` m high, none in
 * the first `clear` m (where a robot starts) or the last 0.5 m.
 */
export function rubblePatchObj({ x0 = 0, y0 = 0, length = 4, width = 2.4, cell = 0.05, stones = 30, height = 0.14, clear = 0, seed = 1 } = {}) {
  const random = mulberry32(seed);
  const between = (lo, hi) => lo + (hi - lo) * random();
  const piles = Array.from({ length: stones }, () => ({
    x: x0 + between(clear, length - 0.5),
    y: y0 + between(0.05, 0.95) * width,
    radius: between(0.12, 0.35),
    top: between(0.3, 1) * height,
    // The outline's radius varies with the angle: a few harmonics of random phase.
    lobes: [2, 3, 5].map((k) => ({ k, amount: between(0, 0.18), phase: between(0, 2 * Math.PI) })),
  }));
  const ground = (x, y) => {
    let z = 0;
    for (const p of piles) {
      const angle = Math.atan2(y - p.y, x - p.x);
      const reach = p.radius * (1 + p.lobes.reduce((s, l) => s + l.amount * Math.cos(l.k * angle + l.phase), 0));
      const r = Math.hypot(x - p.x, y - p.y) / reach;
      if (r < 1) z = Math.max(z, p.top * Math.sqrt(1 - r * r));
    }
    return z;
  };
  const nx = Math.round(length / cell);
  const ny = Math.round(width / cell);
  const lines = ['# Rubble patch (scripts/rubble_patch.mjs): z up, metres'];
  const fixed = (v) => (Math.round(v * 1e4) / 1e4 + 0).toString();
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      // Inner vertices move by up to 0.2 cells: every cell stays convex.
      const inner = i > 0 && j > 0 && i < nx && j < ny;
      const x = x0 + (i + (inner ? between(-0.2, 0.2) : 0)) * cell;
      const y = y0 + (j + (inner ? between(-0.2, 0.2) : 0)) * cell;
      const noise = between(-0.002, 0.002);  // the scanner's, ±2 mm
      lines.push(`v ${fixed(x)} ${fixed(y)} ${fixed(ground(x, y) + noise)}`);
    }
  }
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const a = j * (nx + 1) + i + 1;  // OBJ numbers vertices from 1
      const b = a + 1;
      const c = a + nx + 2;
      const d = a + nx + 1;
      if (random() < 0.5) lines.push(`f ${a} ${b} ${c}`, `f ${a} ${c} ${d}`);
      else lines.push(`f ${a} ${b} ${d}`, `f ${b} ${c} ${d}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
