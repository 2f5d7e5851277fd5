// The worker's import warm-up (web/src/sim/import_warmup.js) runs the real import
// path: its generated image is a valid 16-bit grey PNG and its scenario builds
// a world with that heightmap in the WASM core.
import { inflateSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';

import { pngHeader } from '../../web/src/import/heightmap_import.js';
import { noisePng, warmUpImport, warmUpScenario } from '../../web/src/sim/import_warmup.js';
import { loadWasmCore } from './support.mjs';

let core;
beforeAll(async () => {
  core = await loadWasmCore();
});

test('the warm-up image is a 16-bit grey PNG whose rows use every filter type', async () => {
  const png = await noisePng(32);
  expect(pngHeader(png)).toEqual({ width: 32, height: 32, bits: 16 });
  const idatLength = new DataView(png.buffer).getUint32(33);
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  expect(raw.length).toBe(32 * (1 + 2 * 32));
  expect(new Set(Array.from({ length: 32 }, (_, j) => raw[j * 65]))).toEqual(new Set([0, 1, 2, 3, 4]));
});

test('the warm-up scenario builds a world on its 256 × 256 heightmap, and the warm-up runs it', async () => {
  const world = new core.World(await warmUpScenario());
  expect(world.issues()).toEqual([]);
  expect(world.ok()).toBe(true);
  const [field] = world.model().terrain.heightmaps;
  expect([field.nx, field.ny]).toEqual([256, 256]);
  world.delete();
  let tasks = 0;
  await warmUpImport(core, (fn) => setTimeout(() => (tasks++, fn()), 0));
  expect(tasks).toBe(3);
});
