// A user's first heightmap import is decoded and built by the core in the
// worker. A WebAssembly engine runs each function of the core first in a
// quick baseline tier and moves a busy one to its optimizing tier for its
// later calls only (a call under way keeps its code), so the first import
// decoded its PNG and built its field in the baseline tier: a 2048 × 2048
// image took about 0.4 s longer than the same image imported again
// (docs/benchmarks/heightmap_app.json). Once the worker's first scenario is
// loaded, the import path runs on a small generated image a few times, one
// task each, so that a user's first import finds it optimized.

const SIDE = 256; // pixels of the generated image: 16-bit grey noise
const RUNS = 3; // builds, one task each

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = new Uint8Array(data.length + 12);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

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
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, side);
  new DataView(header.buffer).setUint32(4, side);
  header[8] = 16; // bits per sample; grey (colour type 0), the rest 0
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (png.set(p, at), at + p.length), 0);
  return png;
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
