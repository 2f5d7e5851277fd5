// Scenario share links: a scenario (and optionally the camera) packed into the
// URL fragment, `#s3.<base64url>`: "s" + format version + ".", then the
// payload, deflated (raw deflate, RFC 1951) and base64url-encoded without
// padding (RFC 4648 §5). Version 1's payload is the JSON text; version 2's is
// the JSON text's length (4 bytes), the JSON text with the heightmaps' samples
// and images taken out, and those as binary blocks (share_blocks.js,
// heightmap_codec.js); version 3's likewise, with the meshes' OBJ text too
// (mesh_codec.js). encodeShare writes version 3 when there is a mesh to pack,
// else version 2 when there is a heightmap to pack, else version 1;
// decodeShare reads all three. A payload may also carry a study
// (docs/study-format.md) whose base scenario is the payload's scenario: the
// link then opens the study in the app's Study tab. Works in browsers and in
// Node ≥ 20.12 with platform APIs only (CompressionStream / DecompressionStream 'deflate-raw').
//
// decodeShare never throws: a broken or hostile link comes back as
// { ok: false, code, message }, the message saying what is wrong and what the
// user can do. It checks the envelope and the payload's shape only; the
// scenario's content is validated by the core (new core.World(json) → issues).
// Format and error codes: docs/share-links.md.

import { packHeightmaps, unpackHeightmapBlock } from './heightmap_codec.js';
import { packMeshes, unpackMeshBlock } from './mesh_codec.js';
import { concat, readBlocks } from './share_blocks.js';

/** Newest version of the share format: encodeShare writes it for a payload with a mesh to pack, 2 for one with a heightmap to pack, 1 otherwise. */
export const SHARE_VERSION = 3;
/** The versions decodeShare reads. */
export const SHARE_VERSIONS = Object.freeze([1, 2, 3]);
// The block kinds (share_blocks.js) each version has.
const BLOCK_KINDS_OF_VERSION = { 2: [1, 2], 3: [1, 2, 3] };
/** Longest fragment (characters after '#') decodeShare accepts and encodeShare writes. */
export const MAX_FRAGMENT_LENGTH = 64 * 1024;
/** Largest payload (version 1: JSON as UTF-8; versions 2 and 3: length, JSON and blocks) after decompression; decompression stops once it is passed. */
export const MAX_DECOMPRESSED_BYTES = 1024 * 1024;
/**
 * Deepest nesting of arrays and objects in a payload. A valid one has at most 7
 * (payload.scenario.terrain.hulls[i].points[j]); far deeper values parse, but
 * JSON.stringify and structuredClone overflow the stack on them.
 */
export const MAX_NESTING_DEPTH = 32;
/** The `format` a shared scenario must declare (docs/scenario-format.md). */
export const SCENARIO_FORMAT = 'roverlab-scenario';
/** The `format` a shared study must declare (docs/study-format.md). */
export const STUDY_FORMAT = 'roverlab-study';

/** Error codes of decodeShare (and of ShareError thrown by encodeShare). */
export const SHARE_ERRORS = Object.freeze({
  EMPTY: 'empty',
  NOT_SHARE_DATA: 'not-share-data',
  UNSUPPORTED_VERSION: 'unsupported-version',
  TOO_LONG: 'too-long',
  BAD_CHARACTER: 'bad-character',
  TRUNCATED: 'truncated',
  CORRUPT: 'corrupt',
  TOO_LARGE: 'too-large',
  NOT_TEXT: 'not-text',
  NOT_JSON: 'not-json',
  TOO_DEEP: 'too-deep',
  DUPLICATE_KEY: 'duplicate-key',
  NOT_OBJECT: 'not-object',
  NO_SCENARIO: 'no-scenario',
  UNKNOWN_FIELD: 'unknown-field',
  WRONG_FORMAT: 'wrong-format',
  BAD_CAMERA: 'bad-camera',
  BAD_STUDY: 'bad-study',
  UNSUPPORTED_PLATFORM: 'unsupported-platform',
  INTERNAL: 'internal',
});

const E = SHARE_ERRORS;
const PREFIXES = 's1.", "s2." or "s3.';  // in messages, within quotes
// Version 2: the JSON text's length in bytes, unsigned 32-bit little-endian, before it.
const JSON_LENGTH_BYTES = 4;
const PAYLOAD_FIELDS = ['scenario', 'camera', 'study'];
// Compressed bytes handed to the decompressor at a time: deflate expands at
// most ~1032:1, so one piece yields at most ~264 KB before the size check.
const INFLATE_PIECE = 256;

/** Thrown by encodeShare; `code` is one of SHARE_ERRORS. */
export class ShareError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'ShareError';
    this.code = code;
  }
}

const fail = (code, message) => ({ ok: false, code, message });
const ASK_AGAIN = 'Ask whoever sent it for a new share link.';
const COPY_AGAIN = 'Copy the whole link again from the original message, or ask whoever sent it for a new one.';
const COPY_AGAIN_LOWER = 'copy the whole link again from the original message, or ask whoever sent it for a new one.';

/**
 * Packs { scenario, camera?, study? } into a fragment string (without '#'), e.g. "s1.q1ZKy...";
 * study: a study document without its scenario (the payload's scenario is its base).
 * Throws ShareError when the payload has the wrong shape or the link would exceed the limits.
 */
export async function encodeShare(payload) {
  const problem = checkPayload(payload);
  if (problem) throw new ShareError(problem.code, problem.message);
  if (nestingDepth(payload, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    throw new ShareError(E.TOO_DEEP, `The payload nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep; a share payload needs at most 7.`);
  }
  const value = { scenario: payload.scenario };
  if (payload.study != null) value.study = payload.study;
  if (payload.camera != null) {
    const { position, target, follow } = payload.camera;
    value.camera = follow ? { position, target, follow: true } : { position, target };
  }
  const fields = packHeightmaps(value.scenario);
  const meshes = packMeshes(fields?.scenario ?? value.scenario);
  const packed = meshes ?? fields;
  const version = meshes ? 3 : fields ? 2 : 1;
  const blocks = concat([fields?.blocks ?? new Uint8Array(0), meshes?.blocks ?? new Uint8Array(0)]);
  const bytes = packed ? container(JSON.stringify({ ...value, scenario: packed.scenario }), blocks) : new TextEncoder().encode(JSON.stringify(value));
  if (bytes.length > MAX_DECOMPRESSED_BYTES) {
    const what = packed ? 'with its heightmaps and meshes packed' : 'as JSON';
    throw new ShareError(E.TOO_LARGE, `The scenario is ${bytes.length} bytes ${what}; a share link holds at most ${MAX_DECOMPRESSED_BYTES} bytes. Save it as a file instead.`);
  }
  const fragment = `s${version}.${toBase64url(await deflateRaw(bytes))}`;
  if (fragment.length > MAX_FRAGMENT_LENGTH) {
    throw new ShareError(E.TOO_LONG, `The share link would be ${fragment.length} characters long; the limit is ${MAX_FRAGMENT_LENGTH}. Save the scenario as a file instead.`);
  }
  return fragment;
}

/**
 * Unpacks a fragment (with or without a leading '#').
 * Returns { ok: true, payload: { scenario, camera?, study? } } or { ok: false, code, message }; never throws.
 */
export async function decodeShare(fragment) {
  try {
    return await decode(fragment);
  } catch (e) {
    return fail(E.INTERNAL, `The share link could not be read because of an unexpected error (${e?.message ?? e}). ${ASK_AGAIN}`);
  }
}

/** The full link: baseHref without its own fragment, then '#' and the fragment. */
export function shareUrl(baseHref, fragment) {
  const href = String(baseHref);
  const hash = href.indexOf('#');
  return `${hash < 0 ? href : href.slice(0, hash)}#${fragment}`;
}

/** The fragment of a link (the text after the first '#', without it), or '' when there is none. */
export function fragmentOf(href) {
  if (typeof href !== 'string') return '';
  const hash = href.indexOf('#');
  return hash < 0 ? '' : href.slice(hash + 1);
}

async function decode(input) {
  let fragment = typeof input === 'string' ? input : '';
  if (fragment.startsWith('#')) fragment = fragment.slice(1);
  if (fragment === '') {
    return fail(E.EMPTY, `The link has no share data: there is nothing after "#". A Roverlab share link ends in "#s3." (or "#s2.", "#s1.") followed by the data; ${COPY_AGAIN_LOWER}`);
  }
  if (fragment.length > MAX_FRAGMENT_LENGTH) {
    return fail(E.TOO_LONG, `The share data is ${fragment.length} characters long; this app reads at most ${MAX_FRAGMENT_LENGTH}. Share the scenario as a file instead.`);
  }
  const head = /^s(\d+)\./.exec(fragment);
  if (!head) {
    return fail(E.NOT_SHARE_DATA, `The part of the link after "#" (${quote(fragment)}) is not Roverlab share data, which starts with "${PREFIXES}". Check that this is a Roverlab share link and that it was copied completely.`);
  }
  const version = SHARE_VERSIONS.find((v) => head[1] === String(v));
  if (version === undefined) {
    return fail(E.UNSUPPORTED_VERSION, `This link uses share format version ${shorten(head[1], 12)}; this app reads versions ${SHARE_VERSIONS.slice(0, -1).join(', ')} and ${SHARE_VERSIONS.at(-1)}. Open it with the Roverlab version that made it, or ask for a link made with this one.`);
  }
  const data = fragment.slice(head[0].length);
  if (data === '') {
    return fail(E.TRUNCATED, `The link ends right after "${head[0]}": the share data is missing. The link was probably cut off when it was copied or sent. ${COPY_AGAIN}`);
  }
  const bad = /[^A-Za-z0-9_-]/.exec(data);
  if (bad) {
    const position = head[0].length + bad.index + 1;
    return fail(E.BAD_CHARACTER, `The share data contains ${describeChar(data, bad.index)} at position ${position} (counting from the first character after "#"), which is not a base64url character (A–Z, a–z, 0–9, "-", "_"). Chat and mail programs sometimes change or add characters: ${COPY_AGAIN_LOWER}`);
  }
  if (data.length % 4 === 1) {
    return fail(E.TRUNCATED, `The share data is incomplete: its ${data.length} characters cannot be a whole number of bytes, so the link was probably cut off when it was copied or sent. ${COPY_AGAIN}`);
  }
  if (typeof DecompressionStream !== 'function') {
    return fail(E.UNSUPPORTED_PLATFORM, 'This browser cannot unpack share links (it has no DecompressionStream). Open the link in a current version of Chrome, Edge, Firefox or Safari.');
  }

  const inflated = await inflateRaw(fromBase64url(data), MAX_DECOMPRESSED_BYTES);
  if (inflated.tooLarge) {
    return fail(E.TOO_LARGE, `The share data unpacks to more than ${MAX_DECOMPRESSED_BYTES} bytes, the most this app accepts (unpacking was stopped there). The link was not made by Roverlab, or made from a scenario too large to share. ${ASK_AGAIN}`);
  }
  if (inflated.error) {
    const reason = String(inflated.error?.message ?? '').replace(/^Failed to execute '[^']*' on '[^']*': /, '').replace(/\.$/, '');
    const detail = reason ? ` (${shorten(reason, 160)})` : '';
    if (isTruncation(inflated.error)) {
      return fail(E.TRUNCATED, `The share data is incomplete: the compressed scenario stops before its end${detail}. The link was probably cut off when it was copied or sent. ${COPY_AGAIN}`);
    }
    return fail(E.CORRUPT, `The share data is damaged: it is not valid compressed data${detail}. The link was probably altered after it was made. ${COPY_AGAIN}`);
  }

  let jsonBytes = inflated.bytes;
  let blocks = null;
  if (version >= 2) {
    const parts = splitContainer(inflated.bytes);
    if (parts.error) return fail(E.CORRUPT, `The share data is damaged: ${parts.error}. The link was probably altered after it was made. ${COPY_AGAIN}`);
    ({ jsonBytes, blocks } = parts);
  }

  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(jsonBytes);
  } catch {
    return fail(E.NOT_TEXT, `The share data unpacks to ${jsonBytes.length} byte${jsonBytes.length === 1 ? '' : 's'} of data that is not UTF-8 text, so it holds no scenario. The link was not made by Roverlab or was damaged. ${ASK_AGAIN}`);
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(E.NOT_JSON, `The share data unpacks to text that is not JSON${jsonErrorWhere(e, text)}. The link was not made by Roverlab or was damaged. ${ASK_AGAIN}`);
  }
  if (nestingDepth(value, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    return fail(E.TOO_DEEP, `The share data nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep; a share payload needs at most 7. The link was not made by Roverlab. ${ASK_AGAIN}`);
  }
  const repeated = duplicateKey(text);
  if (repeated) {
    return fail(E.DUPLICATE_KEY, `The share data names the field ${quote(repeated.key)} twice in one object (at ${quote(repeated.path)}); JSON readers would silently keep one of them. The link was not made by Roverlab. ${ASK_AGAIN}`);
  }
  const problem = checkPayload(value);
  if (problem) return fail(problem.code, `${problem.message} ${ASK_AGAIN}`);
  if (blocks) {
    const budget = { samples: 0, chars: 0 };
    const bad = readBlocks(value.scenario, blocks, BLOCK_KINDS_OF_VERSION[version], (kind, target, path, body) =>
      kind === 3 ? unpackMeshBlock(target, path, body, budget) : unpackHeightmapBlock(kind, target, path, body, budget));
    if (bad?.code === 'too-large') return fail(E.TOO_LARGE, `${bad.message} The link was not made by Roverlab. ${ASK_AGAIN}`);
    if (bad) return fail(E.CORRUPT, `${bad.message} The link was probably altered after it was made. ${COPY_AGAIN}`);
  }
  const payload = { scenario: value.scenario };
  if (value.camera != null) payload.camera = value.camera;
  if (value.study != null) payload.study = value.study;
  return { ok: true, payload };
}

// Version 2's and 3's payload: the JSON text's byte length (32-bit
// little-endian), the JSON text, the blocks.
function container(json, blocks) {
  const text = new TextEncoder().encode(json);
  const out = new Uint8Array(JSON_LENGTH_BYTES + text.length + blocks.length);
  new DataView(out.buffer).setUint32(0, text.length, true);
  out.set(text, JSON_LENGTH_BYTES);
  out.set(blocks, JSON_LENGTH_BYTES + text.length);
  return out;
}

// → { jsonBytes, blocks } | { error } (what is wrong, for a message)
function splitContainer(bytes) {
  if (bytes.length < JSON_LENGTH_BYTES) return { error: `it unpacks to ${bytes.length} byte${bytes.length === 1 ? '' : 's'}, fewer than the ${JSON_LENGTH_BYTES} that give the length of its scenario text` };
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const left = bytes.length - JSON_LENGTH_BYTES;
  if (length > left) return { error: `its scenario text is said to be ${length} bytes long, but only ${left} bytes follow` };
  return { jsonBytes: bytes.subarray(JSON_LENGTH_BYTES, JSON_LENGTH_BYTES + length), blocks: bytes.subarray(JSON_LENGTH_BYTES + length) };
}

/**
 * The first key that appears twice in one object of valid JSON `text`, with
 * the path of its object, or null. JSON.parse keeps the last silently; the
 * core refuses such documents, so a link must too. One pass, no recursion.
 */
function duplicateKey(text) {
  const stack = [];  // per open container: { keys: Set, key } for objects, { index } for arrays
  let expectKey = false;
  const path = () => stack.map((f) => (f.keys ? `.${f.key ?? ''}` : `[${f.index}]`)).join('').replace(/^\./, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (top.keys.has(key)) return { key, path: path() };
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ keys: new Set(), key: undefined });
      expectKey = true;
    } else if (c === '[') {
      stack.push({ index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return null;
}

// The shape of a share payload (not the scenario's content: that is the core's job).
function checkPayload(value) {
  const problem = (code, message) => ({ code, message });
  if (!isObject(value)) {
    return problem(E.NOT_OBJECT, `The share data is JSON but ${kind(value)}, not a share payload, which is an object {"scenario": …, "camera": …}.`);
  }
  if (!('scenario' in value)) {
    return problem(E.NO_SCENARIO, 'The share data has no scenario: its "scenario" field is missing.');
  }
  if (!isObject(value.scenario)) {
    return problem(E.NO_SCENARIO, `The share data has no scenario: its "scenario" field is ${kind(value.scenario)}, not an object.`);
  }
  const unknown = Object.keys(value).find((k) => !PAYLOAD_FIELDS.includes(k));
  if (unknown !== undefined) {
    return problem(E.UNKNOWN_FIELD, `The share data has a field ${quote(unknown)} that this app does not know (it reads "scenario", "camera" and "study"); the link may come from a newer Roverlab.`);
  }
  const format = value.scenario.format;
  if (format !== SCENARIO_FORMAT) {
    const got = format === undefined ? 'has no "format" field' : `has "format": ${show(format)}`;
    return problem(E.WRONG_FORMAT, `The shared scenario ${got}; a Roverlab scenario has "format": "${SCENARIO_FORMAT}".`);
  }
  if (value.camera != null) {
    const why = cameraProblem(value.camera);
    if (why) return problem(E.BAD_CAMERA, `The share data's camera is malformed: ${why}.`);
  }
  if (value.study != null) {
    const why = studyProblem(value.study);
    if (why) return problem(E.BAD_STUDY, `The share data's study is malformed: ${why}.`);
  }
  return null;
}

// A study's envelope (its content is the core's to judge: core.parseStudy).
function studyProblem(study) {
  if (!isObject(study)) return `it is ${kind(study)}, not an object {"format": "${STUDY_FORMAT}", …}`;
  if (study.format !== STUDY_FORMAT) return `${study.format === undefined ? 'it has no "format" field' : `it has "format": ${show(study.format)}`}; a Roverlab study has "format": "${STUDY_FORMAT}"`;
  if ('scenario' in study) return 'it has a "scenario" field; the study\'s scenario is the link\'s "scenario"';
  return null;
}

// A camera: position and orbit target (m); with follow true both are offsets
// from the robot's base (the view follows the robot), otherwise world points.
const CAMERA_FIELDS = ['position', 'target', 'follow'];

function cameraProblem(camera) {
  if (!isObject(camera)) return `it is ${kind(camera)}, not an object {"position": [x, y, z], "target": [x, y, z]}`;
  const extra = Object.keys(camera).find((k) => !CAMERA_FIELDS.includes(k));
  if (extra !== undefined) return `it has a field ${quote(extra)}; a camera has only "position", "target" and "follow"`;
  if (camera.follow !== undefined && typeof camera.follow !== 'boolean') return `"camera.follow" must be true or false, got ${show(camera.follow)}`;
  for (const key of ['position', 'target']) {
    const v = camera[key];
    if (v === undefined) return `"camera.${key}" is missing`;
    if (!Array.isArray(v) || v.length !== 3) return `"camera.${key}" must be [x, y, z], got ${show(v)}`;
    const i = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
    if (i >= 0) return `"camera.${key}[${i}]" must be a finite number (m), got ${show(v[i])}`;
  }
  if (camera.position.every((x, i) => x === camera.target[i])) return '"camera.position" and "camera.target" are the same point, so there is no view direction';
  return null;
}

// Nesting depth of arrays and objects (a number or string is 0), found without
// recursion; stops counting once past `limit`.
function nestingDepth(value, limit) {
  let deepest = 0;
  const stack = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function kind(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `a string (${shorten(JSON.stringify(v), 40)})`;
  return `a ${typeof v} (${shorten(String(v), 40)})`;
}

// A JSON value as the user would read it (non-finite numbers as Infinity, NaN).
function show(v) {
  return shorten(typeof v === 'number' ? String(v) : JSON.stringify(v) ?? String(v), 40);
}

function shorten(s, n) {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function quote(s) {
  return JSON.stringify(shorten(s, 24));
}

const CHAR_NAMES = { 0x20: 'space', 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0xa0: 'no-break space' };

function describeChar(s, index) {
  const cp = s.codePointAt(index);
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (CHAR_NAMES[cp]) return `a ${CHAR_NAMES[cp]} (${hex})`;
  if (cp > 0x20 && cp < 0x7f) return `"${String.fromCodePoint(cp)}"`;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return `the control character ${hex}`;
  return `"${String.fromCodePoint(cp)}" (${hex})`;
}

// The JSON parser's message, with V8's 0-based "at position N" restated as
// the character (from 1) and the text there; SpiderMonkey's messages carry
// "line L column C" themselves.
function jsonErrorWhere(error, text) {
  const message = String(error?.message ?? error).replace(/\.$/, '');
  const at = /\s*(?:in JSON )?at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
  if (!at) return ` (${shorten(message, 160)})`;
  const index = Number(at[1]);
  const where = index >= text.length ? `at the end of the text, after character ${text.length}` : `at character ${index + 1} of ${text.length}: ${JSON.stringify(text.slice(index, index + 16))}`;
  return ` (${message.replace(at[0], '')}, ${where})`;
}

// Truncated input: Node's zlib reports Z_BUF_ERROR "unexpected end of file",
// Chromium "Compressed input was truncated."; anything else is corruption.
function isTruncation(error) {
  return error?.code === 'Z_BUF_ERROR' || /truncat|unexpected end|end of (file|input|stream)/i.test(String(error?.message ?? ''));
}

async function deflateRaw(bytes) {
  const stream = new CompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

// Inflates `bytes`, stopping as soon as the output passes `limit` bytes: the
// input is fed in small pieces while the output is read, so the decompressor
// never runs far ahead of the size check.
// → { bytes } | { tooLarge: true } | { error }
async function inflateRaw(bytes, limit) {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let stopped = false;
  const feeding = (async () => {
    for (let i = 0; i < bytes.length && !stopped; i += INFLATE_PIECE) {
      await writer.write(bytes.subarray(i, i + INFLATE_PIECE));
    }
    if (!stopped) await writer.close();
  })();
  feeding.catch(() => {});  // its failure also errors the readable side, reported below

  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        stopped = true;
        reader.cancel().catch(() => {});
        writer.abort().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(value);
    }
    await feeding;
  } catch (error) {
    stopped = true;
    writer.abort().catch(() => {});
    return { error };
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes: out };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c.charCodeAt(0), i]));

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(bytes.length - i, 3) + 1;
    for (let k = 0; k < chars; k++) s += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return s;
}

// `s` holds only base64url characters and s.length % 4 !== 1 (checked by the caller).
function fromBase64url(s) {
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    const n = s.length - i >= 4 ? 4 : s.length - i;
    let v = 0;
    for (let k = 0; k < 4; k++) v = (v << 6) | (k < n ? VALUE.get(s.charCodeAt(i + k)) : 0);
    out[o++] = (v >> 16) & 255;
    if (n > 2) out[o++] = (v >> 8) & 255;
    if (n > 3) out[o++] = v & 255;
  }
  return out;
}
