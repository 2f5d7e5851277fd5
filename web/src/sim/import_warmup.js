// A user's first heightmap import is decoded and built by the core in the
// worker. A WebAssembly engine runs each function of the core first in a
// quick baseline tier and moves a busy one to its optimizing tier for its
// later calls only (a call under way keeps its code), so the first import
// decoded its PNG and built its field in the baseline tier: a 2048 × 2048
// image took about 0.4 s longer than the same image imported again
// (docs/benchmarks/heightmap_app.json). Once the worker's first scenario is
// loaded, the import path runs on a small generated image a few times, one
// task each, so that a user's first import finds it optimized.
import { greyPngFile } from '../common/png_file.js';

const SIDE = 256; // pixels of the generated image: 16-bit grey noise
const RUNS = 3; // builds, one task each

/** A side × side 16-bit grey PNG of noise (bytes), its rows with every filter type in turn. */
export async function noisePng(side = SIDE) {
  const stride = 1 + 2 * side;
  const raw = new Uint8Array(side * stride);
  let seed = 1;
  for (let j = 0; j < side; j++) {
    raw[j * stride] = j % 5; // filter type 0…4
    for (let k = 1; k < stride; k++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      raw[j * stride + k] = seed >>> 24;
    }
  }
  const idat = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
  return greyPngFile({ width: side, height: side, bits: 16 }, idat);
}

function dataUrl(bytes) {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return `data:image/png;base64,${btoa(text)}`;
}

/** The scenario text the warm-up builds: a rocker8 on a SIDE × SIDE heightmap embedded as a 16-bit PNG. */
export async function warmUpScenario() {
  return JSON.stringify({
    format: 'roverlab-scenario',
    version: 1,
    terrain: { heightmaps: [{ origin: [-1, -6], cell: 0.05, png: dataUrl(await noisePng()), height_scale: 0.5 / 65535 }] },
    robot: { preset: 'rocker8' },
  });
}

/** Runs the core's import path (scenario text with an embedded PNG → world → model) RUNS times, each in a task of `schedule`. */
export async function warmUpImport(core, schedule) {
  const scenario = await warmUpScenario();
  for (let run = 0; run < RUNS; run++)
    await new Promise((resolve) =>
      schedule(() => {
        const world = new core.World(scenario);
        if (world.ok()) world.model();
        world.delete();
        resolve();
      }),
    );
}
