// A user's controller program (docs/controllers.md): checked, compiled and
// run in the loop of a World of the WASM core. The app's simulation worker and
// `node tools/roverlab.mjs run` both use it; it touches no DOM.
//
// A program is a module whose default export is { period, init(model),
// update(obs) }. It is parsed with acorn first: a syntax error, an import of
// any kind or a missing default export is refused with its line before any of
// it runs. It then runs as a function of its own, with the network and
// messaging globals of the host shadowed (the host removes them from its
// global object as well: seal.js's sealGlobals). Its update is called
// synchronously in the step loop at its period, so a run is deterministic.
// An init or update that throws, or that takes longer than the budget, stops
// the run with a message naming the program's line; one that never returns
// is the host's watchdog's to stop (the app restarts the worker).
import { parse } from 'acorn';

/**
 * Longest an update may take (ms of wall time). A run stops at the second
 * update in a row past it: one alone may be a garbage collection's pause
 * (up to ~160 ms on a busy machine), two in a row is the program. The
 * evaluation of the module and init get INIT_BUDGET_MS, once.
 */
export const UPDATE_BUDGET_MS = 50;
export const INIT_BUDGET_MS = 1000;
/** The period of a program that does not say (s): 100 Hz. */
export const DEFAULT_PERIOD_S = 0.01;
/** Log lines a run keeps, and characters per line. */
export const MAX_LOG_LINES = 1000;
const MAX_LOG_CHARS = 500;
const SOURCE_URL = 'controller.js';

/** Globals a program never sees (shadowed by parameters of undefined). */
const HIDDEN = [
  'fetch', 'importScripts', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'Worker', 'SharedWorker',
  'BroadcastChannel', 'MessageChannel', 'postMessage', 'close', 'self', 'window', 'document',
  'navigator', 'location', 'indexedDB', 'caches', 'process', 'require', 'module', 'globalThis',
  'WebAssembly', 'setTimeout', 'setInterval', 'queueMicrotask',
];

/** A node of acorn's tree and everything below it, depth first. */
function* nodes(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(value)) for (const v of value) yield* nodes(v);
    else if (value && typeof value === 'object') yield* nodes(value);
  }
}

const refusal = (loc, message) => ({ ok: false, error: { line: loc?.line ?? 1, column: (loc?.column ?? 0) + 1, message } });

/**
 * Checks and compiles a program's text. Returns { ok: true, make } where
 * make(console) evaluates the module and returns its default export, or
 * { ok: false, error: { line, column, message } }.
 */
export function compileProgram(source) {
  if (typeof source !== 'string') return refusal(null, `the program must be text, got ${typeof source}`);
  let tree;
  try {
    tree = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (e) {
    return refusal(e.loc, e.message.replace(/ \(\d+:\d+\)$/, ''));
  }
  let exported = null;
  for (const node of nodes(tree)) {
    if (node.type === 'ImportDeclaration' || node.type === 'ImportExpression' || (node.type === 'MetaProperty' && node.meta.name === 'import')) {
      return refusal(node.loc.start, 'a controller program cannot import anything: it runs on its own, without files or the network');
    }
    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') {
      return refusal(node.loc.start, 'a controller program exports one thing: export default { period, init, update }');
    }
    if (node.type === 'ExportDefaultDeclaration') exported = node;
  }
  if (!exported) return refusal({ line: 1, column: 0 }, 'the program must end in export default { period, init(model), update(obs) }');
  // The module as the body of a function: `export default X` becomes an assignment.
  const body = `${source.slice(0, exported.start)}__roverlabExport = ${source.slice(exported.declaration.start, exported.declaration.end)};${source.slice(exported.end)}`;
  let factory;
  try {
    factory = new Function('console', ...HIDDEN, `'use strict'; let __roverlabExport;\n${body}\nreturn __roverlabExport;\n//# sourceURL=${SOURCE_URL}`);
  } catch (e) {
    return refusal(null, e.message);
  }
  return { ok: true, make: (console) => factory(console) };
}

let lineOffset = null;
/** Lines V8 (or another engine) puts before a Function's body, measured once. */
function functionLineOffset() {
  if (lineOffset === null) {
    const probe = new Function(`'use strict'; let x;\nthrow new Error('probe');\n//# sourceURL=${SOURCE_URL}`);
    try {
      probe();
    } catch (e) {
      const m = new RegExp(`${SOURCE_URL}:(\\d+):`).exec(e.stack ?? '');
      lineOffset = m ? Number(m[1]) - 1 : 2;
    }
  }
  return lineOffset;
}

/** The program's line an exception came from (its first frame in the program), or null. */
export function programLine(error) {
  const m = new RegExp(`${SOURCE_URL}:(\\d+):(\\d+)`).exec(String(error?.stack ?? ''));
  if (!m) return null;
  return Math.max(1, Number(m[1]) - functionLineOffset());
}

/** Stops a run: a message and the program's line where there is one. */
export class ProgramError extends Error {
  constructor(message, line = null) {
    super(line ? `line ${line}: ${message}` : message);
    this.line = line;
  }
}

const describe = (value) => {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'number') return String(value);
  return value === null ? 'null' : typeof value;
};

/**
 * Builds the nested `obs` object from a flat row, as the columns' dotted
 * paths say ("wheels.wheel_1.touches.0.nz"); a wheel's touches are as many as
 * its contacts (at most the row carries). Generated once per robot, as code
 * with every name quoted, so an update costs one object literal.
 */
function observationBuilder(columns) {
  const root = {};
  columns.forEach((column, index) => {
    const parts = column.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts.at(-1)] = index;
  });
  const literal = (node, path) => {
    const keys = Object.keys(node);
    if (path.at(-1) === 'touches') {
      const items = keys.map((k) => literal(node[k], [...path, k]));
      const contacts = path.slice(0, -1);
      return `[${items.join(', ')}].slice(0, Math.min(${items.length}, r[${contactsIndex(contacts)}]))`;
    }
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${typeof node[k] === 'number' ? `r[${node[k]}]` : literal(node[k], [...path, k])}`).join(', ')}}`;
  };
  const contactsIndex = (path) => columns.indexOf(`${path.join('.')}.contacts`);
  return new Function('r', `return ${literal(root, [])};`);
}

/**
 * A program running in a World's loop. `world` is the WASM core's World (its
 * scenario valid); `program` compileProgram's result. Options: `now` (ms
 * clock), `budgetMs`, `onPlot(t, name, value)`, `model` (the World's model()
 * if the caller has it: robot, dt, duration, maxWheelSpeed, joints, wheels are
 * read; model() also converts the terrain, which costs on a large one).
 * Throws ProgramError from init and from step when the program fails.
 */
export class ProgramRun {
  constructor(world, compiled, { now = () => performance.now(), budgetMs = UPDATE_BUDGET_MS, onPlot = null, model = null } = {}) {
    this.world = world;
    this.now = now;
    this.budgetMs = budgetMs;
    this.onPlot = onPlot;
    this.log = [];
    this.warnings = [];
    this.warned = new Set();
    this.updates = 0;
    const capture = (level) => (...args) => {
      if (this.log.length >= MAX_LOG_LINES) return;
      const text = args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ').slice(0, MAX_LOG_CHARS);
      this.log.push({ t: world.time(), level, text });
    };
    const console = { log: capture('log'), info: capture('log'), warn: capture('warn'), error: capture('error') };
    this.overBudget = 0;  // updates in a row past the budget
    this.program = this.guard('evaluating the program', () => compiled.make(console), INIT_BUDGET_MS);
    const p = this.program;
    if (!p || typeof p !== 'object') throw new ProgramError(`export default must be an object { period, init, update }, got ${describe(p)}`);
    // Its members once, in the guard: a getter or a Proxy is the program's code too.
    const { update, init, period: given } = this.guard('reading the program', () => ({ update: p.update, init: p.init, period: p.period }), INIT_BUDGET_MS);
    if (typeof update !== 'function') throw new ProgramError('export default has no update(obs) function');
    if (init !== undefined && typeof init !== 'function') throw new ProgramError('init must be a function (or left out)');
    this.updateFn = update;
    const period = given ?? DEFAULT_PERIOD_S;
    model ??= world.model();
    if (typeof period !== 'number' || !(period >= model.dt) || !(period <= Math.max(model.duration, model.dt))) {
      throw new ProgramError(`period must be a number of seconds in [${model.dt}, ${model.duration}] (the step and the run's duration), got ${describe(period)}`);
    }
    if (!world.attachProgram(period)) throw new ProgramError('the scenario also names a controller (control.controller): a run has one');
    this.period = period;
    const observationColumns = world.observationColumns();
    this.build = observationBuilder(observationColumns);
    this.commandColumns = world.commandColumns();
    this.actuatorIndex = new Map(this.commandColumns.map((c, i) => [c, i]));
    this.jointNames = new Set(model.joints.map((j) => j.name));
    this.row = new Float64Array(this.commandColumns.length);
    if (init) this.guard('init', () => init.call(p, programModel(model, observationColumns, this.commandColumns, period)), INIT_BUDGET_MS);
  }

  /**
   * Runs `fn`, timing it; a throw becomes a ProgramError naming the line, and
   * so does a call past `once` ms, or a second update in a row past the budget.
   */
  guard(what, fn, once = null) {
    const started = this.now();
    let value;
    try {
      value = fn();
    } catch (e) {
      if (e instanceof ProgramError) throw e;
      const message = e instanceof Error ? `${e.name}: ${e.message}` : `threw ${describe(e)}`;
      throw new ProgramError(`${what} at t = ${fmt(this.world.time())} s: ${message}`, programLine(e));
    }
    const took = this.now() - started;
    const limit = once ?? this.budgetMs;
    this.overBudget = took > limit ? this.overBudget + 1 : 0;
    if (took > limit && (once !== null || this.overBudget >= 2)) {
      const rule = once !== null ? `it may take at most ${limit} ms` : `updates may take at most ${limit} ms (one past it is let pass)`;
      throw new ProgramError(`${what} took ${Math.round(took)} ms at t = ${fmt(this.world.time())} s; ${rule}`);
    }
    return value;
  }

  warn(key, message) {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push({ t: this.world.time(), message });
  }

  /**
   * One update: the observation in, the command out to the world. Reading
   * the returned command is in the guard too (its getters are the program's).
   */
  update() {
    const obs = this.build(this.world.observation());
    this.guard('update', () => {
      const command = this.updateFn.call(this.program, obs);
      this.row.fill(NaN);
      if (command !== undefined && command !== null) {
        if (typeof command !== 'object') this.warn('type', `update returned ${describe(command)}, not an object; nothing commanded`);
        else this.fill(command);
      }
    });
    this.updates += 1;
    const clamped = this.world.command(this.row);
    if (clamped > 0) this.warn('clamped', `update commanded values beyond the robot's limits (first at t = ${fmt(this.world.time())} s): they were clamped`);
  }

  number(path, value) {
    if (typeof value === 'number' && !Number.isNaN(value)) return value;
    this.warn(`bad:${path}`, `update returned ${path} = ${describe(value)}, not a number; ignored`);
    return NaN;
  }

  fill(c) {
    for (const [key, value] of Object.entries(c)) {
      if (key === 'wheel_speed' || key === 'left_speed' || key === 'right_speed') {
        this.row[this.actuatorIndex.get(key)] = this.number(key, value);
      } else if (key === 'joints' || key === 'actuators') {
        if (!value || typeof value !== 'object') {
          this.warn(`bad:${key}`, `update returned ${key} = ${describe(value)}, not an object of targets by name; ignored`);
          continue;
        }
        for (const [name, target] of Object.entries(value)) {
          const index = this.actuatorIndex.get(`actuators.${name}`);
          if (index === undefined || (key === 'joints' && !this.jointNames.has(name))) {
            this.warn(`name:${key}.${name}`, `update returned ${key}.${name}, but the robot has no such ${key === 'joints' ? 'joint drive' : 'actuator'}; ignored`);
          } else {
            this.row[index] = this.number(`${key}.${name}`, target);
          }
        }
      } else if (key === 'plot') {
        if (!value || typeof value !== 'object') continue;
        for (const [name, v] of Object.entries(value)) if (typeof v === 'number') this.onPlot?.(this.world.time(), name, v);
      } else {
        this.warn(`key:${key}`, `update returned ${key}, which is not a command (wheel_speed, left_speed, right_speed, joints, actuators, plot); ignored`);
      }
    }
  }

  /** Advances up to n steps, updating the program whenever it is due; returns the steps taken. */
  step(n) {
    let taken = 0;
    while (taken < n) {
      if (this.world.programDue()) this.update();
      const k = this.world.step(n - taken);
      taken += k;
      if (k === 0 && !this.world.programDue()) break;  // the run stopped
    }
    return taken;
  }
}

/** What init(model) receives: the robot's names and limits, and the vocabulary of obs and commands. */
function programModel(model, observationColumns, commandColumns, period) {
  return {
    robot: model.robot,
    dt_s: model.dt,
    duration_s: model.duration,
    period_s: period,
    max_wheel_speed_rad_s: model.maxWheelSpeed,
    joints: model.joints.map((j) => ({ name: j.name, prismatic: j.prismatic, lower: j.lower ?? null, upper: j.upper ?? null })),
    wheels: model.wheels.map((w) => ({ name: w.name, radius_m: w.radius, width_m: w.width })),
    actuators: commandColumns.filter((c) => c.startsWith('actuators.')).map((c) => c.slice('actuators.'.length)),
    params: { ...model.programParams },
    observation: observationColumns,
    command: commandColumns,
  };
}

function safeJson(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const fmt = (t) => Number(t.toFixed(4)).toString();
