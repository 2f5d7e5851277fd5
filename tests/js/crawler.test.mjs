// The WASM core's crawlerLinkContact ([BSTU2019]) on hand-built cases of the
// paper, input issues as data, and the panel's default parameters.
import { beforeAll, describe, expect, test } from 'vitest';
import { demoCrawler, obstacleVertices } from '../../web/src/panels/crawler_panel.js';
import { loadWasmCore } from './support.mjs';

let core;

beforeAll(async () => {
  core = await loadWasmCore();
});

const DEG = Math.PI / 180;
const PHI_P = Math.atan2(0.8, 0.6); // the link angle through (0.6, 0.8), on the arc of L = 1
const dir = (a) => [Math.cos(a), Math.sin(a)];
const sub = (p, q, k = 1) => [p[0] - k * q[0], p[1] - k * q[1]];

/** L = 1 turning from 10° to 80°; obstacle 0.4 × 0.3 at angle alphaDeg, A placed by the caller. */
function params(alphaDeg, A) {
  return { L: 1, phiStart: 10 * DEG, phiEnd: 80 * DEG, A, l: 0.4, b: 0.3, alpha: alphaDeg * DEG };
}

describe('crawlerLinkContact, hand-built cases of [BSTU2019]', () => {
  test('v = 1: O1 on vertex A, correction (n = 1) or touching (n = 3, 4)', () => {
    const r = core.crawlerLinkContact(params(70, [0.6, 0.8]));
    expect(r).toMatchObject({ ok: true, mode: 1, kind: 1, kindName: 'O1-A', contact: true });
    expect(r.phiContact).toBeCloseTo(PHI_P, 12);
    expect(r.point).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.8, 12)]);
    expect(r.correction).toMatchObject({ needed: true, lift: true });
    expect(r.correction.endAngle).toBeCloseTo(PHI_P, 12);
    // shortened to the distance from O to side AB, which leaves A at 160° towards O
    expect(r.correction.length).toBeCloseTo(Math.cos(70 * DEG - PHI_P), 9);
    const touching = core.crawlerLinkContact(params(30, [0.6, 0.8]));
    expect(touching).toMatchObject({ mode: 3, kind: 1, correction: { needed: false } });
    expect(core.crawlerLinkContact(params(-20, [0.6, 0.8]))).toMatchObject({ mode: 4, kind: 1 });
  });

  test('v = 3: O1 on vertex E in modes 1, 2 and 4', () => {
    for (const [alphaDeg, mode] of [[20, 1], [-20, 2], [-60, 4]]) {
      const r = core.crawlerLinkContact(params(alphaDeg, sub([0.6, 0.8], dir(alphaDeg * DEG), 0.4)));
      expect(r).toMatchObject({ ok: true, mode, kind: 3 });
    }
  });

  test('v = 4: O1 on side AE, touching only when AE is perpendicular to the link', () => {
    const mid = (alphaDeg) => sub([0.6, 0.8], dir(alphaDeg * DEG), 0.2);
    expect(core.crawlerLinkContact(params(20, mid(20)))).toMatchObject({ mode: 1, kind: 4 });
    const perpendicular = PHI_P / DEG - 90;
    const r = core.crawlerLinkContact(params(perpendicular, mid(perpendicular)));
    expect(r).toMatchObject({ mode: 4, kind: 4, contactDistance: expect.closeTo(1, 9) });
  });

  test('v = 7: the link interior on vertex A, shortened below the distance to side AB', () => {
    const r = core.crawlerLinkContact(params(70, [0.3, 0.4]));
    expect(r).toMatchObject({ ok: true, mode: 1, kind: 7, kindName: 'N-A' });
    expect(r.contactDistance).toBeCloseTo(0.5, 12);
    expect(r.correction.length).toBeCloseTo(0.5 * Math.cos(70 * DEG - PHI_P), 9);
  });

  test('v = 9 and 10: the link along side AE (n = 1) and along side ED (n = 2)', () => {
    const along = core.crawlerLinkContact(params(PHI_P / DEG, [0.3, 0.4]));
    expect(along).toMatchObject({ mode: 1, kind: 9, kindName: 'link along AE' });
    expect(along.pointEnd).toEqual([expect.closeTo(0.54, 9), expect.closeTo(0.72, 9)]); // E, 0.4 further
    const alphaDeg = PHI_P / DEG - 90;
    const ed = core.crawlerLinkContact(params(alphaDeg, sub([0.3, 0.4], dir(alphaDeg * DEG), 0.4)));
    expect(ed).toMatchObject({ mode: 2, kind: 10 });
  });

  test('a side cutting the arc between vertices beyond it is a contact, not n = 5', () => {
    // AE on y = 0.9 from x = -0.5 to 0.5: |OA| = |OE| > L, yet O1 meets AE at 64.16°.
    const r = core.crawlerLinkContact({ ...params(0, [-0.5, 0.9]), l: 1 });
    expect(r).toMatchObject({ ok: true, mode: 1, kind: 4 });
    expect(r.phiContact).toBeCloseTo(Math.asin(0.9), 12);
  });

  test('n = 5: no contact, no contact fields', () => {
    const r = core.crawlerLinkContact(params(10, [1.2, 0.5]));
    expect(r).toMatchObject({ ok: true, mode: 5, kind: 0, contact: false, correction: { needed: false } });
    expect(r.phiContact).toBeUndefined();
  });
});

describe('crawlerLinkContact input issues', () => {
  test('out-of-range and missing fields come back as issues with paths', () => {
    const typed = core.crawlerLinkContact({ ...params(0, [0.5, 0.5]), b: 'wide' });
    expect(typed).toMatchObject({ ok: false, issues: [{ path: 'b', message: 'must be a number' }] });
    const r = core.crawlerLinkContact({ ...params(0, [0.5, 0.5]), L: -1, phiEnd: 2 });
    expect(r.ok).toBe(false);
    expect(r.issues.map((i) => i.path)).toEqual(['L', 'phiEnd']);
    const missing = core.crawlerLinkContact({ L: 1 });
    const required = ['phiStart', 'phiEnd', 'l', 'b', 'alpha', 'A'];
    expect(missing.issues.map((i) => i.path)).toEqual(expect.arrayContaining(required));
    const angles = core.crawlerLinkContact({ ...params(100, [0.5, 0.5]), phiEnd: 2 });
    expect(angles.issues.map((i) => i.path)).toEqual(['phiEnd', 'alpha']);
    expect(core.crawlerLinkContact(null)).toMatchObject({ ok: false, issues: [{ path: 'params' }] });
  });

  test('the link overlapping the obstacle at φ_n, and the support inside it', () => {
    expect(core.crawlerLinkContact(params(0, [0.2, -0.1])).issues[0].path).toBe('phiStart');
    expect(core.crawlerLinkContact(params(0, [-0.1, -0.1])).issues[0].path).toBe('A');
  });
});

describe('crawler panel defaults', () => {
  test('demoCrawler is a valid case needing a correction, and the panel vertices match [BSTU2019]', () => {
    const demo = demoCrawler();
    const r = core.crawlerLinkContact(demo);
    expect(r).toMatchObject({ ok: true, mode: 1, kind: 4 });
    const v = obstacleVertices({ A: [1, 2], l: 0.4, b: 0.3, alpha: Math.PI / 2 });
    expect(v.B[0]).toBeCloseTo(0.7, 12);
    expect(v.D).toEqual([expect.closeTo(0.7, 12), expect.closeTo(2.4, 12)]);
    expect(v.E).toEqual([expect.closeTo(1, 12), expect.closeTo(2.4, 12)]);
  });
});
