// The two rows of quads of [KJ2025]'s terrain editor as data: each row is a
// list of segments { a, b, m } (two vertices of the near side and the midpoint
// of the far side, m). The far side is the near side moved to m:
//   a' = m + (a − b)/2,  b' = m + (b − a)/2,
// and segment i+1 starts where segment i ends (a_{i+1} = a'_i, b_{i+1} = b'_i):
// the shared points. Every function returns new data; nothing is mutated.
// Geometry shown to the user (plane, normal, Track1) comes from the core
// (core.inspectTerrain), which also validates.

export const SIDES = ['left', 'right'];

const add = (p, q) => p.map((v, k) => v + q[k]);
const sub = (p, q) => p.map((v, k) => v - q[k]);
const scale = (p, s) => p.map((v) => v * s);

/** Far vertices a', b' of a segment. */
export function farSide({ a, b, m }) {
  const half = scale(sub(b, a), 0.5);
  return { a: sub(m, half), b: add(m, half) };
}

/** Re-establishes the shared points from segment `from` on: each next
 * segment's a, b become the previous one's far vertices (its m stays). */
export function rechain(row, from = 0) {
  const out = row.map((s) => ({ a: [...s.a], b: [...s.b], m: [...s.m] }));
  for (let i = Math.max(1, from + 1); i < out.length; i++) {
    const far = farSide(out[i - 1]);
    out[i].a = far.a;
    out[i].b = far.b;
  }
  return out;
}

function rowsOf(quads) {
  return { left: quads?.left ?? [], right: quads?.right ?? [] };
}

function withRow(quads, side, row) {
  const next = { ...(quads ?? {}), ...rowsOf(quads) };
  next[side] = row;
  if (!next.left.length) delete next.left;
  if (!next.right.length) delete next.right;
  return next;
}

/** The points offered for the next segment of a row: the shared far vertices
 * of its last segment as a and b, and m one segment-length further on (the
 * paper's editor offers the entered points for the next segment). */
export function nextSegment(quads, side) {
  const row = rowsOf(quads)[side];
  if (!row.length) {
    const y = side === 'left' ? 0.6 : -0.6;
    return { a: [0, y + 0.3, 0], b: [0, y - 0.3, 0], m: [0.5, y, 0] };
  }
  const last = row[row.length - 1];
  const far = farSide(last);
  const nearMid = scale(add(last.a, last.b), 0.5);
  return { a: far.a, b: far.b, m: add(last.m, sub(last.m, nearMid)) };
}

/** Appends a segment; its a and b must be the row's shared points (they are
 * replaced by them when the row is not empty). */
export function addSegment(quads, side, segment) {
  const row = [...rowsOf(quads)[side], { a: [...segment.a], b: [...segment.b], m: [...segment.m] }];
  return withRow(quads, side, rechain(row, row.length - 2));
}

/** Removes segment i; the following segments are re-chained onto the one before. */
export function removeSegment(quads, side, i) {
  const row = rowsOf(quads)[side].filter((_, k) => k !== i);
  return withRow(quads, side, rechain(row, Math.max(0, i - 1)));
}

/** Sets point `key` of segment i: 'm' of any segment, 'a' or 'b' of the
 * first one. (Every segment of a row shares the near-side vector b − a, so a
 * and b of later segments are not free: they are the previous far vertices.)
 * The following segments are re-chained. */
export function setPoint(quads, side, i, key, value) {
  if (key !== 'm' && i !== 0) throw new Error(`${side}[${i}].${key} is a shared point; set m or the first segment's a, b`);
  const row = rowsOf(quads)[side].map((s) => ({ a: [...s.a], b: [...s.b], m: [...s.m] }));
  row[i][key] = [...value];
  return withRow(quads, side, rechain(row, i));
}

/** Points of the rows that a person can move directly: a and b of each
 * row's first segment, every segment's m, and the shared far vertices. */
export function handles(quads) {
  const out = [];
  for (const side of SIDES) {
    const row = rowsOf(quads)[side];
    row.forEach((s, i) => {
      if (i === 0) {
        out.push({ side, index: i, key: 'a', point: s.a });
        out.push({ side, index: i, key: 'b', point: s.b });
      }
      out.push({ side, index: i, key: 'm', point: s.m });
    });
  }
  return out;
}

/** Every vertex of the rows (near and far corners), for snapping. */
export function vertices(quads) {
  const out = [];
  for (const side of SIDES)
    for (const s of rowsOf(quads)[side]) {
      const far = farSide(s);
      out.push(s.a, s.b, far.a, far.b);
    }
  return out;
}

/** Parses "x y z" (spaces or commas) into [x, y, z] (or as many numbers as
 * `sizes` allows); an error message names what is wrong (count, a word that
 * is not a number, a non-finite value). */
export function parsePoint(text, sizes = [3]) {
  const words = String(text).trim().split(/[\s,;]+/).filter(Boolean);
  if (!sizes.includes(words.length)) {
    const wanted = sizes.includes(2) ? 'two or three numbers x y [z]' : 'three numbers x y z';
    return { ok: false, message: `needs ${wanted} separated by spaces, got ${words.length}` };
  }
  const value = [];
  for (const [k, w] of words.entries()) {
    const v = Number(w);
    if (Number.isNaN(v)) return { ok: false, message: `${'xyz'[k]} = '${w}' is not a number` };
    if (!Number.isFinite(v)) return { ok: false, message: `${'xyz'[k]} = ${w} is not finite` };
    value.push(v);
  }
  return { ok: true, value };
}

/** A point as the editor shows it: "x y z" with up to 4 decimals. */
export function formatPoint(p) {
  return p.map((v) => String(Math.round(v * 1e4) / 1e4)).join(' ');
}
