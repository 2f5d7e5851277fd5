// Meshes of a share payload as binary blocks (share format version 3,
// docs/share-links.md; the block stream: share_blocks.js): a mesh's embedded
// `obj` text becomes its lines, the vertex lines "v x y z" as integers
// (x = k / 10^digits) coded as differences from the vertex before, the face
// lines "f a b c" as differences of their indices, any other line as text.
// The field stays in the payload JSON with the value null, and a block of
// kind 3 (its index into scenario.terrain.meshes) fills it.
//
// Lossless: a line is packed only when it unpacks to the same text (single
// spaces, numbers as JavaScript writes them), so the unpacked `obj` equals
// the original; an `obj` with no such line stays in the JSON.
//
// Block body (integers as unsigned LEB128 varints of at most 5 bytes):
//   varint lines, byte digits (0…9), then runs until the lines are covered:
//   byte kind (0 text, 1 vertices, 2 faces), varint count, then per line:
//     text: varint length, UTF-8 bytes (the line without its "\n");
//     vertex: 3 zigzag varints, each coordinate's k less the previous vertex's;
//     face: 3 zigzag varints: a less the previous face's a, b − a, c − a.
//   The lines are joined by "\n".

import { Writer, corrupt, packTerrainList, unzigzag, zigzag } from './share_blocks.js';

/** Most characters of all the meshes' `obj` text unpacked from one link: a scenario document's size limit (docs/scenario-format.md#limits). */
export const MAX_OBJ_CHARS = 16 * 1024 * 1024;

const KIND_OBJ = 3;
const RUN_TEXT = 0;
const RUN_VERTICES = 1;
const RUN_FACES = 2;
const MAX_DIGITS = 9;
const POW10 = Array.from({ length: MAX_DIGITS + 1 }, (_, n) => Number(`1e${n}`));  // exact doubles
// Integers (coordinates' k, face indices) within ±2^30: their differences fit 32 bits.
const LIMIT = 2 ** 30;
const VERTEX = /^v (\S+) (\S+) (\S+)$/;
const FACE = /^f ([1-9][0-9]{0,9}) ([1-9][0-9]{0,9}) ([1-9][0-9]{0,9})$/;

/**
 * The scenario with its packable meshes' `obj` set to null, and the blocks
 * that hold them: { scenario, blocks: Uint8Array }, or null when none packs.
 * The scenario passed in is not changed.
 */
export function packMeshes(scenario) {
  return packTerrainList(scenario, 'meshes', (mesh) => [{ kind: KIND_OBJ, field: 'obj', body: packObj(mesh.obj) }]);
}

/**
 * Fills `target` (a mesh of the parsed payload JSON) from the body of a block
 * of kind 3 for `path`, in place; `budget` counts the characters unpacked so
 * far over the payload ({ chars }). Returns null, or { code: 'corrupt' |
 * 'too-large', message } (what is wrong, without advice).
 */
export function unpackMeshBlock(target, path, body, budget) {
  const lines = body.varint();
  const digits = body.byte();
  if (lines < 0 || digits < 0) return corrupt(`the block for ${path} has a header that ends early or holds a number beyond 32 bits`);
  if (digits > MAX_DIGITS) return corrupt(`the block for ${path} has ${digits} decimal digits (at most ${MAX_DIGITS})`);
  // Each line takes at least one byte and gives at least its "\n".
  if (lines > body.left() || budget.chars + lines > MAX_OBJ_CHARS) {
    return lines > body.left()
      ? corrupt(`the block for ${path} claims ${lines} lines in ${body.left()} bytes`)
      : tooLarge(path);
  }
  const scale = POW10[digits];
  const out = new Array(lines);
  const text = new TextDecoder('utf-8', { fatal: true });
  let n = 0;
  let chars = budget.chars;
  let x = 0;
  let y = 0;
  let z = 0;
  let a = 0;
  while (n < lines) {
    const kind = body.byte();
    const count = body.varint();
    if (kind < 0 || count < 0) return corrupt(`the block for ${path} ends after ${n} of ${lines} lines`);
    if (count < 1 || count > lines - n) return corrupt(`the block for ${path} has a run of ${count} lines after ${n} of ${lines}`);
    for (const end = n + count; n < end; n++) {
      let line;
      if (kind === RUN_TEXT) {
        const length = body.varint();
        if (length < 0 || length > body.left()) return corrupt(`the block for ${path} ends in line ${n + 1}`);
        try {
          line = text.decode(body.take(length));
        } catch {
          return corrupt(`the block for ${path} has line ${n + 1} that is not UTF-8 text`);
        }
        if (line.includes('\n')) return corrupt(`the block for ${path} has a line break inside line ${n + 1}`);
      } else if (kind === RUN_VERTICES || kind === RUN_FACES) {
        const d0 = body.varint();
        const d1 = body.varint();
        const d2 = body.varint();
        if (d2 < 0 || d1 < 0 || d0 < 0) return corrupt(`the block for ${path} ends in line ${n + 1}`);
        if (kind === RUN_VERTICES) {
          x += unzigzag(d0);
          y += unzigzag(d1);
          z += unzigzag(d2);
          line = `v ${x / scale} ${y / scale} ${z / scale}`;
        } else {
          a += unzigzag(d0);
          const b = a + unzigzag(d1);
          const c = a + unzigzag(d2);
          if (a < 1 || b < 1 || c < 1) return corrupt(`the block for ${path} has a face with a vertex index below 1 in line ${n + 1}`);
          line = `f ${a} ${b} ${c}`;
        }
      } else {
        return corrupt(`the block for ${path} has a run of kind ${kind} (0, 1 or 2)`);
      }
      chars += line.length + 1;
      if (chars > MAX_OBJ_CHARS + 1) return tooLarge(path);
      out[n] = line;
    }
  }
  if (body.left()) return corrupt(`the block for ${path} has ${body.left()} bytes after its ${lines} lines`);
  budget.chars = chars - 1;
  target.obj = out.join('\n');
  return null;
}

function tooLarge(path) {
  return { code: 'too-large', message: `The share data's mesh block for ${path} brings the OBJ text of all meshes past ${MAX_OBJ_CHARS} characters, the most a scenario holds.` };
}

// The block body of an OBJ text, or null when no line packs.
function packObj(obj) {
  if (typeof obj !== 'string' || obj.length > MAX_OBJ_CHARS) return null;
  const lines = obj.split('\n');
  const vertices = lines.map((line) => VERTEX.exec(line));
  // The fewest fraction digits that write every vertex coordinate exactly.
  let digits = 0;
  for (const m of vertices) {
    for (let i = 1; m && i <= 3; i++) {
      const dot = m[i].indexOf('.');
      if (dot >= 0 && !/e/i.test(m[i])) digits = Math.max(digits, m[i].length - dot - 1);
    }
  }
  if (digits > MAX_DIGITS) return null;
  const scale = POW10[digits];
  // Each line's kind and its three integers: a vertex's k or a face's indices,
  // packed only when they unpack to the same text.
  const values = new Array(lines.length).fill(null);
  const kinds = lines.map((line, n) => {
    const v = vertices[n];
    if (v) {
      const k = [v[1], v[2], v[3]].map((t) => Math.round(Number(t) * scale));
      if (!k.every((c, i) => Math.abs(c) < LIMIT && String(c / scale) === v[i + 1])) return RUN_TEXT;
      values[n] = k;
      return RUN_VERTICES;
    }
    const f = FACE.exec(line);
    if (!f) return RUN_TEXT;
    const k = [f[1], f[2], f[3]].map(Number);
    if (!k.every((c) => c < LIMIT)) return RUN_TEXT;
    values[n] = k;
    return RUN_FACES;
  });
  if (!kinds.some((k) => k !== RUN_TEXT)) return null;
  const out = new Writer(16 + obj.length);
  const encoder = new TextEncoder();
  out.varint(lines.length);
  out.byte(digits);
  let vertex = [0, 0, 0];
  let a = 0;
  for (let n = 0; n < lines.length;) {
    let end = n + 1;
    while (end < lines.length && kinds[end] === kinds[n]) end++;
    out.byte(kinds[n]);
    out.varint(end - n);
    for (; n < end; n++) {
      const k = values[n];
      if (kinds[n] === RUN_TEXT) {
        const bytes = encoder.encode(lines[n]);
        out.varint(bytes.length);
        out.append(bytes);
      } else if (kinds[n] === RUN_VERTICES) {
        for (let i = 0; i < 3; i++) out.varint(zigzag(k[i] - vertex[i]));
        vertex = k;
      } else {
        out.varint(zigzag(k[0] - a));
        out.varint(zigzag(k[1] - k[0]));
        out.varint(zigzag(k[2] - k[0]));
        a = k[0];
      }
    }
  }
  return out.bytes();
}
