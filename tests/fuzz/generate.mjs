// Seeded mutation of scenario files (terrains/*.json) into hostile input.
//
// generateScenarioCase(seed, index) -> {
//   id, cls, desc,
//   bytes: Buffer       the scenario file as written to disk (and given to the WASM core),
//   sets: (string|Buffer)[]   `--set` assignments for the command-line tool (class `set` only),
//   mustRefuse: string|null   why accepting this case would be a silent pass,
// }
// The same (seed, index) always gives the same case.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseSeed, makeRng, pickWeighted } from './prng.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** terrains/*.json: { name, text, doc } sorted by name. */
export function loadCorpus(dir = path.join(root, 'terrains')) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const text = readFileSync(path.join(dir, f), 'utf8');
      return { name: f, text, doc: JSON.parse(text) };
    });
}

/** Mutation classes of scenarios with their relative weights. */
export const SCENARIO_CLASSES = {
  delete: 10,
  'type-swap': 10,
  'hostile-number': 12,
  string: 10,
  nesting: 8,
  size: 5,
  bytes: 14,
  'duplicate-key': 8,
  set: 12,
};

// ---------------------------------------------------------------- helpers

const clone = (v) => structuredClone(v);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every path (array of keys / indices) below the root, depth first. */
export function allPaths(doc) {
  const out = [];
  const walk = (v, p) => {
    if (Array.isArray(v)) v.forEach((x, i) => { out.push([...p, i]); walk(x, [...p, i]); });
    else if (isObject(v)) for (const k of Object.keys(v)) { out.push([...p, k]); walk(v[k], [...p, k]); }
  };
  walk(doc, []);
  return out;
}

export function getAt(doc, p) {
  return p.reduce((v, k) => v?.[k], doc);
}

function setAt(doc, p, value) {
  getAt(doc, p.slice(0, -1))[p[p.length - 1]] = value;
}

function deleteAt(doc, p) {
  const parent = getAt(doc, p.slice(0, -1));
  const k = p[p.length - 1];
  if (Array.isArray(parent)) parent.splice(k, 1);
  else delete parent[k];
}

/** A path as the core writes it: terrain.boxes[1].size[2]. */
export function dotted(p) {
  let s = '';
  for (const k of p) s += typeof k === 'number' ? `[${k}]` : (s ? '.' : '') + k;
  return s;
}

/**
 * Serialises `doc`, replacing every string value "@@RAW<n>@@" by raws[n]
 * verbatim (numbers JSON.stringify cannot write, duplicate keys, deep nesting).
 */
function serialise(doc, raws, indent) {
  let text = JSON.stringify(doc, null, indent);
  if (raws.length) text = text.replace(/"@@RAW(\d+)@@"/g, (_, n) => raws[Number(n)]);
  return text;
}

function rawToken(raws, literal) {
  raws.push(literal);
  return `@@RAW${raws.length - 1}@@`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Why these bytes can only be refused (not UTF-8, not JSON, a key twice in an object), or null. */
export function byteLevelRefusal(bytes) {
  let text;
  try {
    text = utf8.decode(bytes); // a UTF-8 BOM is dropped, as the core may
  } catch {
    return 'not UTF-8';
  }
  try {
    JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const dup = duplicateKey(text);
  return dup === null ? null : `duplicate key ${JSON.stringify(dup).slice(0, 60)}`;
}

/** The first key found twice in one object of this (valid) JSON text, or null. Iterative. */
export function duplicateKey(text) {
  const stack = []; // per open container: a Set of keys (object) or null (array)
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        j = text.indexOf('"', j);
        let k = j - 1;
        while (text[k] === '\\') k--;
        if ((j - 1 - k) % 2 === 0) break; // an even number of backslashes before it: the closing quote
        escaped = true;
        j++;
      }
      if (expectKey) {
        const key = escaped || text.slice(i + 1, j).includes('\\') ? JSON.parse(text.slice(i, j + 1)) : text.slice(i + 1, j);
        const keys = stack[stack.length - 1];
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (ch === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (ch === '[') {
      stack.push(null);
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',') {
      expectKey = stack[stack.length - 1] !== null;
    }
  }
  return null;
}

// ---------------------------------------------------------------- values

const SWAP_VALUES = ['x', '', 0, -1, 1, 0.5, true, false, null, [], {}, [1, 2, 3], { a: 1 }, [[0, 0, 0]], '#zzzzzz', 'default'];

function typeOf(v) {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Number literals, some of which are not JSON at all. */
export const HOSTILE_NUMBERS = [
  'NaN', 'Infinity', '-Infinity', 'nan', 'inf', '1e400', '-1e400', '1e999', '-0', '0', '-0.0', '1e308', '-1e308',
  '1.7976931348623157e308', '4294967297', '4294967296', '4294967295', '2147483648', '-2147483649',
  '9223372036854775807', '9223372036854775808', '18446744073709551615', '18446744073709551616',
  '-9223372036854775809', '123456789012345678901234567890', '-1', '-1e-320', '5e-324', '1e-400', '1e-7',
  '0.1e1', '1E2', '1.0', '+1', '01', '.5', '1.', '0x10', '-', '1e', '1e+', '--1', '1e0400',
];
const NOT_JSON_NUMBERS = new Set(['NaN', 'Infinity', '-Infinity', 'nan', 'inf', '+1', '01', '.5', '1.', '0x10', '-', '1e', '1e+', '--1']);
const OVERFLOWING = new Set(['1e400', '-1e400', '1e999', '1e0400']);

/** Byte sequences that are not UTF-8. */
const BAD_UTF8 = [
  [0xff, 0xfe], [0xff], [0xfe], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80],
  [0xf5, 0x80, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xbf, 0xbf], [0xc3],
];

// ---------------------------------------------------------------- mutations

function pickPath(rng, doc, filter = () => true) {
  const paths = allPaths(doc).filter((p) => filter(p, getAt(doc, p)));
  return paths.length ? rng.pick(paths) : null;
}

const REQUIRED_TOP = new Set(['format', 'version', 'terrain', 'robot']);

function mutateDelete(rng, doc) {
  const n = rng.chance(0.8) ? 1 : rng.range(2, 6);
  const gone = [];
  let mustRefuse = null;
  for (let i = 0; i < n; i++) {
    const p = pickPath(rng, doc);
    if (!p) break;
    deleteAt(doc, p);
    gone.push(dotted(p));
    if (p.length === 1 && REQUIRED_TOP.has(p[0])) mustRefuse = `required field ${p[0]} deleted`;
  }
  return { desc: `delete ${gone.join(', ')}`, mustRefuse };
}

function mutateTypeSwap(rng, doc) {
  const p = pickPath(rng, doc);
  const old = getAt(doc, p);
  let v;
  do v = clone(rng.pick(SWAP_VALUES)); while (typeOf(v) === typeOf(old));
  setAt(doc, p, v);
  const mustRefuse = p.length === 1 && (p[0] === 'format' || p[0] === 'version') ? `${p[0]} of another type` : null;
  return { desc: `${dotted(p)}: ${typeOf(old)} -> ${JSON.stringify(v)}`, mustRefuse };
}

function mutateHostileNumber(rng, doc, raws) {
  const numeric = (q, v) => typeof v === 'number';
  const p = (rng.chance(0.15) ? ['version'] : null) ?? pickPath(rng, doc, numeric) ?? pickPath(rng, doc);
  const lit = rng.pick(HOSTILE_NUMBERS);
  setAt(doc, p, rawToken(raws, lit));
  let mustRefuse = null;
  if (NOT_JSON_NUMBERS.has(lit)) mustRefuse = `${lit} is not a JSON number`;
  else if (OVERFLOWING.has(lit)) mustRefuse = `${lit} is not a finite double`;
  else if (p.length === 1 && p[0] === 'version' && Number(lit) !== 1) mustRefuse = `version ${lit}`;
  return { desc: `${dotted(p)} = ${lit}`, mustRefuse, path: OVERFLOWING.has(lit) ? dotted(p) : undefined };
}

function hostileString(rng) {
  switch (rng.int(9)) {
    case 0: {
      const n = rng.pick([1000, 100_000, 1_000_000, 1_000_000, 10_000_000]);
      return { value: rng.pick(['x', '#', 'é', '\\']).repeat(n), what: `${n} characters`, mustRefuse: null };
    }
    case 1:
      return { value: '\u0000\u0001\u001f\u007f\u0085\u2028\u2029', what: 'escaped control characters', mustRefuse: null };
    case 2: {
      const c = rng.pick(['\n', '\t', '\r', '\u0000', '\u0001', '\u001f']);
      return { raw: `"a${c}b"`, what: `raw U+${c.charCodeAt(0).toString(16).padStart(4, '0')} in a string`, mustRefuse: 'control character in a string' };
    }
    case 3: {
      const bad = rng.pick(BAD_UTF8);
      return { bytes: bad, what: `bytes ${bad.map((b) => b.toString(16)).join(' ')}`, mustRefuse: 'not UTF-8' };
    }
    case 4:
      return { raw: rng.pick(['"\\ud800"', '"\\udc00x"', '"\\ud800\\ud800"', '"\\u12"', '"\\x41"', '"\\"', '"abc']), what: 'bad escape', mustRefuse: null };
    case 5:
      return { value: rng.pick(['é😀', '\u202eevil', '\uffff', '\ufeffname', '𝕏'.repeat(50), 'a\u0000b']), what: 'unicode', mustRefuse: null };
    case 6:
      return { value: rng.pick(['../../etc/passwd', '%s%s%n', '<script>alert(1)</script>', '${x}', '\\u0041', '"quoted"']), what: 'injection text', mustRefuse: null };
    case 7:
      return { value: rng.pick(['articulated6 ', 'ROCKER8', 'rocker8\u0000', 'planar', '3D', 'RK4', '#GGGGGG', '#fff', 'red']), what: 'near-miss name', mustRefuse: null };
    default:
      return { value: '', what: 'empty string', mustRefuse: null };
  }
}

function mutateString(rng, doc, raws, byteInserts) {
  const stringy = (q, v) => typeof v === 'string';
  const p = rng.chance(0.7) ? pickPath(rng, doc, stringy) ?? pickPath(rng, doc) : pickPath(rng, doc);
  const s = hostileString(rng);
  if (s.value !== undefined) setAt(doc, p, s.value);
  else if (s.raw !== undefined) setAt(doc, p, rawToken(raws, s.raw));
  else {
    const token = `@@BYTES${byteInserts.length}@@`;
    byteInserts.push(s.bytes);
    setAt(doc, p, `x${token}y`);
  }
  return { desc: `${dotted(p)} = ${s.what}`, mustRefuse: s.mustRefuse };
}

/** Nested arrays or objects `depth` deep, closed or not. */
export function deepText(depth, form = 'array', closed = true) {
  if (form === 'array') return '['.repeat(depth) + (closed ? ']'.repeat(depth) : '');
  if (form === 'object') return '{"a":'.repeat(depth) + (closed ? '0' + '}'.repeat(depth) : '');
  // mixed
  let open = '', close = '';
  for (let i = 0; i < depth; i++) {
    if (i % 2) { open += '{"a":'; close = '}' + close; } else { open += '['; close = ']' + close; }
  }
  return open + (closed ? '0' + close : '');
}

function mutateNesting(rng, doc, raws) {
  const depth = rng.pick([33, 64, 65, 66, 100, 1000, 5000, 20_000, 100_000]);
  const form = rng.pick(['array', 'object', 'mixed']);
  const closed = rng.chance(0.85);
  const where = rng.int(3);
  let p;
  if (where === 0) p = ['x_unknown'];
  else if (where === 1) p = ['version'];
  else p = pickPath(rng, doc);
  setAt(doc, p, rawToken(raws, deepText(depth, form, closed)));
  return { desc: `${dotted(p)} = ${form} nested ${depth} deep${closed ? '' : ', unclosed'}`, mustRefuse: `nesting ${depth} deep` };
}

function box(i, spacing, dup) {
  return {
    centre: dup ? [2, 0, -0.5] : [i * spacing, 0, -0.5],
    size: dup ? [8, 6, 1] : [spacing * 0.9, 6, 1],
    material: 'default',
  };
}

function hull128(offset = 0) {
  const points = [];
  for (let i = 0; i < 128; i++) {
    const a = (2 * Math.PI * i) / 64;
    const z = i < 64 ? -1 : -0.5;
    points.push([offset + 2 + Math.cos(a), Math.sin(a), z]);
  }
  return points;
}

export function quadRow(n, len = 0.5) {
  const row = [];
  for (let i = 0; i < n; i++) row.push({ a: [i * len, 1, 0], b: [i * len, 0, 0], m: [(i + 1) * len, 0.5, 0] });
  return row;
}

function mutateSize(rng, doc, raws) {
  doc.terrain ??= {};
  const t = isObject(doc.terrain) ? doc.terrain : (doc.terrain = {});
  switch (rng.int(11)) {
    case 0: {
      const n = rng.pick([50, 200, 1000, 3000, 15_000]);
      t.boxes = Array.from({ length: n }, (_, i) => box(i, 0, true));
      return { desc: `${n} identical boxes`, mustRefuse: n >= 3000 ? `${n} identical overlapping boxes` : null };
    }
    case 1: {
      const n = rng.pick([100, 1000, 5000, 20_000]);
      t.boxes = Array.from({ length: n }, (_, i) => box(i, rng.pick([0.01, 0.5, 4]), false));
      return { desc: `${n} boxes in a row`, mustRefuse: null };
    }
    case 2: {
      const n = rng.pick([10, 50, 300]);
      t.hulls = Array.from({ length: n }, () => ({ points: hull128() }));
      return { desc: `${n} identical 128-point hulls`, mustRefuse: n >= 300 ? `${n} identical hulls` : null };
    }
    case 3: {
      const n = rng.pick([129, 1000, 100_000]);
      t.hulls = [{ points: Array.from({ length: n }, (_, i) => [Math.cos(i), Math.sin(i), (i % 7) / 7]) }];
      return { desc: `a hull of ${n} points`, mustRefuse: `hull of ${n} points (at most 128)` };
    }
    case 4: {
      const n = rng.pick([100, 1000, 10_000, 100_000]);
      t.quads = { left: quadRow(n) };
      return { desc: `${n} quad segments in a row`, mustRefuse: n >= 100_000 ? `${n} quad segments` : null };
    }
    case 5: {
      const n = rng.pick([1000, 10_000, 100_000]);
      t.profiles = [{ points: Array.from({ length: n }, (_, i) => [i * 0.01, (i % 3) * 0.001]) }];
      return { desc: `a profile of ${n} points`, mustRefuse: null };
    }
    case 6: {
      const n = rng.pick([1000, 100_000]);
      doc.control = isObject(doc.control) ? doc.control : {};
      doc.control.script = Array.from({ length: n }, (_, i) => ({ t: i * 0.001, wheel_speed: i % 5 }));
      return { desc: `a script of ${n} entries`, mustRefuse: null };
    }
    case 7: {
      const n = rng.pick([1000, 100_000]);
      t.materials = Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { phi_max: 0.8, s0: 0.1, s1: 0.5, rolling: 0.02 }]));
      return { desc: `${n} materials`, mustRefuse: null };
    }
    case 8: {
      const n = rng.pick([1000, 1_000_000]);
      doc.x_unknown = rawToken(raws, '[' + '0,'.repeat(n - 1) + '0]');
      return { desc: `an unknown field holding ${n} numbers`, mustRefuse: 'unknown field' };
    }
    case 9: {
      const n = rng.pick([10_000, 1_000_000]);
      doc['k'.repeat(n)] = 1;
      return { desc: `a key of ${n} characters`, mustRefuse: 'unknown field' };
    }
    default: {
      const n = rng.pick([100, 10_000]);
      doc.track1 = { nodes: Array.from({ length: n }, (_, i) => [i * 0.1, 0.5, 0]) };
      return { desc: `track1 with ${n} nodes`, mustRefuse: null };
    }
  }
}

function mutateDuplicateKey(rng, doc, raws) {
  const p = rng.chance(0.2) ? ['version'] : pickPath(rng, doc, (q) => typeof q[q.length - 1] === 'string');
  const key = p[p.length - 1];
  const old = getAt(doc, p);
  const other = rng.chance(0.5) ? old : rng.pick(SWAP_VALUES);
  const [first, second] = rng.chance(0.5) ? [other, old] : [old, other];
  setAt(doc, p, rawToken(raws, `${JSON.stringify(first)}, ${JSON.stringify(key)}: ${JSON.stringify(second)}`));
  return { desc: `${dotted(p)} twice (${JSON.stringify(first).slice(0, 40)}, then ${JSON.stringify(second).slice(0, 40)})`, mustRefuse: 'duplicate key' };
}

// Raw byte mutations of a serialised document.
function mutateBytes(rng, text) {
  let b = Buffer.from(text, 'utf8');
  switch (rng.int(10)) {
    case 0: {
      const at = rng.int(b.length);
      return { bytes: b.subarray(0, at), desc: `truncated to ${at} of ${b.length} bytes` };
    }
    case 1: {
      b = Buffer.from(b);
      const n = rng.range(1, 4);
      const where = [];
      for (let i = 0; i < n; i++) {
        const at = rng.int(b.length);
        b[at] = rng.chance(0.5) ? rng.int(256) : b[at] ^ (1 << rng.int(8));
        where.push(at);
      }
      return { bytes: b, desc: `bytes changed at ${where.join(', ')}` };
    }
    case 2: {
      const at = rng.int(b.length + 1);
      const ins = Buffer.from(rng.pick([[0], [0xff, 0xfe], [0xef, 0xbb, 0xbf], [0x80], [0x1b, 0x5b, 0x41], [0x7f], [0xc3]]));
      return { bytes: Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]), desc: `bytes ${ins.toString('hex')} inserted at ${at}` };
    }
    case 3: {
      const le = Buffer.from('\ufeff' + text, 'utf16le');
      const v = rng.int(3);
      if (v === 0) return { bytes: le, desc: 'UTF-16LE with BOM', mustRefuse: 'UTF-16' };
      if (v === 1) return { bytes: Buffer.from(text, 'utf16le'), desc: 'UTF-16LE without BOM', mustRefuse: 'UTF-16' };
      return { bytes: Buffer.from(le).swap16(), desc: 'UTF-16BE with BOM', mustRefuse: 'UTF-16' };
    }
    case 4:
      return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]), desc: 'UTF-8 BOM' };
    case 5: {
      const u32 = Buffer.alloc(text.length * 4);
      for (let i = 0; i < text.length; i++) u32.writeUInt32LE(text.charCodeAt(i), i * 4);
      return { bytes: u32, desc: 'UTF-32LE', mustRefuse: 'UTF-32' };
    }
    case 6: {
      const tail = rng.pick(['x', '{}', '\u0000', ' 1', ',', ']', '//c', '\n{"a":1}']);
      return { bytes: Buffer.concat([b, Buffer.from(tail)]), desc: `trailing ${JSON.stringify(tail)}` };
    }
    case 7: {
      const whole = rng.pick(['', ' ', '\n', 'null', '[]', '{}', '0', '"roverlab-scenario"', '\u0000', '{', '[', 'true', '{"format":"roverlab-scenario"}']);
      return { bytes: Buffer.from(whole), desc: `the whole file is ${JSON.stringify(whole)}` };
    }
    case 8:
      return { bytes: Buffer.from(text.replace(/\n/g, '\r\n')), desc: 'CRLF line ends' };
    default: {
      const at = rng.int(b.length);
      const n = rng.range(1, 64);
      return { bytes: Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + n))]), desc: `${n} bytes cut at ${at}` };
    }
  }
}

const SET_PATHS = [
  'name', 'version', 'format', 'robot.preset', 'robot.params.wheel_radius', 'robot.pose.position[0]', 'control.wheel_speed',
  'simulation.dt', 'simulation.duration', 'terrain.boxes[0].size[2]', 'terrain.base', 'x_unknown', 'terrain.boxes[0]',
];

function mutateSet(rng, doc) {
  const sets = [];
  const whats = [];
  let mustRefuse = null;
  const n = rng.chance(0.7) ? 1 : rng.range(2, 3);
  for (let i = 0; i < n; i++) {
    const kind = rng.int(9);
    if (kind === 0) {
      const idx = rng.pick(['5', '100', '1000000', '999999999999', '9223372036854775808', '18446744073709551616', '-1', '1e20', 'x', '', '0x1', '01']);
      const base = rng.pick(['terrain.boxes', 'terrain.boxes[0].size', 'control.script', 'robot.pose.position', 'terrain.hulls']);
      const arr = getAt(doc, base.replace(/\[(\d+)\]/g, '.$1').split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)));
      const len = Array.isArray(arr) ? arr.length : 0;
      sets.push(`${base}[${idx}]=1`);
      whats.push(`index ${idx}`);
      if (!/^\d+$/.test(idx) || Number(idx) >= len) mustRefuse = `index ${idx} of ${base} (${len} elements)`;
    } else if (kind === 1) {
      const bad = rng.pick(BAD_UTF8);
      sets.push(Buffer.concat([Buffer.from(`${rng.pick(['name', 'robot.preset', 'description'])}=`), Buffer.from(bad)]));
      whats.push(`bytes ${Buffer.from(bad).toString('hex')}`);
      mustRefuse = 'not UTF-8';
    } else if (kind === 2) {
      const pth = rng.pick(['', '=', '.', '[', 'a..b', 'terrain.boxes[', 'terrain.boxes[x]', 'terrain..base', '.name', 'name.', '[0]', 'a/b', '~0', 'a~1b', '$', 'robot.params.', 'terrain.boxes[0]]']);
      sets.push(`${pth}=1`);
      whats.push(`path ${JSON.stringify(pth)}`);
      if (!['a/b', '~0', 'a~1b', '$'].includes(pth)) mustRefuse = `path ${JSON.stringify(pth)}`;
      else mustRefuse = 'unknown field';
    } else if (kind === 3) {
      sets.push(rng.pick(['name', 'robot.params.wheel_radius', '', 'terrain.base 0.5']));
      whats.push('no "="');
      mustRefuse = 'assignment without "="';
    } else if (kind === 4) {
      // An argument holds at most 128 KiB (Linux MAX_ARG_STRLEN).
      const depth = rng.pick([65, 1000, 20_000]);
      sets.push(`${rng.pick(SET_PATHS)}=${deepText(depth, rng.pick(['array', 'object']), true)}`);
      whats.push(`value nested ${depth} deep`);
      mustRefuse = `nesting ${depth} deep`;
    } else if (kind === 5) {
      const depth = rng.pick([65, 1000, 10_000]);
      sets.push(`x${'[0]'.repeat(depth)}=1`);
      whats.push(`path with ${depth} indices`);
      mustRefuse = 'unknown field';
    } else if (kind === 6) {
      const lit = rng.pick(HOSTILE_NUMBERS);
      const pth = rng.pick(SET_PATHS);
      sets.push(`${pth}=${lit}`);
      whats.push(`${pth}=${lit}`);
      if (OVERFLOWING.has(lit)) mustRefuse = `${lit} is not a finite double`;
      if (pth === 'version' && Number(lit) !== 1 && !mustRefuse) mustRefuse = `version ${lit}`;
      if (pth === 'x_unknown') mustRefuse = 'unknown field';
    } else if (kind === 7) {
      const size = rng.pick([1000, 100_000]);
      sets.push(`${rng.pick(SET_PATHS)}=${'x'.repeat(size)}`);
      whats.push(`a ${size}-character value`);
    } else {
      const v = rng.pick(['{}', '[]', 'null', 'true', '"x"', '{"a":1}', '[1,2,3]', '[', '{', '"', 'planar', 'rk4']);
      const pth = rng.pick(SET_PATHS);
      sets.push(`${pth}=${v}`);
      whats.push(`${pth}=${v}`);
      if (pth === 'x_unknown') mustRefuse = 'unknown field';
    }
  }
  return { sets, desc: `--set ${whats.join(' / ')}`, mustRefuse };
}

// ---------------------------------------------------------------- cases

let corpusCache;
function corpus() {
  return (corpusCache ??= loadCorpus());
}

/**
 * A JSON-level mutation of a parsed scenario (no byte mutation, no --set), for
 * share links: { doc, text, cls, desc, mustRefuse }.
 */
export function mutateDocument(rng, doc, cls) {
  const raws = [];
  const byteInserts = [];
  let r;
  switch (cls) {
    case 'delete': r = mutateDelete(rng, doc); break;
    case 'type-swap': r = mutateTypeSwap(rng, doc); break;
    case 'hostile-number': r = mutateHostileNumber(rng, doc, raws); break;
    case 'string': r = mutateString(rng, doc, raws, byteInserts); break;
    case 'nesting': r = mutateNesting(rng, doc, raws); break;
    case 'size': r = mutateSize(rng, doc, raws); break;
    case 'duplicate-key': r = mutateDuplicateKey(rng, doc, raws); break;
    default: throw new Error(`no document mutation ${cls}`);
  }
  const text = serialise(doc, raws, rng.chance(0.5) ? 2 : undefined);
  let bytes;
  if (byteInserts.length) {
    const parts = text.split(/@@BYTES(\d+)@@/);
    bytes = Buffer.concat(parts.map((s, i) => (i % 2 ? Buffer.from(byteInserts[Number(s)]) : Buffer.from(s, 'utf8'))));
  } else bytes = Buffer.from(text, 'utf8');
  return { ...r, bytes };
}

/** The case number `index` of the scenario fuzz with this seed. */
export function generateScenarioCase(seed, index) {
  const rng = makeRng(caseSeed(seed, index, Math.imul(1, 0x85ebca6b)));
  const base = rng.pick(corpus());
  const doc = clone(base.doc);
  const cls = pickWeighted(rng, SCENARIO_CLASSES);
  const id = `s${seed}-${index}`;
  let out;
  if (cls === 'bytes') {
    const text = rng.chance(0.5) ? base.text : JSON.stringify(doc);
    out = mutateBytes(rng, text);
  } else if (cls === 'set') {
    out = { ...mutateSet(rng, doc), bytes: Buffer.from(base.text) };
  } else {
    out = mutateDocument(rng, doc, cls);
  }
  const byteReason = byteLevelRefusal(out.bytes);
  const mustRefuse = out.mustRefuse ?? byteReason ?? null;
  return {
    id, seed, index, cls, base: base.name, desc: out.desc,
    bytes: out.bytes, sets: out.sets ?? [], mustRefuse, path: out.path,
  };
}
