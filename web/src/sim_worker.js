// The Web Worker that holds the WASM world (protocol: sim_host.js). It posts
// { type: 'coreProgress', loaded, total } (bytes of the core's .wasm) while it
// loads the core and { type: 'ready' } once it is loaded; messages that come
// earlier wait.
import { loadCore } from './core.js';
import { createSimHost } from './sim_host.js';

const pending = [];
let handle = null;

function dispatch(message) {
  try {
    handle(message);
  } catch (error) {
    self.postMessage({ type: 'fatal', message: String(error?.message ?? error) });
  }
}

self.onmessage = (event) => {
  if (handle) dispatch(event.data);
  else pending.push(event.data);
};

loadCore({ onProgress: (loaded, total) => self.postMessage({ type: 'coreProgress', loaded, total }) })
  .then((core) => {
    // Zero-delay tasks for stepping at speed "max" (setTimeout would wait at least 4 ms when nested).
    const channel = new MessageChannel();
    const queued = [];
    channel.port1.onmessage = () => {
      try {
        queued.shift()?.();
      } catch (error) {
        self.postMessage({ type: 'fatal', message: String(error?.message ?? error) });
      }
    };
    const schedule = (fn) => {
      queued.push(fn);
      channel.port2.postMessage(null);
    };
    handle = createSimHost(core, (message, transfer) => self.postMessage(message, transfer), schedule);
    self.postMessage({ type: 'ready' });
    for (const message of pending.splice(0)) dispatch(message);
  })
  .catch((error) => self.postMessage({ type: 'fatal', message: String(error?.message ?? error) }));
