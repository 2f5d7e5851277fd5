// A small seeded PRNG (mulberry32 on a 32-bit state; sfc-style seeding), so a
// fuzz run is the same case sequence for the same seed.

export function makeRng(seed) {
  let s = (Number(seed) >>> 0) ^ 0x9e3779b9;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < 4; i++) next();
  const rng = {
    /** Uniform in [0, 1). */
    float: next,
    /** Integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    /** Integer in [lo, hi]. */
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    /** A sub-seed for a case, so one case can be regenerated alone. */
    fork: () => Math.floor(next() * 4294967296) >>> 0,
  };
  return rng;
}

/**
 * The seed of case `index` of a run seeded `seed`; `mix` (32 bits) keeps the
 * scenario and link case streams apart.
 */
export function caseSeed(seed, index, mix) {
  let h = (Number(seed) >>> 0) ^ Math.imul(index + 1, 0x9e3779b1) ^ mix;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A key of `weights` ({ key: weight }) drawn with probability proportional to its weight. */
export function pickWeighted(rng, weights) {
  const entries = Object.entries(weights);
  let r = rng.float() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [k, w] of entries) if ((r -= w) < 0) return k;
  return entries[entries.length - 1][0];
}
