// Share links (web/src/share/share_link.js): round trips of every scenario in
// terrains/, one test per kind of broken or hostile link (each with its own
// error code), heightmaps packed as binary blocks (version 2, heightmap_codec.js),
// meshes too (version 3, mesh_codec.js), and hostile blocks, an invalid scenario that decodes but the WASM core
// rejects, and the length of a typical link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

import { rubblePatchObj } from '../../scripts/rubble_patch.mjs';
import { greyPng } from '../support/grey_png.mjs';
import {
  MAX_DECOMPRESSED_BYTES,
  MAX_FRAGMENT_LENGTH,
  MAX_NESTING_DEPTH,
  SHARE_VERSION,
  SHARE_VERSIONS,
  ShareError,
  decodeShare,
  encodeShare,
  fragmentOf,
  shareUrl,
} from '../../web/src/share/share_link.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = path.join(root, 'web/src/wasm/roverlab_core.js');
const terrainFiles = readdirSync(path.join(root, 'terrains')).filter((f) => f.endsWith('.json')).sort();
const readScenario = (file) => JSON.parse(readFileSync(path.join(root, 'terrains', file), 'utf8'));
const camera = { position: [-3.5, -4.25, 2.8], target: [1.2, 0, 0.3] };

// A typical shared scenario: the rocker rover on two rows of 20 quads with
// heights varying by up to ±0.2 m (to the millimetre, as typed in the editor), and a camera.
function typicalPayload() {
  const n = 20;
  const x = (i) => 0.5 * i;
  const height = (row, i) => Math.round(1000 * (0.12 * Math.sin(0.7 * i + row) + 0.06 * Math.cos(1.9 * i - 2 * row))) / 1000;
  const quadRow = (row, y0, y1) =>
    Array.from({ length: n }, (_, i) => ({
      a: [x(i), y0, height(row, i)],
      b: [x(i), y1, height(row, i)],
      m: [x(i + 1), (y0 + y1) / 2, height(row, i + 1)],
    }));
  return {
    scenario: {
      format: 'roverlab-scenario',
      version: 1,
      name: 'rocker8 on rough quads',
      terrain: {
        materials: { soil: { phi_max: 0.7, s0: 0.1, s1: 0.5, rolling: 0.05 } },
        base: -1,
        quads: { left: quadRow(0, 0, 1.6), right: quadRow(1, -1.6, 0), material: 'soil' },
      },
      robot: { preset: 'rocker8', params: { wheel_radius: 0.22 }, pose: { position: [1.2, 0] } },
      control: { wheel_speed: 1.5 },
      simulation: { duration: 12 },
    },
    camera: { position: [-2.4, -5.1, 3.2], target: [4, 0, 0] },
  };
}

// Test helpers that build links by hand, independently of the codec.
async function deflate(bytes) {
  const stream = new CompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  writer.write(bytes);
  writer.close();
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}
const link = (bytes, version = 1) => `s${version}.${Buffer.from(bytes).toString('base64url')}`;
const linkOfText = async (text) => link(await deflate(new TextEncoder().encode(text)));
const bytesOf = (fragment) => new Uint8Array(Buffer.from(fragment.slice(fragment.indexOf('.') + 1), 'base64url'));

const depth = (v) => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);

async function expectFailure(fragment, code, messagePart) {
  const r = await decodeShare(fragment);
  expect(r.ok).toBe(false);
  expect(r.code).toBe(code);
  expect(r.message).toContain(messagePart);
  expect(Object.keys(r).sort()).toEqual(['code', 'message', 'ok']);
  return r;
}

// Every scenario links, the rubble patch's OBJ mesh (357 kB of text) too.
const linkedFiles = terrainFiles;

describe('round trip', () => {
  test.each(linkedFiles)('%s', async (file) => {
    const scenario = readScenario(file);
    const fragment = await encodeShare({ scenario });
    // Version 3 only where there is a mesh to pack, 2 where there is a heightmap;
    // other links stay readable by apps of the older versions.
    const version = scenario.terrain.meshes ? 3 : scenario.terrain.heightmaps ? 2 : 1;
    expect(fragment).toMatch(new RegExp(`^s${version}\\.[A-Za-z0-9_-]+$`));
    expect(await decodeShare(fragment)).toEqual({ ok: true, payload: { scenario } });
  });

  test('a scenario past the link limit is refused with a pointer to the file', async () => {
    // A 12 × 6 m rubble patch of 0.05 m cells: 57,600 triangles.
    const scenario = { ...readScenario('rubble-articulated6.json') };
    scenario.terrain = { ...scenario.terrain, meshes: [{ ...scenario.terrain.meshes[0], obj: rubblePatchObj({ length: 12, width: 6, cell: 0.05, stones: 40, height: 0.15, clear: 1.2, seed: 5 }) }] };
    await expect(encodeShare({ scenario })).rejects.toThrow(/limit is 65536\. Save the scenario as a file instead/);
  });

  test.each(linkedFiles)('%s with a camera', async (file) => {
    const scenario = readScenario(file);
    const fragment = await encodeShare({ scenario, camera });
    expect(await decodeShare(fragment)).toEqual({ ok: true, payload: { scenario, camera } });
    expect(await decodeShare(`#${fragment}`)).toEqual({ ok: true, payload: { scenario, camera } });
  });

  test('non-ASCII text survives', async () => {
    const scenario = { ...readScenario('flat-rocker8.json'), name: 'Hang 15°, Böschung — 坂道 🚙' };
    expect((await decodeShare(await encodeShare({ scenario }))).payload.scenario.name).toBe(scenario.name);
  });

  test('shareUrl and fragmentOf', async () => {
    const fragment = await encodeShare({ scenario: readScenario('flat-articulated6.json') });
    const url = shareUrl('https://example.org/roverlab/?lang=en#old', fragment);
    expect(url).toBe(`https://example.org/roverlab/?lang=en#${fragment}`);
    expect(new URL(url).hash).toBe(`#${fragment}`);  // the URL parser leaves the fragment as it is
    expect(fragmentOf(url)).toBe(fragment);
    expect(shareUrl('http://localhost:5173/', 's1.AA')).toBe('http://localhost:5173/#s1.AA');
    expect(fragmentOf('http://localhost:5173/')).toBe('');
    expect(fragmentOf('http://localhost:5173/#')).toBe('');
  });

  test('encodeShare refuses what decodeShare would refuse', async () => {
    await expect(encodeShare({ scenario: { format: 'other' } })).rejects.toThrow(ShareError);
    await expect(encodeShare({ scenario: { format: 'other' } })).rejects.toMatchObject({ code: 'wrong-format' });
    await expect(encodeShare([])).rejects.toMatchObject({ code: 'not-object' });
    let deep = 0;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) deep = [deep];
    await expect(encodeShare({ scenario: { format: 'roverlab-scenario', name: deep } })).rejects.toMatchObject({ code: 'too-deep' });
    const scenario = readScenario('flat-rocker8.json');
    await expect(encodeShare({ scenario, camera: { position: [0, 0, 1] } })).rejects.toMatchObject({ code: 'bad-camera' });
    const huge = { ...scenario, description: 'x'.repeat(MAX_DECOMPRESSED_BYTES) };
    await expect(encodeShare({ scenario: huge })).rejects.toMatchObject({ code: 'too-large' });
  });
});

describe('malformed links', () => {
  let valid;
  beforeAll(async () => {
    valid = await encodeShare({ scenario: readScenario('depression-rocker8.json'), camera });
  });

  test('empty', async () => {
    await expectFailure('', 'empty', 'nothing after "#"');
    await expectFailure('#', 'empty', 'nothing after "#"');
    await expectFailure(undefined, 'empty', 'no share data');
  });

  test('no prefix', async () => {
    await expectFailure('section-3', 'not-share-data', 'starts with "s1."');
    await expectFailure(valid.slice(3), 'not-share-data', 'is not Roverlab share data');
  });

  test('wrong version', async () => {
    const r = await expectFailure(`s9.${valid.slice(3)}`, 'unsupported-version', 'version 9');
    expect(SHARE_VERSION).toBe(3);
    expect(SHARE_VERSIONS).toEqual([1, 2, 3]);
    expect(r.message).toContain('reads versions 1, 2 and 3');
  });

  test('prefix without data', async () => {
    await expectFailure('s1.', 'truncated', 'ends right after "s1."');
    await expectFailure('s2.', 'truncated', 'ends right after "s2."');
  });

  test('bad characters', async () => {
    await expectFailure(`${valid.slice(0, 20)}%2B${valid.slice(23)}`, 'bad-character', '"%" at position 21');
    await expectFailure(`${valid.slice(0, 40)} ${valid.slice(40)}`, 'bad-character', 'a space (U+0020) at position 41');
    await expectFailure(`${valid.slice(0, 10)}+${valid.slice(11)}`, 'bad-character', '"+" at position 11');
    await expectFailure(`${valid}==`, 'bad-character', `"=" at position ${valid.length + 1}`);
    await expectFailure(`${valid.slice(0, 30)}…`, 'bad-character', '"…" (U+2026) at position 31');
  });

  test('truncated: cut in half', async () => {
    // Cut at a whole number of bytes (length ≡ 0 mod 4), so the deflate stream itself ends early…
    const half = 3 + 4 * Math.floor((valid.length - 3) / 8);
    await expectFailure(valid.slice(0, half), 'truncated', 'incomplete');
    // …and where the base64url cannot be whole bytes.
    await expectFailure(valid.slice(0, half + 1), 'truncated', 'cannot be a whole number of bytes');
  });

  test('corrupt bytes', async () => {
    const bytes = bytesOf(valid);
    bytes[0] |= 0b110;  // block type 3, reserved in RFC 1951
    await expectFailure(link(bytes), 'corrupt', 'not valid compressed data');
  });

  test('deflate bomb: 50 MB of zeros stops at the limit, early and fast', async () => {
    const bomb = link(await deflate(new Uint8Array(50_000_000)));
    expect(bomb.length).toBeLessThanOrEqual(MAX_FRAGMENT_LENGTH);  // so it does reach the decompressor
    // Count what the decompressor hands out.
    const Real = globalThis.DecompressionStream;
    let produced = 0;
    globalThis.DecompressionStream = class {
      constructor(format) {
        const inner = new Real(format);
        this.writable = inner.writable;
        this.readable = inner.readable.pipeThrough(
          new TransformStream({
            transform(chunk, controller) {
              produced += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
      }
    };
    let r;
    const start = performance.now();
    try {
      r = await expectFailure(bomb, 'too-large', `more than ${MAX_DECOMPRESSED_BYTES} bytes`);
    } finally {
      globalThis.DecompressionStream = Real;
    }
    const ms = performance.now() - start;
    console.log(`deflate bomb: ${bomb.length} characters, stopped after ${produced} of 50000000 bytes in ${ms.toFixed(0)} ms`);
    expect(produced).toBeGreaterThan(MAX_DECOMPRESSED_BYTES);
    expect(produced).toBeLessThan(2 * MAX_DECOMPRESSED_BYTES);
    expect(ms).toBeLessThan(1000);
    expect(r.message).toContain('stopped');
  });

  test('over-long fragment', async () => {
    await expectFailure(`s1.${'A'.repeat(MAX_FRAGMENT_LENGTH)}`, 'too-long', `at most ${MAX_FRAGMENT_LENGTH}`);
  });

  test('compressed text that is not JSON', async () => {
    await expectFailure(await linkOfText('hello world'), 'not-json', 'not JSON');
    await expectFailure(await linkOfText('{"scenario": {}} }'), 'not-json', 'at character 18 of 18: "}"');
    await expectFailure(await linkOfText('{"scenario": {"format": "roverlab-scenario"'), 'not-json', 'at the end of the text');
  });

  test('compressed bytes that are not UTF-8', async () => {
    await expectFailure(link(await deflate(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))), 'not-text', 'not UTF-8 text');
  });

  test('nesting too deep for JSON.stringify', async () => {
    const n = 200_000;
    const text = `{"scenario": {"format": "roverlab-scenario", "name": ${'['.repeat(n)}${']'.repeat(n)}}}`;
    expect(() => JSON.stringify(JSON.parse(text))).toThrow(RangeError);  // what the app would hit
    await expectFailure(await linkOfText(text), 'too-deep', `more than ${MAX_NESTING_DEPTH} levels deep`);
  });

  test('a key named twice in one object is refused, not silently collapsed', async () => {
    const text = '{"scenario": {"format": "roverlab-scenario", "name": "a", "name": "b"}}';
    await expectFailure(await linkOfText(text), 'duplicate-key', 'names the field "name" twice in one object (at "scenario.name")');
    // The same key in different objects, and escaped forms of different keys, are fine.
    const fine = '{"scenario": {"format": "roverlab-scenario", "a": {"x": 1}, "b": {"x": 2}, "\\u0061b": [{"x": 1}, {"x": 1}]}}';
    const r = await decodeShare(await linkOfText(fine));
    expect(r.code).not.toBe('duplicate-key');
  });

  test('JSON array', async () => {
    await expectFailure(await linkOfText('[{"format": "roverlab-scenario"}]'), 'not-object', 'an array, not a share payload');
  });

  test('object without scenario', async () => {
    await expectFailure(await linkOfText('{"camera": {"position": [1, 1, 1], "target": [0, 0, 0]}}'), 'no-scenario', '"scenario" field is missing');
    await expectFailure(await linkOfText('{"scenario": "step"}'), 'no-scenario', '"scenario" field is a string');
  });

  test('wrong format string', async () => {
    await expectFailure(await linkOfText('{"scenario": {"format": "roverlab-scene", "version": 1}}'), 'wrong-format', '"format": "roverlab-scene"');
    await expectFailure(await linkOfText('{"scenario": {"version": 1}}'), 'wrong-format', 'no "format" field');
  });

  test('unknown payload field', async () => {
    await expectFailure(await linkOfText('{"scenario": {"format": "roverlab-scenario"}, "tool": "x"}'), 'unknown-field', '"tool"');
  });

  test('malformed camera', async () => {
    const withCamera = (c) => linkOfText(`{"scenario": {"format": "roverlab-scenario"}, "camera": ${c}}`);
    await expectFailure(await withCamera('[0, 0, 1]'), 'bad-camera', 'it is an array');
    await expectFailure(await withCamera('{"position": [0, 0, 1]}'), 'bad-camera', '"camera.target" is missing');
    await expectFailure(await withCamera('{"position": [0, 0], "target": [0, 0, 0]}'), 'bad-camera', '"camera.position" must be [x, y, z], got [0,0]');
    await expectFailure(await withCamera('{"position": [0, 0, 1e999], "target": [0, 0, 0]}'), 'bad-camera', '"camera.position[2]" must be a finite number (m), got Infinity');
    await expectFailure(await withCamera('{"position": [1, 2, 3], "target": [1, 2, 3]}'), 'bad-camera', 'same point');
    await expectFailure(await withCamera('{"position": [1, 2, 3], "target": [0, 0, 0], "fov": 50}'), 'bad-camera', '"fov"');
    await expectFailure(await withCamera('{"position": [1, 2, 3], "target": [0, 0, 0], "follow": "yes"}'), 'bad-camera', '"camera.follow" must be true or false');
  });

  test('a camera that follows the robot keeps its flag (position and target are offsets from the robot)', async () => {
    const scenario = readScenario('depression-rocker8.json');
    const follow = { position: [-2.2, -4.2, 2], target: [0, 0, 0], follow: true };
    expect(await decodeShare(await encodeShare({ scenario, camera: follow }))).toEqual({ ok: true, payload: { scenario, camera: follow } });
    // follow: false is the same as no flag (world points)
    const still = await decodeShare(await encodeShare({ scenario, camera: { ...camera, follow: false } }));
    expect(still.payload.camera).toEqual(camera);
  });
});

// ---- heightmaps: version 2 ----

// Test helpers that build version-2 links by hand (docs/share-links.md), independently of the codec.
const utf8 = (text) => new TextEncoder().encode(text);
const inflate = (fragment) => new Uint8Array(inflateRawSync(bytesOf(fragment)));
function varint(v) {
  const out = [];
  for (; v > 0x7f; v = Math.floor(v / 128)) out.push((v % 128) | 0x80);
  out.push(v);
  return out;
}
/** The version-2 payload: the JSON text's length (uint32, little-endian), the JSON text, the blocks. */
function container(json, blocks = []) {
  const text = typeof json === 'string' ? utf8(json) : json;
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint32(0, text.length, true);
  return new Uint8Array([...head, ...text, ...blocks]);
}
const v2Link = async (json, blocks) => link(await deflate(container(json, blocks)), 2);
/** A block: heightmap index, kind (1 heights, 2 png), body length, body. */
const block = (index, kind, body) => [...varint(index), kind, ...varint(body.length), ...body];
/** A heights body: rows, columns, digits, predictor, then the residuals' bytes as given. */
const heightsBody = (rows, columns, digits, predictor, residualBytes) => [...varint(rows), ...varint(columns), digits, predictor, ...residualBytes];
/** The link an app of version 1 makes: the payload JSON, deflated. */
const v1Link = async (payload) => link(await deflate(utf8(JSON.stringify(payload))));

// Seeded uniform numbers in [0, 1) (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A flat-rocker8 scenario on the given heightmaps (objects of terrain.heightmaps). */
function onHeightmaps(...heightmaps) {
  const scenario = readScenario('flat-rocker8.json');
  scenario.terrain = { heightmaps: heightmaps.map((h) => ({ origin: [-2, -2], cell: 0.1, ...h, material: 'soil' })) };
  return scenario;
}

// Round trip through a link, compared as JSON text (the brief of a share link:
// what arrives stringifies exactly as what was sent).
async function roundTrip(payload) {
  const fragment = await encodeShare(payload);
  const r = await decodeShare(fragment);
  expect(r.ok).toBe(true);
  expect(JSON.stringify(r.payload)).toBe(JSON.stringify(payload));
  return fragment;
}

describe('heightmaps in links (version 2)', () => {
  // Measured with Node 20's zlib: the rough field's link (fractal noise to the
  // millimetre, 161 × 161) went from 30,997 characters (version 1, the JSON
  // deflated) to 12,099 (12,163 with the camera), 0.39 of it; the ditch's
  // (13 × 501, mostly its description and robot) from 786 to 667 (714), 0.85.
  // Residuals of the rough field after the planar prediction carry ~2.1 bits of
  // entropy a sample (~6.8 kB, 9,100 characters, for any coder). The bounds
  // leave ~6 % of slack over the measured lengths, for a zlib version whose
  // deflate chooses differently.
  test.each([
    ['rough-field-rocker8.json', 13_000, 0.45],
    ['heightmap-ditch-planar-vehicle.json', 760, 0.9],
  ])('%s: exact round trip, a link under %i characters and under %f of version 1', async (file, longest, ratio) => {
    const scenario = readScenario(file);
    for (const payload of [{ scenario }, { scenario, camera }]) {
      const fragment = await roundTrip(payload);
      expect(fragment.startsWith('s2.')).toBe(true);
      const before = (await v1Link(payload)).length;
      console.log(`${file}${payload.camera ? ' with camera' : ''}: version 1 ${before} characters, version 2 ${fragment.length} (${(fragment.length / before).toFixed(3)})`);
      expect(fragment.length).toBeLessThan(longest);
      expect(fragment.length).toBeLessThan(ratio * before);
    }
    // Packed: the samples are not in the JSON text any more.
    const json = new TextDecoder().decode(inflate(await encodeShare({ scenario })).subarray(4));
    expect(json).toContain('"heights":null');
  });

  test('links of the old format (version 1) still decode exactly as before', async () => {
    for (const file of ['rough-field-rocker8.json', 'heightmap-ditch-planar-vehicle.json', 'depression-rocker8.json']) {
      const payload = { scenario: readScenario(file), camera };
      expect(await decodeShare(await v1Link(payload))).toEqual({ ok: true, payload });
    }
    // A version-1 link with a heightmap whose heights are null: null, not a block to fill.
    const scenario = onHeightmaps({ heights: null });
    expect(await decodeShare(await v1Link({ scenario }))).toEqual({ ok: true, payload: { scenario } });
  });

  test('heights that are not short decimals (random doubles) stay JSON and round-trip exactly', async () => {
    const rnd = random(7);
    const grid = (n, f) => Array.from({ length: n }, () => Array.from({ length: n }, f));
    const doubles = grid(40, () => (rnd() - 0.5) * 0.1);
    const alone = await roundTrip({ scenario: onHeightmaps({ heights: doubles }) });
    expect(alone.startsWith('s1.')).toBe(true);  // nothing packs: the version-1 link
    // Beside a heightmap that packs: that one is a block, the doubles stay in the JSON text.
    const millimetres = grid(40, () => Math.round((rnd() - 0.5) * 100) / 1000);
    const both = await roundTrip({ scenario: onHeightmaps({ heights: doubles }, { heights: millimetres, origin: [2, -2] }), camera });
    expect(both.startsWith('s2.')).toBe(true);
    const json = new TextDecoder().decode(inflate(both).subarray(4));
    expect(json).toContain(JSON.stringify(doubles[0]));
    expect(json).not.toContain(JSON.stringify(millimetres[0]));
  });

  test('edge values round-trip exactly', async () => {
    const cases = {
      'one sample': [[0.25]],
      'a row': [[1, 2, 3, 4, 5]],
      'a column': [[1], [2], [3]],
      'negative zero (JSON writes 0)': [[-0, 0], [0, -0]],
      'integers of 32 bits': [[2147483647, -2147483647], [-2147483648, 0]],
      // k = ±2147483647 at 3 digits: the planar prediction leaves 32 bits and wraps.
      'predictions beyond 32 bits': [[2147483.647, -2147483.647], [-2147483.647, 2147483.647]],
      'fifteen fraction digits': [[1e-15, -3e-15], [0.000000000000002, 1e-6]],
      'fifteen fraction digits, beyond 32 bits (stay JSON)': [[1e-15, 1], [0, 0]],
      'mixed digits': [[0.1, 0.25], [0.125, 100]],
      'beyond 32 bits at any digits (stay JSON)': [[2147483.648, 0], [0, 0]],
      'not short decimals (stay JSON)': [[0.1 + 0.2, 1 / 3], [Math.PI, 0]],
      'sixteen fraction digits (stay JSON)': [[1e-16, 0], [0, 0]],
      'ragged rows (stay JSON)': [[1, 2], [3]],
      'not numbers (stay JSON)': [[1, '2'], [null, 4]],
      'empty rows (stay JSON)': [[], []],
      'no rows (stay JSON)': [],
      'not a grid (stay JSON)': 7,
    };
    for (const [name, heights] of Object.entries(cases)) {
      const scenario = onHeightmaps({ heights });
      const fragment = await roundTrip({ scenario });
      expect(fragment.slice(0, 3), name).toBe(name.includes('stay JSON') ? 's1.' : 's2.');
    }
  });

  test('an embedded PNG round-trips as its bytes; one with other base64 stays JSON', async () => {
    const png = (bytes) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
    const grey16 = readFileSync(path.join(root, 'tests/data/grey16.png'));
    const small = await roundTrip({ scenario: onHeightmaps({ png: png(grey16), height_scale: 1e-5 }), camera });
    expect(small.startsWith('s2.')).toBe(true);
    // The rough field as a 16-bit PNG: its bytes instead of their base64 text.
    const rough = readScenario('rough-field-rocker8.json').terrain.heightmaps[0].heights;
    const image = greyPng(161, 161, (i, j) => Math.round((rough[160 - j][i] + 0.06) * 5e5), { bits: 16 });
    const scenario = onHeightmaps({ png: png(image), height_scale: 2e-6, height_offset: -0.06 });
    const fragment = await roundTrip({ scenario });
    const before = (await v1Link({ scenario })).length;
    const payloadBytes = inflate(fragment).length;
    const jsonBytes = utf8(JSON.stringify({ scenario })).length;
    console.log(`rough field as a ${image.length}-byte 16-bit PNG: payload ${jsonBytes} bytes as JSON, ${payloadBytes} packed; link: version 1 ${before} characters, version 2 ${fragment.length}`);
    // The payload loses the base64 overhead (a quarter of the image's text; the rest is
    // the scenario around it) ...
    expect(payloadBytes).toBeLessThan(0.8 * jsonBytes);
    // ... but the link only a little (82 characters of 24,459 here): the image is
    // deflated already and deflate codes its base64 text at about 6 bits a character.
    expect(fragment.length).toBeLessThan(before);
    // Base64 that is not exactly as written by btoa (no padding, a line break, a
    // different prefix) is kept as it is, in the JSON text.
    const b64 = grey16.toString('base64');
    expect(b64.endsWith('=')).toBe(true);
    for (const text of [png(grey16).replace(/=+$/, ''), png(grey16).replace(b64, `${b64.slice(0, 20)}\n${b64.slice(20)}`), `data:image/png;name=a.png;base64,${b64}`, 'data:image/png;base64,***']) {
      const kept = await roundTrip({ scenario: onHeightmaps({ png: text }) });
      expect(kept.startsWith('s1.')).toBe(true);
    }
  });

  test('a scenario too big even packed is refused with too-long', async () => {
    const rnd = random(3);
    const heights = Array.from({ length: 150 }, () => Array.from({ length: 150 }, () => rnd() * 0.1));
    await expect(encodeShare({ scenario: onHeightmaps({ heights }) })).rejects.toMatchObject({ code: 'too-long' });
  });

  test('the largest heights block a link can carry decodes fast', async () => {
    // ~1 M samples of residual 0, one byte each, fill the 1 MiB payload limit and
    // deflate to a link of about 1.4 k characters: the most a link can make the decoder do.
    const json = JSON.stringify({ scenario: onHeightmaps({ heights: null }) });
    const rows = 1023;
    const columns = Math.floor((MAX_DECOMPRESSED_BYTES - 4 - json.length - 40) / rows);
    const fragment = await v2Link(json, block(0, 1, heightsBody(rows, columns, 3, 1, new Uint8Array(rows * columns))));
    const start = performance.now();
    const r = await decodeShare(fragment);
    const ms = performance.now() - start;
    console.log(`${rows} × ${columns} samples from a ${fragment.length}-character link, decoded in ${ms.toFixed(0)} ms`);
    expect(r.ok).toBe(true);
    const { heights } = r.payload.scenario.terrain.heightmaps[0];
    expect([heights.length, heights[0].length, heights[rows - 1][columns - 1]]).toEqual([rows, columns, 0]);
    expect(ms).toBeLessThan(1000);  // a link is read within a second
  });
});

describe('hostile heightmap blocks', () => {
  const json = JSON.stringify({ scenario: onHeightmaps({ heights: null }, { png: null }) });
  const heights = (body) => v2Link(json, block(0, 1, body));
  const checks = [];
  // Each refusal is precise and quick; the longest is reported.
  const refuse = async (fragment, code, messagePart) => {
    const start = performance.now();
    const r = await expectFailure(fragment, code, messagePart);
    checks.push(performance.now() - start);
    return r;
  };

  test('containers that cannot hold a scenario text', async () => {
    await refuse(link(await deflate(new Uint8Array([1, 0])), 2), 'corrupt', 'fewer than the 4');
    await refuse(link(await deflate(container(new Uint8Array(10)).map((b, i) => (i === 0 ? 232 : i === 1 ? 3 : b))), 2), 'corrupt', 'said to be 1000 bytes long, but only 10 bytes follow');
    // A version-1 payload under the version-2 prefix: its first bytes ("{\"sc") read as a length.
    await refuse(`s2.${(await v1Link({ scenario: readScenario('flat-rocker8.json') })).slice(3)}`, 'corrupt', 'bytes long, but only');
    // The JSON text is checked as in version 1.
    await refuse(await v2Link('{"scenario": 1}'), 'no-scenario', 'is a number');
    await refuse(await v2Link('{"scenario": {"format": "roverlab-scenario"'), 'not-json', 'at the end of the text');
    await refuse(link(await deflate(container(new Uint8Array([0x7b, 0xff]))), 2), 'not-text', 'not UTF-8 text');
  });

  test('a truncated block, and lengths beyond the data', async () => {
    const whole = inflate(await encodeShare({ scenario: readScenario('rough-field-rocker8.json') }));
    await refuse(link(await deflate(whole.subarray(0, whole.length - 100)), 2), 'corrupt', 'the block for terrain.heightmaps[0].heights claims');
    await refuse(await v2Link(json, block(1, 2, [1, 2, 3]).slice(0, 5)), 'corrupt', 'claims 3 bytes, but only 2 follow');
    await refuse(await v2Link(json, [...varint(1), 2, ...varint(1e6), 1, 2, 3, 4, 5]), 'corrupt', 'terrain.heightmaps[1].png claims 1000000 bytes, but only 5 follow');
    await refuse(await v2Link(json, [0]), 'corrupt', 'block 1 (at byte 0) has a header that ends early');
    await refuse(await v2Link(json, [...block(1, 2, [1]), 0, 1]), 'corrupt', 'block 2 (at byte 4) has a header that ends early');
    await refuse(await v2Link(json, [0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0]), 'corrupt', 'holds a number beyond 32 bits');
    await refuse(await heights([2, 2, 3]), 'corrupt', 'the block for terrain.heightmaps[0].heights has a header that ends early');
    // Residuals: fewer than claimed, one that never ends, bytes left over.
    await refuse(await heights(heightsBody(2, 2, 3, 1, [0, 0, 0])), 'corrupt', 'claims 4 samples (2 × 2) in 3 bytes');
    await refuse(await heights(heightsBody(2, 2, 3, 1, [0, 0, 0x80, 0x80])), 'corrupt', 'ends after 2 of 4 samples');
    await refuse(await heights(heightsBody(2, 2, 3, 1, [0, 0, 0, 0, 0, 0])), 'corrupt', 'has 2 bytes after its 4 samples');
  });

  test('a block claiming 1e9 samples, or more than a scenario holds, is refused before anything is allocated', async () => {
    for (const [rows, columns] of [[1e9, 1], [65536, 65536], [2049, 2050], [4294967295, 4294967295]]) {
      await refuse(await heights(heightsBody(rows, columns, 3, 1, [0])), 'too-large', `claims ${rows * columns} samples (${rows} × ${columns}); a scenario holds at most 4198401 (2049 × 2049)`);
    }
    // At the limit, but with the bytes of 3 samples.
    await refuse(await heights(heightsBody(2049, 2049, 3, 1, [0, 0, 0])), 'corrupt', 'claims 4198401 samples (2049 × 2049) in 3 bytes');
  });

  test('blocks that do not fit the scenario or name what does not exist', async () => {
    const body = heightsBody(1, 2, 3, 1, [0, 0]);
    await refuse(await v2Link(json, block(5, 1, body)), 'corrupt', 'there is a block for terrain.heightmaps[5].heights, but the scenario has no "heights": null there');
    await refuse(await v2Link(json, block(1, 1, body)), 'corrupt', 'terrain.heightmaps[1].heights, but the scenario has no "heights": null');
    await refuse(await v2Link(json, [...block(0, 1, body), ...block(0, 1, body)]), 'corrupt', 'terrain.heightmaps[0].heights, but the scenario has no "heights": null');
    await refuse(await v2Link(JSON.stringify({ scenario: readScenario('flat-rocker8.json') }), block(0, 1, body)), 'corrupt', 'there is a block for terrain.heightmaps[0].heights');
    await refuse(await v2Link(json, block(0, 7, body)), 'corrupt', 'block 1 is of kind 7, which this share format version does not have');
    await refuse(await heights(heightsBody(2, 0, 3, 1, [])), 'corrupt', 'has 2 × 0 samples');
    await refuse(await heights(heightsBody(1, 2, 16, 1, [0, 0])), 'corrupt', 'has 16 decimal digits (at most 15)');
    await refuse(await heights(heightsBody(1, 2, 3, 2, [0, 0])), 'corrupt', 'names predictor 2 (0 or 1)');
    // The same blocks, well formed, decode.
    const r = await decodeShare(await v2Link(json, [...block(0, 1, heightsBody(1, 2, 3, 1, [4, 3])), ...block(1, 2, [1, 2])]));
    expect(r.payload.scenario.terrain.heightmaps.map((h) => h.heights ?? h.png)).toEqual([[[0.002, 0]], 'data:image/png;base64,AQI=']);
  });

  test('each refusal took well under a second', () => {
    expect(checks.length).toBeGreaterThan(20);  // the refusals above were all timed
    console.log(`hostile heightmap blocks: ${checks.length} links refused, the slowest in ${Math.max(...checks).toFixed(1)} ms`);
    expect(Math.max(...checks)).toBeLessThan(1000);  // a link is read within a second
  });
});

// ---- meshes: version 3 ----

const v3Link = async (json, blocks) => link(await deflate(container(json, blocks)), 3);
/** A mesh body: lines, digits, then the runs' bytes as given. */
const objBody = (lines, digits, runBytes) => [...varint(lines), digits, ...runBytes];
const zz = (d) => (d < 0 ? -2 * d - 1 : 2 * d);
/** A flat-rocker8 scenario on one mesh with this `obj`. */
function onMesh(obj) {
  const scenario = readScenario('flat-rocker8.json');
  scenario.terrain = { meshes: [{ obj, material: 'soil' }] };
  return scenario;
}

describe('meshes in links (version 3)', () => {
  test('the rubble patch links in version 3, exactly, at under half the characters of version 1', async () => {
    const scenario = readScenario('rubble-articulated6.json');
    const fragment = await encodeShare({ scenario, camera });
    expect(fragment.startsWith('s3.')).toBe(true);
    expect(fragment.length).toBeLessThan(MAX_FRAGMENT_LENGTH);
    const before = (await v1Link({ scenario, camera })).length;
    console.log(`rubble patch (${scenario.terrain.meshes[0].obj.length} characters of OBJ): version 1 ${before} characters, version 3 ${fragment.length}`);
    expect(fragment.length).toBeLessThan(0.5 * before);
    const r = await decodeShare(fragment);
    expect(JSON.stringify(r.payload)).toBe(JSON.stringify({ scenario, camera }));
  });

  test('OBJ lines that would not come back as they were stay text; the whole text comes back exactly', async () => {
    const obj = [
      '# a comment, ünïcödé 坂道', 'o patch', 'v 0 0 0', 'v 1 0 0.25', 'v 1 1 -0.5', 'v 0 1 1e-7', 'v 2 0 -0', 'v  2 1 0', 'v 2 2 0.10',
      'v 3 3 3 # note', 'v 1.5 2.5 0.123456789', 'vn 0 0 1', 'f 1 2 3', 'f 1 3 4', 'f 2 5 6', 'f 1/1 2/2 3/3', 'f 01 2 3', 'f 3 2 1\r', '', 's off', 'v 4 4 4 ',
    ].join('\n');
    const fragment = await roundTrip({ scenario: onMesh(obj) });
    expect(fragment.startsWith('s3.')).toBe(true);
    for (const text of ['# only a comment\nv 0 0 -0\nf 1/1 2/2 3/3', 'v 0 0 1e-12\n']) {
      expect((await roundTrip({ scenario: onMesh(text) })).startsWith('s1.')).toBe(true);  // nothing packs
    }
  });

  test('a heightmap and a mesh in one scenario: both packed, version 3', async () => {
    const scenario = { ...onMesh('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n') };
    scenario.terrain = { ...scenario.terrain, heightmaps: [{ origin: [-2, -2], cell: 0.1, heights: [[0, 0.1], [0.2, 0.3]] }] };
    expect((await roundTrip({ scenario })).startsWith('s3.')).toBe(true);
  });
});

describe('hostile mesh blocks', () => {
  const json = JSON.stringify({ scenario: onMesh(null) });
  const checks = [];
  async function refuse(fragment, code, messagePart) {
    const start = performance.now();
    const r = await decodeShare(fragment);
    checks.push(performance.now() - start);
    expect(r.ok, messagePart).toBe(false);
    expect(r.code).toBe(code);
    expect(r.message).toContain(messagePart);
  }
  const mesh = async (body) => v3Link(json, block(0, 3, body));

  test('a mesh block is read only in version 3', async () => {
    const body = objBody(1, 0, [1, 1, zz(1), zz(2), zz(3)]);
    await refuse(await v2Link(json, block(0, 3, body)), 'corrupt', 'block 1 is of kind 3, which this share format version does not have');
    const r = await decodeShare(await mesh(body));
    expect(r.payload.scenario.terrain.meshes[0].obj).toBe('v 1 2 3');
  });

  test('bodies that end early, claim more than they hold, or do not fit their rules', async () => {
    await refuse(await mesh([]), 'corrupt', 'terrain.meshes[0].obj has a header that ends early');
    await refuse(await mesh(objBody(6, 0, [1, 1, 0, 0, 0])), 'corrupt', 'claims 6 lines in 5 bytes');
    await refuse(await mesh(objBody(2, 0, [1, 1, 0, 0, 0, 1])), 'corrupt', 'ends after 1 of 2 lines');
    await refuse(await mesh(objBody(1, 0, [1, 0, 0, 0, 0])), 'corrupt', 'a run of 0 lines after 0 of 1');
    await refuse(await mesh(objBody(1, 0, [1, 2, 0, 0, 0, 0, 0, 0])), 'corrupt', 'a run of 2 lines after 0 of 1');
    await refuse(await mesh(objBody(1, 0, [5, 1, 0, 0, 0])), 'corrupt', 'a run of kind 5 (0, 1 or 2)');
    await refuse(await mesh(objBody(1, 10, [1, 1, 0, 0, 0])), 'corrupt', 'has 10 decimal digits (at most 9)');
    await refuse(await mesh(objBody(1, 0, [1, 1, 0, 0])), 'corrupt', 'ends in line 1');
    await refuse(await mesh(objBody(1, 0, [2, 1, zz(-1), 0, 0])), 'corrupt', 'a vertex index below 1 in line 1');
    await refuse(await mesh(objBody(1, 0, [0, 1, 2, 0xc3, 0x28])), 'corrupt', 'line 1 that is not UTF-8 text');
    await refuse(await mesh(objBody(1, 0, [0, 1, 3, 0x61, 0x0a, 0x62])), 'corrupt', 'a line break inside line 1');
    await refuse(await mesh(objBody(1, 0, [0, 1, 9, 0x61])), 'corrupt', 'ends in line 1');
    await refuse(await mesh(objBody(1, 0, [1, 1, 0, 0, 0, 7])), 'corrupt', 'has 1 bytes after its 1 lines');
    await refuse(await v3Link(json, block(1, 3, objBody(1, 0, [1, 1, 0, 0, 0]))), 'corrupt', 'terrain.meshes[1].obj, but the scenario has no "obj": null there');
  });

  test('the largest mesh block a link can carry decodes fast', async () => {
    // Vertices of three one-byte differences fill the 1 MiB payload limit: the
    // most OBJ text (about 350 k lines) a link can make the decoder write.
    const count = Math.floor((MAX_DECOMPRESSED_BYTES - 4 - json.length - 40) / 3);
    const body = new Uint8Array(16 + 3 * count);
    const head = [...varint(count), 0, 1, ...varint(count)];
    body.set(head);
    body.fill(2, head.length, head.length + 3 * count);  // each coordinate one more than the vertex before
    const fragment = await mesh(body.subarray(0, head.length + 3 * count));
    const start = performance.now();
    const r = await decodeShare(fragment);
    const ms = performance.now() - start;
    console.log(`${count} vertex lines from a ${fragment.length}-character link, decoded in ${ms.toFixed(0)} ms`);
    expect(r.ok).toBe(true);
    expect(r.payload.scenario.terrain.meshes[0].obj.endsWith(`v ${count} ${count} ${count}`)).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  test('each refusal took well under a second', () => {
    expect(checks.length).toBe(15);  // the refusals above were all timed
    expect(Math.max(...checks)).toBeLessThan(1000);
  });
});

describe('with the WASM core', () => {
  let core;
  beforeAll(async () => {
    if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run npm test to build it`);
    const { default: createRoverlabCore } = await import(modulePath);
    core = await createRoverlabCore();
  });

  const issuesOf = (scenario) => {
    const world = new core.World(JSON.stringify(scenario));
    try {
      return world.ok() ? [] : world.issues();
    } finally {
      world.delete();
    }
  };

  test('an invalid scenario decodes, and the core rejects it', async () => {
    const scenario = readScenario('flat-rocker8.json');
    scenario.robot.params = { wheel_radius: -1 };
    const r = await decodeShare(await encodeShare({ scenario, camera }));
    expect(r.ok).toBe(true);
    const issues = issuesOf(r.payload.scenario);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((i) => i.path)).toContain('robot.params.wheel_radius');
    expect(issues.find((i) => i.path === 'robot.params.wheel_radius').message).toMatch(/-1/);
  });

  // Chat tools and mail programs pass links of a few thousand characters
  // intact; a typical edited scenario should stay well inside that.
  const TYPICAL_LIMIT = 2000;
  test(`a typical scenario (2 rows × 20 quads, robot, camera) links in < ${TYPICAL_LIMIT} characters`, async () => {
    const payload = typicalPayload();
    expect(issuesOf(payload.scenario)).toEqual([]);  // a scenario the app would run
    const url = shareUrl('http://localhost:5173/', await encodeShare(payload));
    const fragment = fragmentOf(url);
    const json = JSON.stringify(payload).length;
    console.log(`typical scenario: JSON ${json} characters, fragment ${fragment.length}, full link ${url.length} (${url})`.slice(0, 200));
    expect(fragment.length).toBeLessThan(TYPICAL_LIMIT);
    expect(await decodeShare(fragment)).toEqual({ ok: true, payload });
  });

  test('every file in terrains/ is valid and its link lengths', async () => {
    const rows = [];
    for (const file of terrainFiles) {
      const scenario = readScenario(file);
      expect(issuesOf(scenario)).toEqual([]);
      if (!linkedFiles.includes(file)) continue;
      expect(depth({ scenario, camera })).toBeLessThanOrEqual(7);
      const plain = (await encodeShare({ scenario })).length;
      const withCamera = (await encodeShare({ scenario, camera })).length;
      rows.push(`${file}: ${JSON.stringify(scenario).length} JSON, ${plain} fragment, ${withCamera} with camera`);
      // A heightmap's samples or a mesh make a long link (the rough field's
      // ~12 000 characters, the rubble patch's ~38 500, packed); it must still
      // fit the link limit.
      const long = scenario.terrain.heightmaps || scenario.terrain.meshes;
      expect(withCamera).toBeLessThan(long ? MAX_FRAGMENT_LENGTH : TYPICAL_LIMIT);
    }
    console.log(rows.join('\n'));
  });
});
