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
