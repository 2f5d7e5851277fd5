// The Web Worker that holds the WASM world (protocol: sim_host.js). It posts
// { type: 'coreProgress', loaded, total } (bytes of the core's .wasm) while it
// loads the core and { type: 'ready' } once it is loaded; messages that come
// earlier wait. After the first load it runs the image import path a few
// times on a small image (import_warmup.js). Once the core is loaded (the
// last use of the network), the worker's network and code-loading globals
// are removed (sealGlobals): a scenario's controller program runs here.
import { sealGlobals } from '../controller/program.js';
import { loadCore } from './core.js';
import { warmUpImport } from './import_warmup.js';
import { createSimHost } from './sim_host.js';

// The worker's own way out, taken before sealGlobals hides postMessage from programs.
const post = self.postMessage.bind(self);
const pending = [];
let handle = null;
let warmUp = null; // starts the warm-up after the first load

function dispatch(message) {
  try {
    handle(message);
  } catch (error) {
    post({ type: 'fatal', message: String(error?.message ?? error) });
  }
  if (message?.type === 'load' && warmUp) {
    const start = warmUp;
    warmUp = null;
    start();
  }
}

self.onmessage = (event) => {
  if (handle) dispatch(event.data);
  else pending.push(event.data);
};

loadCore({ onProgress: (loaded, total) => post({ type: 'coreProgress', loaded, total }) })
  .then((core) => {
    // Zero-delay tasks for stepping at speed "max" (setTimeout would wait at least 4 ms when nested).
    const channel = new MessageChannel();
    const queued = [];
    channel.port1.onmessage = () => {
      try {
        queued.shift()?.();
      } catch (error) {
        post({ type: 'fatal', message: String(error?.message ?? error) });
      }
    };
    const schedule = (fn) => {
      queued.push(fn);
      channel.port2.postMessage(null);
    };
    sealGlobals();
    handle = createSimHost(core, (message, transfer) => post(message, transfer), schedule);
    warmUp = () => warmUpImport(core, schedule).catch((error) => console.warn('import warm-up:', error));
    post({ type: 'ready' });
    for (const message of pending.splice(0)) dispatch(message);
  })
  .catch((error) => post({ type: 'fatal', message: String(error?.message ?? error) }));
