// Loads the WebAssembly build of the C++ core (generated into ./wasm by
// `npm run build:wasm`). Resolves to the embind module: version(),
// World, runScenario, presets, inspectTerrain, moveTrack1Node, rockerPlayback, crawlerLinkContact.
// onProgress(loaded, total): the .wasm file's bytes as they arrive (total 0
// when the server does not say), for the page's loading note.
import createRoverlabCore from '../wasm/roverlab_core.js';
import wasmUrl from '../wasm/roverlab_core.wasm?url';

const locateFile = (path, prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path);

export async function loadCore({ onProgress } = {}) {
  if (!onProgress) return createRoverlabCore({ locateFile });
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`the simulation core (${wasmUrl}) could not be loaded: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length')) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress(loaded, total);
  }
  const wasmBinary = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    wasmBinary.set(chunk, at);
    at += chunk.length;
  }
  return createRoverlabCore({ wasmBinary: wasmBinary.buffer, locateFile });
}
