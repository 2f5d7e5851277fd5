// The study pool: a few Web Workers (study_worker.js), each with its own WASM
// core, that run a study's tasks (grid rows, or the threshold searches of its
// combinations) in parallel, one task per worker at a time, and report each
// result as it comes. Cancel terminates the workers: the results reported so
// far stay the caller's, the tasks under way are dropped (not results).
//
// A worker that fails (its core aborts, the worker itself errs) or whose run
// passes the time limit is terminated and replaced by a fresh one: its task
// is reported as failed ({ failed: true, message }) and the others go on, so
// neither a crash nor a runaway run holds up the study or the page. A worker
// that cannot even load the core ends the study with that error.

/** At most this many workers (each holds a core and its memory). */
export const MAX_WORKERS = 8;
/** Wall seconds one run may take by default before its worker is stopped. */
export const RUN_TIME_LIMIT_S = 600;

/** The workers to use by default: one per logical processor, 1 … MAX_WORKERS. */
export function defaultWorkerCount(processors = globalThis.navigator?.hardwareConcurrency) {
  return Math.min(MAX_WORKERS, Math.max(1, Math.floor(Number(processors)) || 1));
}

const newWorker = () => new Worker(new URL('./study_worker.js', import.meta.url), { type: 'module' });

export class StudyPool {
  /**
   * @param {{ workers?: number, runTimeLimitS?: number, createWorker?: () => Worker }} options
   *   workers: 1 … MAX_WORKERS (default: defaultWorkerCount()); runTimeLimitS: wall seconds a run
   *   may take (a threshold search's runs each); createWorker: a new worker (study_worker.js's protocol)
   */
  constructor({ workers = defaultWorkerCount(), runTimeLimitS = RUN_TIME_LIMIT_S, createWorker = newWorker } = {}) {
    this.size = Math.min(MAX_WORKERS, Math.max(1, Math.floor(workers) || 1));
    this.limitMs = Math.max(0.001, Number(runTimeLimitS) || RUN_TIME_LIMIT_S) * 1000;
    this.createWorker = createWorker;
    this.slots = [];
    this.finish = null;
  }

  /** A study is running. */
  get running() {
    return this.finish !== null;
  }

  /**
   * Runs `tasks` (grid indices) of the study `text`: kind 'rows' runs each row, 'thresholds' searches
   * each combination. Handlers: onResult(task, result) with the core's row or threshold record, or
   * { failed: true, message }; onRun(task, row) for each run of a search as it finishes;
   * onProgress({ done, failed, total, busy, workers }). Resolves with { done, failed, cancelled, error }.
   */
  run({ text, kind, tasks }, { onResult = () => {}, onRun = () => {}, onProgress = () => {} } = {}) {
    if (this.running) throw new Error('the pool is running a study already');
    const queue = [...tasks];
    const total = queue.length;
    const counts = { done: 0, failed: 0 };
    const type = kind === 'thresholds' ? 'search' : 'row';
    return new Promise((resolve) => {
      const end = (extra = {}) => {
        for (const slot of this.slots) this.stop(slot);
        this.slots = [];
        this.finish = null;
        resolve({ ...counts, total, cancelled: false, error: null, ...extra });
      };
      this.finish = end;
      const progress = () =>
        onProgress({ ...counts, total, busy: this.slots.filter((s) => s.task !== null).length, workers: this.slots.length });

      const dispatch = (slot) => {
        if (!this.running) return;
        if (!queue.length) {
          this.stop(slot);
          this.slots = this.slots.filter((s) => s !== slot);
          progress();
          if (!this.slots.length) end();
          return;
        }
        slot.task = queue.shift();
        slot.worker.postMessage({ type, id: slot.task, index: slot.task });
        progress();
      };
      const settle = (slot, result) => {
        const task = slot.task;
        clearTimeout(slot.timer);
        slot.task = null;
        counts.done += 1;
        if (result.failed) counts.failed += 1;
        onResult(task, result);
      };
      // The worker failed or ran past its time: its task is a failure, a fresh worker goes on.
      const replace = (slot, message) => {
        if (!this.running || !this.slots.includes(slot)) return;
        this.stop(slot);
        if (!slot.ready) return end({ error: message });  // the core does not load: no worker would do better
        if (slot.task !== null) settle(slot, { failed: true, message });
        const fresh = start();
        this.slots = this.slots.map((s) => (s === slot ? fresh : s));
        dispatch(fresh);
      };
      const arm = (slot) => {
        clearTimeout(slot.timer);
        slot.timer = setTimeout(
          () => replace(slot, `stopped: a run took longer than ${this.limitMs / 1000} s, the time limit per run`),
          this.limitMs,
        );
      };
      const start = () => {
        const slot = { worker: this.createWorker(), task: null, timer: null, ready: false };
        slot.worker.onmessage = ({ data }) => {
          if (!this.slots.includes(slot)) return;
          if (data.type === 'ready') slot.ready = true;
          else if (data.type === 'fatal') replace(slot, `the worker's core failed: ${data.message}`);
          else if (data.id !== slot.task) return;  // a message about a task no longer this worker's
          else if (data.type === 'started') arm(slot);
          else if (data.type === 'searchRow') {
            arm(slot);
            onRun(slot.task, data.row);
          } else if (data.type === 'row' || data.type === 'search') {
            settle(slot, data.type === 'row' ? data.row : data.answer);
            dispatch(slot);
          }
        };
        slot.worker.onerror = (event) => {
          event.preventDefault?.();
          replace(slot, `the worker failed: ${event.message || 'it could not run'}`);
        };
        slot.worker.onmessageerror = () => replace(slot, 'the worker sent a message that could not be read');
        slot.worker.postMessage({ type: 'study', text });
        return slot;
      };

      if (!total) return end();
      for (let k = 0; k < Math.min(this.size, total); k++) this.slots.push(start());
      for (const slot of [...this.slots]) dispatch(slot);
    });
  }

  /** Stops every worker: the results reported stay, the tasks under way are dropped. */
  cancel() {
    if (!this.running) return;
    const finish = this.finish;
    for (const slot of this.slots) {
      slot.task = null;
      this.stop(slot);
    }
    this.slots = [];
    this.finish = null;
    finish?.({ cancelled: true });
  }

  stop(slot) {
    clearTimeout(slot.timer);
    slot.worker.onmessage = slot.worker.onerror = slot.worker.onmessageerror = null;
    slot.worker.terminate();
  }
}
