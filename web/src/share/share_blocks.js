// The binary blocks of a share payload (share format versions 2 and 3,
// docs/share-links.md): each fills one field of the payload's scenario that
// the JSON text holds as null. A block is
//   varint index, byte kind, varint body length, body
// (integers as unsigned LEB128 varints of at most 5 bytes). Kinds 1 and 2
// fill a heightmap's `heights` and `png` (heightmap_codec.js), kind 3 a
// mesh's `obj` (mesh_codec.js).

/** Block kinds: the field each fills, and the terrain list its index is into. */
export const BLOCK_KINDS = Object.freeze({
  1: { list: 'heightmaps', field: 'heights' },
  2: { list: 'heightmaps', field: 'png' },
  3: { list: 'meshes', field: 'obj' },
});

const BAD_HEADER = 'has a header that ends early or holds a number beyond 32 bits';

/** The message of a damaged block stream: `The share data is damaged: ${detail}.` */
export const corrupt = (detail) => ({ code: 'corrupt', message: `The share data is damaged: ${detail}.` });

/**
 * Reads the blocks of `bytes`, each of a kind in `kinds`, and calls
 * fill(kind, target, path, body) for each, target being the object whose field
 * (null in the JSON) the block fills, body a Reader over the block's body.
 * Returns null, or the first { code, message } that fill or the stream gave.
 */
export function readBlocks(scenario, bytes, kinds, fill) {
  const reader = new Reader(bytes);
  for (let n = 0; !reader.done(); n++) {
    const start = reader.at;
    const index = reader.varint();
    const kind = reader.byte();
    const length = reader.varint();
    if (index < 0 || kind < 0 || length < 0) return corrupt(`block ${n + 1} (at byte ${start}) ${BAD_HEADER}`);
    const what = kinds.includes(kind) ? BLOCK_KINDS[kind] : null;
    if (!what) return corrupt(`block ${n + 1} is of kind ${kind}, which this share format version does not have`);
    const path = `terrain.${what.list}[${index}].${what.field}`;
    if (length > reader.left()) return corrupt(`the block for ${path} claims ${length} bytes, but only ${reader.left()} follow`);
    const list = scenario?.terrain?.[what.list];
    const target = Array.isArray(list) ? list[index] : undefined;
    if (typeof target !== 'object' || target === null || !Object.prototype.hasOwnProperty.call(target, what.field) || target[what.field] !== null) {
      return corrupt(`there is a block for ${path}, but the scenario has no ${JSON.stringify(what.field)}: null there to fill`);
    }
    const problem = fill(kind, target, path, new Reader(reader.take(length)));
    if (problem) return problem;
  }
  return null;
}

/**
 * The scenario with the fields of the objects in scenario.terrain[list] that
 * pack set to null, and the blocks that hold them: { scenario, blocks:
 * Uint8Array }, or null when none packs. packItem(object) gives
 * [{ kind, field, body }], body null for a field that does not pack. The
 * scenario passed in is not changed.
 */
export function packTerrainList(scenario, list, packItem) {
  const terrain = scenario?.terrain;
  const items = terrain?.[list];
  if (typeof terrain !== 'object' || Array.isArray(terrain) || !Array.isArray(items)) return null;
  const blocks = [];
  const packed = items.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const replaced = {};
    for (const { kind, field, body } of packItem(item)) {
      if (!body) continue;
      blocks.push(block(index, kind, body));
      replaced[field] = null;
    }
    return Object.keys(replaced).length ? { ...item, ...replaced } : item;
  });
  if (!blocks.length) return null;
  return { scenario: { ...scenario, terrain: { ...terrain, [list]: packed } }, blocks: concat(blocks) };
}

/** One block: index, kind, body (Uint8Array). */
export function block(index, kind, body) {
  const out = new Writer(16 + body.length);
  out.varint(index);
  out.byte(kind);
  out.varint(body.length);
  out.append(body);
  return out.bytes();
}

/** The byte arrays one after the other. */
export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A 32-bit signed integer as an unsigned one, small magnitudes small (zigzag). */
export const zigzag = (d) => ((d << 1) ^ (d >> 31)) >>> 0;
/** The signed integer of a zigzag code. */
export const unzigzag = (z) => (z >>> 1) ^ -(z & 1);

/** Bytes written into a buffer that starts at `capacity` and grows as needed. */
export class Writer {
  constructor(capacity) {
    this.buffer = new Uint8Array(Math.max(16, capacity));
    this.at = 0;
  }

  // Room for n more bytes.
  reserve(n) {
    if (this.at + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(2 * this.buffer.length, this.at + n));
    grown.set(this.buffer.subarray(0, this.at));
    this.buffer = grown;
  }

  byte(b) {
    this.reserve(1);
    this.buffer[this.at++] = b;
  }

  // An unsigned 32-bit integer, 7 bits a byte, low bits first.
  varint(v) {
    this.reserve(5);
    while (v > 0x7f) {
      this.buffer[this.at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[this.at++] = v;
  }

  append(bytes) {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  bytes() {
    return this.buffer.subarray(0, this.at);
  }
}

/**
 * Bytes read in order. Reads never pass the end: byte() and varint() give -1
 * there (and varint() for more than 5 bytes or a value beyond 32 bits);
 * take(n) expects n <= left().
 */
export class Reader {
  constructor(bytes) {
    this.data = bytes;
    this.at = 0;
  }

  done() {
    return this.at >= this.data.length;
  }

  left() {
    return this.data.length - this.at;
  }

  byte() {
    return this.at < this.data.length ? this.data[this.at++] : -1;
  }

  varint() {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.at >= this.data.length) return -1;
      const b = this.data[this.at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value <= 0xffffffff ? value : -1;
    }
    return -1;
  }

  take(n) {
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}
