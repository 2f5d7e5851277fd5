// Seeded mutation of share links (docs/share-links.md): `s1.` + base64url of
// the raw-deflated payload JSON {"scenario": ..., "camera": ...}; and, for the
// scenarios with heightmaps or meshes, links of versions 2 and 3 (the JSON
// and binary blocks) with damaged blocks.
//
// generateLinkCase(seed, index) -> { id, cls, desc, fragment, mustRefuse }
// mustRefuse: why decoding this link to a scenario the core accepts would be a silent pass.
import { deflateRawSync } from 'node:zlib';
import { packHeightmaps } from '../../web/src/share/heightmap_codec.js';
import { packMeshes } from '../../web/src/share/mesh_codec.js';
import { MAX_FRAGMENT_LENGTH } from '../../web/src/share/share_link.js';
import { caseSeed, makeRng, pickWeighted } from './prng.mjs';
import { allPaths, deepText, loadCorpus, mutateDocument } from './generate.mjs';

export const LINK_CLASSES = {
  'link-valid': 6,
  'link-scenario': 16,
  'link-base64': 14,
  'link-prefix': 8,
  'link-bomb': 5,
  'link-deep': 8,
  'link-big': 4,
  'link-payload': 10,
  'link-bytes': 8,
  'link-duplicate-key': 4,
  'link-blocks': 8,
};

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The fragment (without '#') for these payload bytes. */
export function fragmentOfBytes(bytes, level = 9) {
  return 's1.' + deflateRawSync(bytes, { level }).toString('base64url');
}

export function fragmentOfText(text, level) {
  return fragmentOfBytes(Buffer.from(text, 'utf8'), level);
}

let corpusCache;
const corpus = () => (corpusCache ??= loadCorpus());

const camera = (rng) => ({ position: [rng.range(-9, 9), rng.range(-9, 9), rng.range(1, 9)], target: [0, 0, 0] });

// Deflate bombs are costly to build: each (size, fill) once per process.
const bombCache = new Map();
function bomb(size, fill) {
  const key = `${size}/${fill}`;
  if (!bombCache.has(key)) {
    let body;
    if (fill === 'scenario') {
      const doc = structuredClone(corpus()[0].doc);
      doc.description = 'x'.repeat(size);
      body = Buffer.from(JSON.stringify({ scenario: doc }));
    } else body = Buffer.alloc(size, fill);
    bombCache.set(key, fragmentOfBytes(body));
  }
  return bombCache.get(key);
}

function mutateBase64(rng, fragment) {
  const data = fragment.slice(3);
  switch (rng.int(6)) {
    case 0: {
      const c = rng.pick([' ', '=', '+', '/', '.', '%', 'é', '\u0000', '#', '\n', '\t', '\u200b', '😀', '%20', '==']);
      const at = rng.int(data.length + 1);
      return { fragment: 's1.' + data.slice(0, at) + c + data.slice(at), desc: `${JSON.stringify(c)} inserted at ${at}`, mustRefuse: 'not base64url' };
    }
    case 1: {
      const at = rng.int(data.length);
      return { fragment: 's1.' + data.slice(0, at), desc: `truncated to ${at} of ${data.length} characters`, mustRefuse: at < data.length - 2 ? 'truncated' : null };
    }
    case 2: {
      const chars = data.split('');
      const n = rng.range(1, 5);
      for (let i = 0; i < n; i++) chars[rng.int(chars.length)] = rng.pick(B64URL.split(''));
      return { fragment: 's1.' + chars.join(''), desc: `${n} characters replaced`, mustRefuse: null };
    }
    case 3: {
      const at = rng.int(data.length);
      const n = rng.range(1, 40);
      return { fragment: 's1.' + data.slice(0, at) + data.slice(at + n), desc: `${n} characters cut at ${at}`, mustRefuse: null };
    }
    case 4: {
      const tail = rng.pick(['AAAA', 'A', 'AA', '____', data.slice(0, 20)]);
      return { fragment: fragment + tail, desc: `${JSON.stringify(tail)} appended`, mustRefuse: null };
    }
    default: {
      const std = Buffer.from(data, 'base64url').toString('base64');
      return { fragment: 's1.' + std, desc: 'standard base64 with padding', mustRefuse: /[+/=]/.test(std) ? 'not base64url' : null };
    }
  }
}

function linkPrefix(rng, fragment) {
  const data = fragment.slice(3);
  const prefix = rng.pick(['s2.', 'S1.', 's01.', 's1', 's.', '1.', 's99999999999999999999.', 's-1.', 's1..', '#s1.', '##s1.', ' s1.', 's1.s1.', 's1 .', 's１.', 'x', '', 'https://h/#s1.', 's0.']);
  const frag = prefix + data;
  const fine = prefix === '#s1.';
  return { fragment: frag, desc: `prefix ${JSON.stringify(prefix)}`, mustRefuse: fine ? null : `prefix ${JSON.stringify(prefix)}` };
}

function linkPayload(rng, doc) {
  const v = rng.int(12);
  const cases = [
    () => ['[1,2]', 'an array'],
    () => ['"scenario"', 'a string'],
    () => ['null', 'null'],
    () => ['42', 'a number'],
    () => ['{}', 'no scenario'],
    () => [JSON.stringify({ scenario: [] }), 'scenario an array'],
    () => [JSON.stringify({ scenario: doc, tool: 'x' }), 'an unknown field'],
    () => [JSON.stringify({ scenario: { ...doc, format: 'roverlab-scene' } }), 'wrong format'],
    () => [JSON.stringify({ scenario: doc, camera: { position: [1, 2, 3], target: [1, 2, 3] } }), 'camera position = target'],
    () => [JSON.stringify({ scenario: doc, camera: { position: [1, 2], target: [0, 0, 0] } }), 'camera of 2 numbers'],
    () => [`{"scenario": ${JSON.stringify(doc)}, "camera": {"position": [1e400, 0, 0], "target": [0, 0, 0]}}`, 'camera 1e400'],
    () => [JSON.stringify({ scenario: doc, camera: { position: ['1', 2, 3], target: [0, 0, 0], fov: 3 } }), 'camera extra field'],
  ];
  const [text, desc] = cases[v]();
  return { fragment: fragmentOfText(text), desc, mustRefuse: desc };
}

function linkBytes(rng, doc) {
  const text = JSON.stringify({ scenario: doc });
  switch (rng.int(6)) {
    case 0: {
      const b = Buffer.from(text);
      const bad = rng.pick([[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80]]);
      const at = text.indexOf('"name"') > 0 ? text.indexOf('"name"') + 9 : 15;
      return { fragment: fragmentOfBytes(Buffer.concat([b.subarray(0, at), Buffer.from(bad), b.subarray(at)])), desc: `bytes ${Buffer.from(bad).toString('hex')} in the payload`, mustRefuse: 'not UTF-8' };
    }
    case 1:
      return { fragment: fragmentOfBytes(Buffer.from('\ufeff' + text, 'utf16le')), desc: 'UTF-16LE payload', mustRefuse: 'UTF-16' };
    case 2:
      return { fragment: fragmentOfBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])), desc: 'UTF-8 BOM', mustRefuse: null };
    case 3: {
      const f = fragmentOfText(text);
      const raw = Buffer.concat([Buffer.from(f.slice(3), 'base64url'), Buffer.from(rng.pick([[0], [1, 2, 3], [0xff]]))]);
      return { fragment: 's1.' + raw.toString('base64url'), desc: 'bytes after the deflate stream', mustRefuse: null };
    }
    case 4:
      return { fragment: fragmentOfBytes(Buffer.from(text + '\u0000')), desc: 'NUL after the JSON', mustRefuse: 'not JSON' };
    default: {
      const n = rng.range(1, 1000);
      const junk = Buffer.alloc(n);
      for (let i = 0; i < n; i++) junk[i] = rng.int(256);
      return { fragment: 's1.' + junk.toString('base64url'), desc: `${n} random bytes`, mustRefuse: null };
    }
  }
}

function linkDeep(rng, doc) {
  const depth = rng.pick([8, 25, 31, 32, 33, 64, 1000, 100_000, 1_000_000]);
  const form = rng.pick(['array', 'object', 'mixed']);
  const v = rng.int(3);
  let text;
  if (v === 0) text = `{"scenario": ${deepText(depth, form, true)}}`;
  else if (v === 1) text = `{"scenario": ${JSON.stringify(doc).replace(/^\{/, `{"x_unknown": ${deepText(depth, form, true)},`)}}`;
  else text = deepText(depth, form, rng.chance(0.7));
  return { fragment: fragmentOfText(text), desc: `${['scenario', 'unknown field', 'payload'][v]} ${form} nested ${depth} deep`, mustRefuse: `nesting ${depth} deep` };
}

function linkBig(rng, doc) {
  const n = rng.pick([100, 500, 2000, 8000]);
  const d = structuredClone(doc);
  d.terrain = { boxes: Array.from({ length: n }, (_, i) => ({ centre: [i * 0.5, 0, -0.5], size: [0.5, 6, 1] })) };
  return { fragment: fragmentOfText(JSON.stringify({ scenario: d })), desc: `${n} boxes`, mustRefuse: null };
}

function linkDuplicateKey(rng, doc) {
  const text = JSON.stringify({ scenario: doc });
  const v = rng.int(3);
  let t;
  if (v === 0) t = text.replace('"version":1', '"version":1,"version":"one"');
  else if (v === 1) t = text.replace('{"scenario":', '{"scenario":{},"scenario":');
  else t = text.replace('"format":"roverlab-scenario"', '"format":"x","format":"roverlab-scenario"');
  return { fragment: fragmentOfText(t), desc: ['version twice', 'scenario twice', 'format twice'][v], mustRefuse: null };
}

// A version-2 or -3 link (docs/share-links.md) of a scenario with heightmaps
// or meshes, its blocks damaged: bytes changed, cut, inserted, or read under
// the other version. Any answer but a crash, a hang or a slow one will do.
function linkBlocks(rng) {
  const packable = corpus().filter((b) => b.doc.terrain?.heightmaps || b.doc.terrain?.meshes);
  const base = rng.pick(packable);
  const fields = packHeightmaps(base.doc);
  const meshes = packMeshes(fields?.scenario ?? base.doc);
  const packed = meshes ?? fields;
  let version = meshes ? 3 : 2;
  const json = Buffer.from(JSON.stringify({ scenario: packed.scenario }));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(json.length);
  const blocks = Buffer.from(concatBlocks([fields?.blocks, meshes?.blocks]));
  const at = () => rng.int(blocks.length);
  let damaged = blocks;
  let desc;
  switch (rng.int(5)) {
    case 0: {
      const n = rng.range(1, 8);
      damaged = Buffer.from(blocks);
      for (let i = 0; i < n; i++) damaged[at()] ^= 1 << rng.int(8);
      desc = `${n} bits flipped in the blocks`;
      break;
    }
    case 1: {
      const cut = at();
      damaged = blocks.subarray(0, cut);
      desc = `blocks cut at byte ${cut} of ${blocks.length}`;
      break;
    }
    case 2: {
      const k = at();
      damaged = Buffer.from(blocks);
      damaged[k] = rng.pick([0x00, 0x7f, 0x80, 0xff]);
      desc = `block byte ${k} set to ${damaged[k]}`;
      break;
    }
    case 3: {
      const k = at();
      const junk = Buffer.from(Array.from({ length: rng.range(1, 16) }, () => rng.int(256)));
      damaged = Buffer.concat([blocks.subarray(0, k), junk, blocks.subarray(k)]);
      desc = `${junk.length} bytes inserted at block byte ${k}`;
      break;
    }
    default:
      version = version === 3 ? 2 : 3;
      desc = 'read under the other version';
  }
  const fragment = `s${version}.` + deflateRawSync(Buffer.concat([head, json, damaged]), { level: 9 }).toString('base64url');
  return { fragment, desc: `version ${version}: ${desc}`, mustRefuse: null, base: base.name };
}

const concatBlocks = (parts) => Buffer.concat(parts.filter(Boolean).map((p) => Buffer.from(p)));

/** The case number `index` of the link fuzz with this seed. */
export function generateLinkCase(seed, index) {
  const rng = makeRng(caseSeed(seed, index, 0x5bd1e995));
  const base = rng.pick(corpus());
  const doc = structuredClone(base.doc);
  const cls = pickWeighted(rng, LINK_CLASSES);
  const valid = () => fragmentOfText(JSON.stringify(rng.chance(0.5) ? { scenario: doc, camera: camera(rng) } : { scenario: doc }));
  let out;
  switch (cls) {
    case 'link-valid': {
      // A scenario too big for a link (the rubble patch's OBJ text) is refused
      // for its length, as the app's Share offers the file instead.
      const fragment = valid();
      out = fragment.length > MAX_FRAGMENT_LENGTH
        ? { fragment, desc: `unchanged, ${fragment.length} characters`, mustRefuse: 'longer than a link may be' }
        : { fragment: (rng.chance(0.2) ? '#' : '') + fragment, desc: 'unchanged', mustRefuse: null, mustAccept: true };
      break;
    }
    case 'link-scenario': {
      const mcls = rng.pick(['delete', 'type-swap', 'hostile-number', 'string', 'nesting', 'size']);
      const m = mutateDocument(rng, doc, mcls);
      let text;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(m.bytes);
        JSON.parse(text);
      } catch {
        out = { fragment: fragmentOfBytes(Buffer.concat([Buffer.from('{"scenario":'), m.bytes, Buffer.from('}')])), desc: `${mcls}: ${m.desc} (raw)`, mustRefuse: 'not UTF-8 or not JSON' };
        break;
      }
      out = { fragment: fragmentOfText(`{"scenario":${text}}`), desc: `${mcls}: ${m.desc}`, mustRefuse: m.mustRefuse };
      break;
    }
    case 'link-base64': out = mutateBase64(rng, valid()); break;
    case 'link-prefix': out = linkPrefix(rng, valid()); break;
    case 'link-bomb': {
      const size = rng.pick([1_048_577, 1_100_000, 5_000_000, 20_000_000, 50_000_000]);
      const fill = rng.pick([' ', '0', '[', 'scenario']);
      out = { fragment: bomb(size, fill), desc: `${size} bytes of ${JSON.stringify(fill)} deflated`, mustRefuse: 'over 1 MiB unpacked' };
      break;
    }
    case 'link-deep': out = linkDeep(rng, doc); break;
    case 'link-big': out = linkBig(rng, doc); break;
    case 'link-payload': out = linkPayload(rng, doc); break;
    case 'link-blocks': out = linkBlocks(rng); break;
    case 'link-bytes': out = linkBytes(rng, doc); break;
    default: out = linkDuplicateKey(rng, doc);
  }
  return { id: `l${seed}-${index}`, seed, index, cls, base: base.name, ...out };
}

export { allPaths };
