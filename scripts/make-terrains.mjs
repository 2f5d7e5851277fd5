// Writes the heightmap scenarios of terrains/ that are generated, not typed:
//   node scripts/make-terrains.mjs
// Each is made from a fixed seed, so running it again gives the same files.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fractalNoise } from '../web/src/editor/fractal_noise.js';
import { rubblePatchObj } from './rubble_patch.mjs';

const terrains = join(dirname(fileURLToPath(import.meta.url)), '..', 'terrains');

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

// articulated6 over a scanned-looking rubble patch: an OBJ mesh of 12 500
// irregular triangles, 40 stones up to 0.16 m, seed 7.
write(
  'rubble-articulated6.json',
  scenario(
    'articulated6 over a rubble patch (OBJ mesh)',
    'The three-section robot drives over a rubble patch given as a triangle mesh, as a scanner delivers one: 7.5 × 3 m of irregular triangles (0.06 m), flat ground with ±2 mm of scanning noise and 40 stones up to 0.16 m high (scripts/rubble_patch.mjs, seed 7).',
    {
      materials: { gravel: { phi_max: 0.7, s0: 0.12, s1: 0.5, rolling: 0.03 } },
      meshes: [{ obj: rubblePatchObj({ x0: -1.5, y0: -1.5, length: 7.5, width: 3, cell: 0.06, stones: 40, height: 0.16, clear: 2.2, seed: 7 }), material: 'gravel', color: '#8c8372' }],
    },
    { robot: { preset: 'articulated6', pose: { position: [0, 0] } }, control: { wheel_speed: 3 }, simulation: { dt: 0.0004, duration: 10 } },
  ),
);
