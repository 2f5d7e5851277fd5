// Regression cases: each hostile input class found so far, with what must happen.
// checkRegression(r, { wasm, tmp }) -> { failures: [{ kind, oracle, detail }], results }
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkScenarioCase } from './fuzz.mjs';
import { deepText, quadRow, root } from './generate.mjs';
import { LIMITS, classifyWasm, runNative } from './oracles.mjs';

const terrain = (name) => readFileSync(path.join(root, 'terrains', name), 'utf8');
const doc = (name) => JSON.parse(terrain(name));
const RIG = 'flat-rocker8.json';
const STEP = 'step-articulated6.json';

/** A scenario's JSON text with `marker` (a string value) replaced by raw text or bytes. */
function withRaw(d, raw) {
  const text = JSON.stringify(d, null, 2);
  const [before, after] = text.split('"@@RAW@@"');
  return Buffer.concat([Buffer.from(before), Buffer.isBuffer(raw) ? raw : Buffer.from(raw), Buffer.from(after)]);
}

function scenario(build) {
  const d = doc(RIG);
  build(d);
  return d;
}

const identicalBoxes = (n) => scenario((d) => {
  d.terrain.boxes = Array.from({ length: n }, () => ({ centre: [2, 0, -0.5], size: [8, 6, 1] }));
});

export const REGRESSIONS = [
  // Bad UTF-8 and other encodings.
  { name: 'name holding bytes FF FE', kind: 'scenario', mustRefuse: 'not UTF-8',
    bytes: () => withRaw(scenario((d) => { d.name = '@@RAW@@'; }), Buffer.from([0x22, 0x61, 0xff, 0xfe, 0x62, 0x22])) },
  { name: 'name holding a lone surrogate (U+D800 in the JS string, ED A0 80 in the file)', kind: 'scenario', mustRefuse: 'not UTF-8',
    bytes: () => withRaw(scenario((d) => { d.name = '@@RAW@@'; }), Buffer.from([0x22, 0x61, 0xed, 0xa0, 0x80, 0x62, 0x22])),
    wasmInput: () => JSON.stringify(scenario((d) => { d.name = '@@NAME@@'; })).replace('@@NAME@@', `a${String.fromCharCode(0xd800)}b`) },
  { name: 'UTF-16LE file with BOM', kind: 'scenario', mustRefuse: 'UTF-16',
    bytes: () => Buffer.from('\ufeff' + terrain(RIG), 'utf16le') },
  { name: "--set $'name=\\xff'", kind: 'scenario', mustRefuse: 'not UTF-8',
    bytes: () => Buffer.from(terrain(RIG)), sets: [Buffer.from([...Buffer.from('name='), 0xff])] },
  // Deep nesting.
  { name: 'unknown field holding [ x 100000 (unclosed)', kind: 'scenario', mustRefuse: 'nesting',
    bytes: () => withRaw(scenario((d) => { d.x_unknown = '@@RAW@@'; }), deepText(100_000, 'array', false)) },
  { name: 'unknown field holding [ x 100000 ] x 100000', kind: 'scenario', mustRefuse: 'nesting',
    bytes: () => withRaw(scenario((d) => { d.x_unknown = '@@RAW@@'; }), deepText(100_000, 'array', true)) },
  { name: 'unknown field holding {"a": x 100000 (unclosed)', kind: 'scenario', mustRefuse: 'nesting',
    bytes: () => withRaw(scenario((d) => { d.x_unknown = '@@RAW@@'; }), deepText(100_000, 'object', false)) },
  { name: 'unknown field holding {"a": x 100000 closed', kind: 'scenario', mustRefuse: 'nesting',
    bytes: () => withRaw(scenario((d) => { d.x_unknown = '@@RAW@@'; }), deepText(100_000, 'object', true)) },
  { name: "--set 'terrain.boxes[999999999999]=1'", kind: 'scenario', mustRefuse: 'index far past the end',
    bytes: () => Buffer.from(terrain(STEP)), sets: ['terrain.boxes[999999999999]=1'] },
  { name: 'version nested 5000 deep (new World, validate)', kind: 'scenario', mustRefuse: 'nesting',
    bytes: () => withRaw(scenario((d) => { d.version = '@@RAW@@'; }), '['.repeat(5000) + '1' + ']'.repeat(5000)) },
  { name: 'version nested 5000 deep (runScenario)', kind: 'wasm-run', seconds: 0.1, mustRefuse: true,
    bytes: () => withRaw(scenario((d) => { d.version = '@@RAW@@'; }), '['.repeat(5000) + '1' + ']'.repeat(5000)) },
  // CPU bombs and overlap.
  { name: '15000 identical boxes', kind: 'scenario', mustRefuse: 'piece count', bytes: () => Buffer.from(JSON.stringify(identicalBoxes(15_000))) },
  { name: '300 identical 128-point hulls', kind: 'scenario', mustRefuse: 'piece count',
    bytes: () => {
      const points = [];
      for (let i = 0; i < 128; i++) {
        const a = (2 * Math.PI * i) / 64;
        points.push([2 + Math.cos(a), Math.sin(a), i < 64 ? -1 : -0.5]);
      }
      return Buffer.from(JSON.stringify(scenario((d) => { d.terrain.hulls = Array.from({ length: 300 }, () => ({ points })); })));
    } },
  { name: '100000 quad segments in a row', kind: 'scenario', mustRefuse: 'piece count',
    bytes: () => Buffer.from(JSON.stringify(scenario((d) => { d.terrain = { quads: { left: quadRow(100_000) } }; }))) },
  { name: '3000 identical overlapping boxes', kind: 'scenario', mustRefuse: 'overlapping pieces', bytes: () => Buffer.from(JSON.stringify(identicalBoxes(3000))) },
  // Silent acceptance.
  { name: 'version 4294967297', kind: 'scenario', mustRefuse: 'version 2^32 + 1', exactPath: 'version',
    bytes: () => withRaw(scenario((d) => { d.version = '@@RAW@@'; }), '4294967297') },
  { name: 'duplicate key "wheel_speed":"fast","wheel_speed":3', kind: 'scenario', mustRefuse: 'duplicate key',
    bytes: () => withRaw(scenario((d) => { d.control = { wheel_speed: '@@RAW@@' }; }), '"fast", "wheel_speed": 3') },
  { name: 'control.wheel_speed 1e400', kind: 'scenario', mustRefuse: '1e400', exactPath: 'control.wheel_speed',
    bytes: () => withRaw(scenario((d) => { d.control = { wheel_speed: '@@RAW@@' }; }), '1e400') },
  { name: '10 MB colour string', kind: 'scenario', mustRefuse: 'not a colour', maxStdout: 64 * 1024,
    bytes: () => Buffer.from(JSON.stringify(scenario((d) => { d.terrain.boxes[0].color = '#' + 'a'.repeat(10_000_000); }))) },
  // runScenario durations.
  { name: 'runScenario(text, Infinity)', kind: 'wasm-run', seconds: Infinity, bytes: () => Buffer.from(terrain(RIG)) },
  { name: 'runScenario(text, 1e300)', kind: 'wasm-run', seconds: 1e300, bytes: () => Buffer.from(terrain(RIG)) },
  { name: 'runScenario with dt 1e-6 and duration 1e4', kind: 'wasm-run', seconds: 0,
    bytes: () => Buffer.from(JSON.stringify(scenario((d) => { d.simulation = { dt: 1e-6, duration: 1e4 }; }))) },
  // World inputs.
  { name: 'setWheelSpeeds(NaN, NaN)', kind: 'wasm-input', method: 'setWheelSpeeds', args: [NaN, NaN], bytes: () => Buffer.from(terrain(RIG)) },
  { name: "setJointTarget('fold_front', NaN)", kind: 'wasm-input', method: 'setJointTarget', args: ['fold_front', NaN], bytes: () => Buffer.from(terrain(STEP)) },
  // Command line.
  { name: 'run --csv /dev/full', kind: 'cli', args: (f) => ['run', f, '--duration', '0.05', '--csv', '/dev/full'], status: 2 },
  { name: 'run --csv-rate 1e-300', kind: 'cli', args: (f) => ['run', f, '--duration', '0.05', '--csv-rate', '1e-300'], status: 2 },
];

export async function checkRegression(r, { wasm, tmp }) {
  const failures = [];
  const fail = (kind, oracle, detail) => failures.push({ kind, oracle, detail });
  if (r.kind === 'scenario') {
    const c = { id: 'regression', cls: 'regression', desc: r.name, bytes: r.bytes(), sets: r.sets ?? [], mustRefuse: r.mustRefuse, wasmInput: r.wasmInput?.() };
    const result = await checkScenarioCase(c, { wasm, tmp });
    failures.push(...result.failures);
    for (const [oracle, o] of [['native', result.native], ['wasm', result.wasm]]) {
      if (!o) continue;
      if (r.exactPath && o.outcome === 'refused' && !o.paths.includes(r.exactPath)) {
        fail('missing-path', oracle, `no issue at ${r.exactPath}: ${JSON.stringify(o.issues)}`);
      }
    }
    if (r.maxStdout && result.native.stdoutBytes > r.maxStdout) fail('bad-refusal', 'native', `${result.native.stdoutBytes} bytes of output`);
    return { failures, results: result };
  }
  if (r.kind === 'wasm-run') {
    const text = r.bytes().toString('utf8');
    const a = await wasm.call({ op: 'run', input: text, seconds: r.seconds });
    const w = classifyWasm(a);
    if (!['ok', 'refused'].includes(w.outcome)) fail(w.outcome, 'wasm', w.detail);
    if (a.ms > LIMITS.answerMs && w.outcome !== 'hang') fail('slow', 'wasm', `${Math.round(a.ms)} ms`);
    if (a.kind === 'ok' && !(a.steps > 0)) fail('silent-pass', 'wasm', `ok with ${a.steps} steps`);
    if (r.mustRefuse && a.kind === 'ok') fail('silent-pass', 'wasm', 'accepted');
    return { failures, results: { wasm: { ...w, steps: a.steps, summaryOk: a.summaryOk } } };
  }
  if (r.kind === 'wasm-input') {
    const a = await wasm.call({ op: 'input', input: r.bytes().toString('utf8'), method: r.method, args: r.args });
    if (a.kind === 'threw' || a.kind === 'hang') fail(a.kind, 'wasm', a.error);
    else if (a.kind !== 'ok') fail('bad-output', 'wasm', `the scenario was refused: ${JSON.stringify(a.issues)}`);
    else {
      if (a.ret !== false) fail('silent-pass', 'wasm', `${r.method}(${r.args.map(String).join(', ')}) returned ${a.ret}, not false`);
      if (a.taken !== 50 || a.outcome !== 'ok' || !a.frameFinite) {
        fail('broke-world', 'wasm', `afterwards step(50) took ${a.taken}, outcome ${a.outcome} ${a.error}, frame ${a.frameFinite ? 'finite' : 'not finite'}`);
      }
    }
    return { failures, results: { wasm: a } };
  }
  // cli
  const f = path.join(root, 'terrains', RIG);
  const raw = await runNative(r.args(f), { tmp, killMs: 10_000 });
  const detail = `exit ${raw.status}${raw.signal ? ` (${raw.signal})` : ''}, stderr ${JSON.stringify(raw.stderr.trim().slice(0, 300))}`;
  if (raw.status !== r.status) fail(raw.signal ? 'crash' : 'wrong-status', 'native', `want exit ${r.status}; got ${detail}`);
  else if (!/\S/.test(raw.stderr)) fail('bad-output', 'native', 'no message on stderr');
  return { failures, results: { native: { status: raw.status, signal: raw.signal, stderr: raw.stderr.slice(0, 300), ms: raw.ms } } };
}
