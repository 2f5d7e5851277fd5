// Loads the WebAssembly build of the C++ core (generated into ./wasm by
// `npm run build:wasm`): resolves to the embind module (version(), World,
// runScenario, presets, inspectTerrain, moveTrack1Node, rockerPlayback,
// crawlerLinkContact), instantiated from a compiled module (core_compile.js:
// the simulation worker compiles it once and posts it to the page), or
// downloaded and compiled here.
import createRoverlabCore from '../wasm/roverlab_core.js';
import wasmUrl from '../wasm/roverlab_core.wasm?url';
import { compileCore } from './core_compile.js';

const locateFile = (path, prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path);

/** The core's embind module, instantiated from `module` (a compiled WebAssembly.Module), else from compileCore's. */
export async function loadCore({ module = null, onProgress } = {}) {
  const compiled = module ?? (await compileCore({ onProgress }));
  return new Promise((resolve, reject) => {
    createRoverlabCore({
      locateFile,
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled), reject);
        return {};  // the exports come through receiveInstance
      },
    }).then(resolve, reject);
  });
}
