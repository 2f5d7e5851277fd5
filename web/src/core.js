// Loads the WebAssembly build of the C++ core (generated into ./wasm by
// `npm run build:wasm`). Resolves to the embind module: version(),
// World, runScenario, presets, inspectTerrain, moveTrack1Node, rockerPlayback, crawlerLinkContact.
import createRoverlabCore from './wasm/roverlab_core.js';
import wasmUrl from './wasm/roverlab_core.wasm?url';

export function loadCore() {
  return createRoverlabCore({
    locateFile: (path, prefix) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  });
}
