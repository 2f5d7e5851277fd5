// Share links (web/src/share_link.js): round trips of every scenario in
// terrains/, one test per kind of broken or hostile link (each with its own
// error code), an invalid scenario that decodes but the WASM core rejects, and
// the length of a typical link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  MAX_DECOMPRESSED_BYTES,
  MAX_FRAGMENT_LENGTH,
  MAX_NESTING_DEPTH,
  SHARE_VERSION,
  ShareError,
  decodeShare,
  encodeShare,
  fragmentOf,
  shareUrl,
} from '../../web/src/share_link.js';

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
const link = (bytes) => `s${SHARE_VERSION}.${Buffer.from(bytes).toString('base64url')}`;
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

describe('round trip', () => {
  test.each(terrainFiles)('%s', async (file) => {
    const scenario = readScenario(file);
    const fragment = await encodeShare({ scenario });
    expect(fragment).toMatch(/^s1\.[A-Za-z0-9_-]+$/);
    expect(await decodeShare(fragment)).toEqual({ ok: true, payload: { scenario } });
  });

  test.each(terrainFiles)('%s with a camera', async (file) => {
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
    expect(r.message).toContain('reads version 1');
  });

  test('prefix without data', async () => {
    await expectFailure('s1.', 'truncated', 'ends right after "s1."');
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
      expect(depth({ scenario, camera })).toBeLessThanOrEqual(7);
      const plain = (await encodeShare({ scenario })).length;
      const withCamera = (await encodeShare({ scenario, camera })).length;
      rows.push(`${file}: ${JSON.stringify(scenario).length} JSON, ${plain} fragment, ${withCamera} with camera`);
      // A heightmap's samples make a long link (the rough field's ~31 000
      // characters); it must still fit the link limit.
      expect(withCamera).toBeLessThan(scenario.terrain.heightmaps ? MAX_FRAGMENT_LENGTH : TYPICAL_LIMIT);
    }
    console.log(rows.join('\n'));
  });
});
