// Writes the heightmap scenarios of terrains/ that are generated, not typed:
//   node scripts/make-terrains.mjs
// Each is made from a fixed seed, so running it again gives the same files.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../web/src/editor/templates.js';

const terrains = join(dirname(fileURLToPath(import.meta.url)), '..', 'terrains');

/** Fractal value noise on an nx × ny grid: `octaves` layers, each of twice the
 * frequency and `roughness` times the amplitude of the one before, scaled so the
 * heights span ±amplitude (m). Rows along +y. */
export function fractalNoise({ nx, ny, seed, octaves = 5, roughness = 0.5, amplitude = 0.05, period = 32 }) {
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
  return z.map((row) => Array.from(row, (h) => Math.round((h / peak) * amplitude * 1000) / 1000));
}

const scenario = (name, description, terrain, rest) => ({ format: 'roverlab-scenario', version: 1, name, description, terrain, ...rest });
const write = (file, doc) => writeFileSync(join(terrains, file), `${JSON.stringify(doc)}\n`);

// rocker8 across a rough field: 16 × 16 m of fractal noise, ±6 cm, seed 14.
write(
  'rough-field-rocker8.json',
  scenario(
    'rocker8 across a rough field',
    'The 8-wheel rocker rover drives across a generated rough field (a 161 × 161 heightmap of 0.1 m cells, fractal noise of ±6 cm, seed 14; scripts/make-terrains.mjs).',
    {
      materials: { soil: { phi_max: 0.7, s0: 0.12, s1: 0.5, rolling: 0.03 } },
      heightmaps: [{ origin: [-3, -8], cell: 0.1, heights: fractalNoise({ nx: 161, ny: 161, seed: 14, amplitude: 0.06 }), material: 'soil', color: '#7d7358' }],
    },
    { robot: { preset: 'rocker8', pose: { position: [0, 0] } }, control: { wheel_speed: 2 }, simulation: { duration: 10 } },
  ),
);

// The planar two-axle vehicle across a ditch given as a heightmap: 1.2 m wide at
// the top, 0.3 m deep, smooth (a cosine), across y.
const ditch = (x) => (x > 2 && x < 3.2 ? -0.15 * (1 - Math.cos((2 * Math.PI * (x - 2)) / 1.2)) : 0);
const dx = 0.05;
const columns = Array.from({ length: 501 }, (_, i) => Math.round(ditch(-5 + i * dx) * 1e4) / 1e4);
write(
  'heightmap-ditch-planar-vehicle.json',
  scenario(
    'all-wheel drive across a heightmap ditch',
    'The two-axle vehicle crosses a smooth ditch 1.2 m wide and 0.3 m deep, given as a heightmap of 0.05 m cells (scripts/make-terrains.mjs).',
    {
      materials: { asphalt: { phi_max: 0.8, s0: 0.1, s1: 0.5, rolling: 0.018 } },
      heightmaps: [{ origin: [-5, -3], cell: [dx, 0.5], heights: Array.from({ length: 13 }, () => columns), material: 'asphalt', color: '#8a8a80' }],
    },
    {
      robot: { preset: 'planar-vehicle', params: { front_drive: 1, rear_drive: 1 }, pose: { position: [0, 0] } },
      control: { wheel_speed: 3 },
      simulation: { duration: 8, mode: 'planar', slip: 'absolute' },
    },
  ),
);
