// The Web Worker that holds the WASM world (protocol: sim_host.js). It says
// { type: 'started' } as it starts. The page's first message to it is
// { type: 'core', module } (sim_client.js): with module null (the page's
// first worker) the worker downloads and compiles the core itself, as its
// bytes arrive, whatever the page's own thread is busy with, posting
// { type: 'coreProgress', loaded, total } (bytes of the core's .wasm) as they
// come and { type: 'coreModule', module } (the compiled WebAssembly.Module,
// for the page's own core and the workers that come after); else the module
// a worker before it compiled, instantiated here. It
// posts { type: 'ready' } once the core is loaded; messages that come earlier
// wait, in order. So do the messages from a load of a scenario with a
// controller program on, while the program checker (controller/program.js,
// with acorn) is loaded, the first time one comes (a checker that cannot be
// loaded refuses that load with an issue at control.program). Once the page has drawn
// its first scenario (the third tick after the first load) the worker runs
// the image import path a few times on a small image (import_warmup.js).
// Once the core is loaded, the worker's network and code-loading globals are
// removed (sealGlobals): a scenario's controller program runs here. The
// worker loads its own modules after that (import(): the program checker, the
// share-link reader), never a program's.
import { sealGlobals } from '../controller/seal.js';
import { loadCore } from './core.js';
import { compileCore } from './core_compile.js';
import { warmUpImport } from './import_warmup.js';
import { createSimHost, needsPrograms } from './sim_host.js';

// The worker's own way out, taken before sealGlobals hides postMessage from programs.
const post = self.postMessage.bind(self);
const inbox = [];  // messages not handled yet, in order
let handle = null;
const programs = {};  // controller/program.js's exports, once loaded
let loadingPrograms = false;
let warmUp = null; // starts the warm-up once the first load's scenario is on show
let ticks = -1; // ticks since the first load (-1: none loaded yet)
// The page asks for a frame at each draw, one frame in flight: by the third tick after
// the first load it has drawn that load's first frame.
const WARM_UP_TICK = 3;

const fatal = (error) => post({ type: 'fatal', message: String(error?.message ?? error) });

function dispatch(message) {
  try {
    handle(message);
  } catch (error) {
    fatal(error);
  }
  if (message?.type === 'load' && ticks < 0) ticks = 0;
  if (message?.type === 'tick' && ticks >= 0) ticks++;
  if (ticks >= WARM_UP_TICK && warmUp) {
    const start = warmUp;
    warmUp = null;
    start();
  }
}

/** Handles the messages in the inbox, in order, as far as the core and the program checker allow. */
function drain() {
  while (handle && !loadingPrograms && inbox.length) {
    if (needsPrograms(inbox[0]) && !programs.compileProgram) {
      loadingPrograms = true;
      import('../controller/program.js')
        .then(
          (module) => Object.assign(programs, module),
          (error) => {
            // Not loaded (the network): this load is refused, and the next one with a program tries again.
            const { id } = inbox.shift();
            post({ type: 'issues', id, buildMs: 0, issues: [{ path: 'control.program', message: `the program checker could not be loaded: ${error?.message ?? error}` }] });
          },
        )
        .finally(() => {
          loadingPrograms = false;
          drain();
        });
      return;
    }
    dispatch(inbox.shift());
  }
}

post({ type: 'started' });  // the page may wait for this before its own longer tasks

let started = false;
self.onmessage = (event) => {
  if (!started && event.data?.type === 'core') {
    started = true;
    start(event.data);
    return;
  }
  inbox.push(event.data);
  drain();
};

function start({ module }) {
  const compiled =
    module ??
    compileCore({ onProgress: (loaded, total) => post({ type: 'coreProgress', loaded, total }) }).then((made) => {
      post({ type: 'coreModule', module: made });
      return made;
    });
  Promise.resolve(compiled)
    .then((made) => loadCore({ module: made }))
    .then((core) => {
      // Zero-delay tasks for stepping at speed "max" (setTimeout would wait at least 4 ms when nested).
      const channel = new MessageChannel();
      const queued = [];
      channel.port1.onmessage = () => {
        try {
          queued.shift()?.();
        } catch (error) {
          fatal(error);
        }
      };
      const schedule = (fn) => {
        queued.push(fn);
        channel.port2.postMessage(null);
      };
      sealGlobals();
      handle = createSimHost(core, (message, transfer) => post(message, transfer), schedule, programs);
      warmUp = () => warmUpImport(core, schedule).catch((error) => console.warn('import warm-up:', error));
      post({ type: 'ready' });
      drain();
    })
    .catch(fatal);
}
