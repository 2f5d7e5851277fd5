// The core's .wasm (generated into ../wasm by `npm run build:wasm`),
// downloaded and compiled as its bytes arrive (WebAssembly.compileStreaming).
// The simulation worker starts it first thing and posts the compiled module
// to the page (sim_client.js), so that the core is downloaded and compiled
// once; core.js instantiates such a module. onProgress(loaded, total): the
// .wasm file's bytes as they arrive (total 0 when the server does not say),
// for the page's loading note.
import wasmUrl from '../wasm/roverlab_core.wasm?url';

/** Downloads and compiles the core: resolves to its WebAssembly.Module. */
export async function compileCore({ onProgress } = {}) {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`the simulation core (${wasmUrl}) could not be loaded: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length')) || 0;
  let body = response.body;
  if (onProgress && body) {
    // The bytes counted as they pass on to the compiler.
    let loaded = 0;
    onProgress(0, total);
    body = body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          loaded += chunk.length;
          onProgress(loaded, total);
          controller.enqueue(chunk);
        },
      }),
    );
  }
  // A response of its own, typed as WebAssembly whatever the server called it.
  const streamed = new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
  if (typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(streamed);
  return WebAssembly.compile(await streamed.arrayBuffer());
}
