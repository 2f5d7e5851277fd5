// Worker thread holding one instance of the WASM core (web/src/wasm). The
// fuzz runner posts cases; the thread answers { kind, ... }. When the core
// throws or aborts, the instance is replaced by a fresh one before the next
// case (the answer says so). A case that never returns is ended by the runner
// terminating this thread.
import { parentPort, workerData } from 'node:worker_threads';

const { default: createRoverlabCore } = await import(workerData.coreModulePath);
let core = await createRoverlabCore();
const memory = () => core.HEAPU8?.length ?? 0;

const short = (s, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);
const errorText = (e) => short(`${e?.name ?? 'Error'}: ${e?.message ?? String(e)}`);

function issuesOf(world) {
  const list = world.issues();
  return Array.isArray(list) ? list.map((i) => ({ path: i?.path, message: i?.message })) : list;
}

const ops = {
  /** new World(input): ok with warnings, or refused with issues. */
  world({ input }) {
    const world = new core.World(input);
    try {
      if (world.ok()) return { kind: 'ok', warnings: world.warnings() };
      return { kind: 'refused', issues: issuesOf(world) };
    } finally {
      world.delete();
    }
  },
  /** runScenario(input, seconds). */
  run({ input, seconds }) {
    const r = core.runScenario(input, seconds);
    if (r?.ok) return { kind: 'ok', steps: r.summary?.steps, summaryOk: r.summary?.ok, outcome: r.summary?.outcome };
    return { kind: 'refused', issues: Array.isArray(r?.issues) ? r.issues.map((i) => ({ path: i?.path, message: i?.message })) : r?.issues };
  },
  /** An input method with a hostile argument, then 50 steps: the World must refuse it and go on. */
  input({ input, method, args }) {
    const world = new core.World(input);
    try {
      if (!world.ok()) return { kind: 'refused', issues: issuesOf(world) };
      const ret = world[method](...args);
      const taken = world.step(50);
      const frame = Array.from(world.frame());
      return {
        kind: 'ok', ret, taken, outcome: world.outcome(), error: world.error(),
        frameFinite: frame.every(Number.isFinite), time: world.time(),
      };
    } finally {
      world.delete();
    }
  },
};

parentPort.on('message', async (msg) => {
  const before = memory();
  const t0 = performance.now();
  let answer;
  try {
    answer = ops[msg.op](msg);
  } catch (e) {
    answer = { kind: 'threw', error: errorText(e) };
  }
  answer.ms = performance.now() - t0;
  answer.memory = memory();
  answer.grew = answer.memory - before;
  if (answer.kind === 'threw' || answer.memory > workerData.memoryLimit) {
    // The instance may be broken (aborted, or memory it cannot give back): start afresh.
    try {
      core = await createRoverlabCore();
      answer.replaced = true;
    } catch (e) {
      answer.replaced = false;
      answer.error += ` (a fresh instance failed too: ${errorText(e)})`;
    }
  }
  parentPort.postMessage({ id: msg.id, answer });
});

parentPort.postMessage({ ready: true });
