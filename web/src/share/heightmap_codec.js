// Heightmaps of a share payload as binary blocks (share format versions 2
// and 3, docs/share-links.md; the block stream: share_blocks.js): a
// heightmap's inline `heights` whose numbers are all decimals of at most 15 fraction digits become integers, predicted from
// their neighbours and stored as variable-length residuals; an embedded
// `png` data URL becomes its image bytes. The field stays in the payload JSON
// with the value null (so the object's keys keep their order), and a block
// names the heightmap and field it fills.
//
// Lossless: a packed field unpacks to numbers (or text) identical to the
// original, so JSON.stringify of the unpacked scenario equals that of the
// original. A field that cannot be packed that way stays in the JSON.
//
// Block bodies (integers as unsigned LEB128 varints of at most 5 bytes;
// the block's index is into scenario.terrain.heightmaps):
//   kind 1, heights: varint rows, varint columns, byte digits (0…15),
//     byte predictor (0 none, 1 planar), then rows × columns residuals,
//     row by row, each a zigzag varint of a 32-bit integer;
//     height = k / 10^digits, k = (prediction + residual) wrapped to 32 bits;
//   kind 2, png: the image bytes; png = "data:image/png;base64," + base64.

import { Writer, corrupt, packTerrainList, unzigzag, zigzag } from './share_blocks.js';

/** Most samples per heightmap and in all, as for scenarios (docs/scenario-format.md#limits). */
export const MAX_HEIGHTMAP_SAMPLES = 2049 * 2049;
/** The only data URL prefix a packed `png` has. */
export const PNG_DATA_PREFIX = 'data:image/png;base64,';

const KIND_HEIGHTS = 1;
const KIND_PNG = 2;
const MAX_DIGITS = 15;
const POW10 = Array.from({ length: MAX_DIGITS + 1 }, (_, n) => Number(`1e${n}`));  // exact doubles
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const PREDICT_NONE = 0;
const PREDICT_PLANAR = 1;

/**
 * The scenario with its packable heightmap fields set to null, and the blocks
 * that hold them: { scenario, blocks: Uint8Array }, or null when no field packs.
 * The scenario passed in is not changed.
 */
export function packHeightmaps(scenario) {
  return packTerrainList(scenario, 'heightmaps', (field) => [
    { kind: KIND_HEIGHTS, field: 'heights', body: packHeights(field.heights) },
    { kind: KIND_PNG, field: 'png', body: packPng(field.png) },
  ]);
}

/**
 * Fills `target` (a heightmap of the parsed payload JSON) from the body of a
 * block of kind 1 (heights) or 2 (png) for `path`, in place; `budget` counts
 * the samples filled so far over the payload ({ samples }). Returns null, or
 * { code: 'corrupt' | 'too-large', message } for a body that is malformed or
 * claims more samples than a scenario may hold (message: what is wrong,
 * without advice).
 */
export function unpackHeightmapBlock(kind, target, path, body, budget) {
  if (kind === KIND_PNG) {
    target.png = PNG_DATA_PREFIX + toBase64(body.take(body.left()));
    return null;
  }
  const rows = body.varint();
  const columns = body.varint();
  const digits = body.byte();
  const predictor = body.byte();
  if (rows < 0 || columns < 0 || digits < 0 || predictor < 0) return corrupt(`the block for ${path} ${BAD_HEADER}`);
  const count = rows * columns;
  if (count > MAX_HEIGHTMAP_SAMPLES || budget.samples + count > MAX_HEIGHTMAP_SAMPLES) {
    const what = count > MAX_HEIGHTMAP_SAMPLES ? `claims ${count} samples (${rows} × ${columns})` : `brings the samples of all heightmaps to ${budget.samples + count}`;
    return { code: 'too-large', message: `The share data's heightmap block for ${path} ${what}; a scenario holds at most ${MAX_HEIGHTMAP_SAMPLES} (2049 × 2049).` };
  }
  if (rows < 1 || columns < 1) return corrupt(`the block for ${path} has ${rows} × ${columns} samples`);
  if (digits > MAX_DIGITS) return corrupt(`the block for ${path} has ${digits} decimal digits (at most ${MAX_DIGITS})`);
  if (predictor !== PREDICT_NONE && predictor !== PREDICT_PLANAR) return corrupt(`the block for ${path} names predictor ${predictor} (0 or 1)`);
  // Each residual takes at least one byte: a claim beyond the body is refused before anything is allocated.
  if (count > body.left()) return corrupt(`the block for ${path} claims ${count} samples (${rows} × ${columns}) in ${body.left()} bytes`);
  const heights = unpackHeights(body, rows, columns, digits, predictor);
  if (typeof heights === 'string') return corrupt(`the block for ${path} ${heights}`);
  budget.samples += count;
  target.heights = heights;
  return null;
}

const BAD_HEADER = 'has a header that ends early or holds a number beyond 32 bits';

// ---- heights ----

// The integers k with heights[r][c] === k / 10^digits for the fewest digits,
// their residuals after the better predictor, as a block body; or null.
function packHeights(heights) {
  if (!Array.isArray(heights) || heights.length < 1 || !Array.isArray(heights[0])) return null;
  const rows = heights.length;
  const columns = heights[0].length;
  if (columns < 1 || rows * columns > MAX_HEIGHTMAP_SAMPLES) return null;
  let digits = 0;
  for (const row of heights) {
    if (!Array.isArray(row) || row.length !== columns) return null;
    for (let c = 0; c < columns; c++) {
      const h = row[c];
      if (typeof h !== 'number' || !Number.isFinite(h)) return null;
      while (digits <= MAX_DIGITS && !exactAt(h, digits)) digits++;
      if (digits > MAX_DIGITS) return null;
    }
  }
  // Every height is exact at its own fewest digits; check each again at the most of them.
  const k = new Int32Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const h = heights[r][c];
      if (!exactAt(h, digits)) return null;
      k[r * columns + c] = Math.round(h * POW10[digits]);
    }
  }
  const plain = residuals(k, rows, columns, PREDICT_NONE);
  const planar = residuals(k, rows, columns, PREDICT_PLANAR);
  const [predictor, zigzag] = cost(planar) < cost(plain) ? [PREDICT_PLANAR, planar] : [PREDICT_NONE, plain];
  const out = new Writer(16 + 5 * zigzag.length);
  out.varint(rows);
  out.varint(columns);
  out.byte(digits);
  out.byte(predictor);
  for (const z of zigzag) out.varint(z);
  return out.bytes();
}

// h is k / 10^digits for a 32-bit k (the division rounds as a JSON reader does).
function exactAt(h, digits) {
  const k = Math.round(h * POW10[digits]);
  return k >= INT32_MIN && k <= INT32_MAX && k / POW10[digits] === h;
}

// The prediction of sample (r, c) from the samples before it: the planar one
// is left + up − up-left inside, left along the first row, up down the first column.
function predict(k, r, c, columns, predictor) {
  if (predictor === PREDICT_NONE || (r === 0 && c === 0)) return 0;
  const i = r * columns + c;
  if (r === 0) return k[i - 1];
  if (c === 0) return k[i - columns];
  return k[i - 1] + k[i - columns] - k[i - columns - 1];
}

// Zigzag-coded residuals (Uint32Array), wrapped to 32 bits.
function residuals(k, rows, columns, predictor) {
  const out = new Uint32Array(k.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const d = (k[r * columns + c] - predict(k, r, c, columns, predictor)) | 0;
      out[r * columns + c] = zigzag(d);
    }
  }
  return out;
}

// About the bits the residuals take (their significant bits, one at least).
function cost(zigzag) {
  let bits = 0;
  for (const z of zigzag) bits += 33 - Math.clz32(z);
  return bits;
}

// rows × columns heights from the residuals in `body`, or what is wrong (a string).
function unpackHeights(body, rows, columns, digits, predictor) {
  const k = new Int32Array(rows * columns);
  const scale = POW10[digits];
  const heights = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const row = new Array(columns);
    for (let c = 0; c < columns; c++) {
      const z = body.varint();
      if (z < 0) return `ends after ${r * columns + c} of ${rows * columns} samples`;
      const value = (predict(k, r, c, columns, predictor) + unzigzag(z)) | 0;
      k[r * columns + c] = value;
      row[c] = value / scale;
    }
    heights[r] = row;
  }
  if (body.left()) return `has ${body.left()} bytes after its ${rows * columns} samples`;
  return heights;
}

// ---- png ----

// The image bytes of a PNG data URL whose base64 is exactly as btoa writes it; or null.
function packPng(png) {
  if (typeof png !== 'string' || !png.startsWith(PNG_DATA_PREFIX)) return null;
  const base64 = png.slice(PNG_DATA_PREFIX.length);
  if (base64.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(base64)) return null;
  let binary;
  try {
    binary = atob(base64);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return toBase64(bytes) === base64 ? bytes : null;
}

function toBase64(bytes) {
  const parts = [];
  for (let i = 0; i < bytes.length; i += 0x8000) parts.push(String.fromCharCode(...bytes.subarray(i, i + 0x8000)));
  return btoa(parts.join(''));
}
