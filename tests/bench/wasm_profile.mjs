// Where a WASM step's instructions go, by the module's functions: V8's code
// for each function, counted by valgrind's callgrind (self instructions, the
// calls it makes not included) and named by V8's perf map. The counterpart of
// step_profile.py for the WASM build, and how to find what costs more in WASM
// than natively (callgrind_annotate on the native CLI gives the native side).
//
// Needs a module with its functions' names, built beside the app's:
//   emcmake cmake -S . -B build/wasm-names -DCMAKE_BUILD_TYPE=Release \
//     -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs -DROVERLAB_WASM_OUTPUT_DIR=$PWD/build/wasm-names/out
//   cmake --build build/wasm-names --target roverlab_wasm -j 2
//   node tests/bench/wasm_profile.mjs [--wasm=build/wasm-names/out] [--steps=2500] [--top=25] [--out=FILE] [scenario names…]
// (--profiling-funcs adds a name section and changes no code.) A scenario's
// count is a run of --steps steps less one of 500, as in wasm_instructions.mjs,
// whose driver and V8 flags it uses: every function compiled by V8's
// optimising compiler, on one thread, seeds fixed. About a minute a scenario.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const wasmDir = path.resolve(option('wasm', path.join(root, 'build/wasm-names/out')));
const LAST = Number(option('steps', 2500));
const FIRST = 500;
const TOP = Number(option('top', 25));
const out = option('out', null);
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const scenarios = names.length ? names : ['step-articulated6', 'profile-wheel-rig'];
const V8_FLAGS = ['--single-threaded', '--predictable', '--hash-seed=1', '--random-seed=1', '--no-liftoff', '--no-wasm-tier-up'];
const driver = path.join(root, 'tests/bench/wasm_instructions.mjs');
if (!(LAST > FIRST)) throw new Error(`--steps must be more than ${FIRST}`);
if (!existsSync(path.join(wasmDir, 'roverlab_core.wasm'))) throw new Error(`no roverlab_core.wasm in ${wasmDir} (see this file's header)`);

/** Self instructions by V8 code object name over one driver run of `steps` steps. */
function profile(file, steps) {
  const cg = path.join(os.tmpdir(), `roverlab-wasm-profile-${process.pid}-${steps}.out`);
  return new Promise((resolve, reject) => {
    const args = ['--tool=callgrind', '--smc-check=all', '--dump-instr=yes', `--callgrind-out-file=${cg}`, process.execPath, ...V8_FLAGS, '--perf-basic-prof', `--logfile=${os.devNull}`, driver, '--drive', wasmDir, file, String(steps)];
    const child = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const map = `/tmp/perf-${child.pid}.map`;
      try {
        if (code !== 0) throw new Error(`${file} ${steps}: exit ${code}\n${stderr.slice(-2000)}`);
        resolve(selfByFunction(readFileSync(cg, 'utf8'), readFileSync(map, 'utf8')));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(cg, { force: true });
        rmSync(map, { force: true });
      }
    });
  });
}

/**
 * Sums callgrind's per-instruction costs (positions "instr line", addresses
 * absolute or relative to the previous line's) by the perf map's code ranges;
 * the line after a `calls=` line is the call's inclusive cost and is skipped.
 */
function selfByFunction(callgrind, perfMap) {
  const ranges = perfMap
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(' ');
      return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(' ') };
    })
    .sort((a, b) => a.start - b.start);
  const find = (address) => {
    let lo = 0, hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid].start <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && address < ranges[hi].end ? ranges[hi].name : null;
  };
  const self = new Map();
  let address = 0, skip = false;
  for (const line of callgrind.split('\n')) {
    const c = line[0];
    if (c === 'c' && line.startsWith('calls=')) {
      skip = true;
      continue;
    }
    if (!(c === '+' || c === '-' || c === '*' || (c >= '0' && c <= '9'))) continue;
    const [position, , cost] = line.split(' ');
    if (position[0] === '+') address += parseInt(position.slice(1), 16);
    else if (position[0] === '-') address -= parseInt(position.slice(1), 16);
    else if (position !== '*') address = parseInt(position, 16);
    if (skip) {
      skip = false;
      continue;
    }
    const name = find(address);
    if (name && cost) self.set(name, (self.get(name) ?? 0) + Number(cost));
  }
  return self;
}

// V8's names: "JS:<function>-<index>-turbofan" for the module's functions.
const shortName = (name) => name.replace(/^JS:/, '').replace(/-\d+-turbofan$/, '');

const results = {};
for (const name of scenarios) {
  const file = path.join(root, 'terrains', `${name}.json`);
  const [first, last] = await Promise.all([profile(file, FIRST), profile(file, LAST)]);
  const perStep = new Map();
  for (const [fn, count] of last) {
    const n = (count - (first.get(fn) ?? 0)) / (LAST - FIRST);
    if (n >= 1) perStep.set(shortName(fn), (perStep.get(shortName(fn)) ?? 0) + n);
  }
  const total = [...perStep.values()].reduce((a, b) => a + b, 0);
  const top = [...perStep].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  results[name] = { instructions_per_step: Math.round(total), functions: Object.fromEntries(top.map(([fn, n]) => [fn, Math.round(n)])) };
  console.log(`${name}: ${Math.round(total)} instructions a step in the module's code`);
  for (const [fn, n] of top) console.log(`${String(Math.round(n)).padStart(8)} ${((100 * n) / total).toFixed(1).padStart(5)} %  ${fn.slice(0, 110)}`);
}

if (out) {
  const result = {
    date: new Date().toISOString(),
    command: `node tests/bench/wasm_profile.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    method: `self instructions a step of V8's code for each function of the WASM module (a build with --profiling-funcs), counted by valgrind's callgrind over steps ${FIRST} to ${LAST} (a run of ${LAST} steps less one of ${FIRST}) and named by V8's --perf-basic-prof map; Node ${process.version} (${V8_FLAGS.join(' ')}); the top ${TOP} functions of each scenario`,
    results,
  };
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote ${out}`);
}
