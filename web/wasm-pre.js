// Prepended to roverlab_core.js (emcc --pre-js). The Emscripten 3.1.6 loader,
// built as an ES module, still uses CommonJS's __dirname and require() in Node
// and fetch()es the .wasm by file path, which Node cannot do. In Node, give it
// those names and read the .wasm from disk (unless the caller passed
// `wasmBinary`). Browsers and workers skip all of this. (`_scriptDir` is the
// loader's import.meta.url; the 3.1.6 JS optimizer cannot parse import.meta here.)
var __dirname = '';
var require;
if (typeof process == 'object' && process.versions && process.versions.node &&
    typeof window == 'undefined' && typeof importScripts != 'function') {
  require = (id) => process.getBuiltinModule(id);  // Node >= 20.16
  __dirname = require('path').dirname(require('url').fileURLToPath(_scriptDir));
  if (!Module['wasmBinary']) {
    var wasmPath = Module['locateFile']
        ? Module['locateFile']('roverlab_core.wasm', __dirname + '/')
        : __dirname + '/roverlab_core.wasm';
    Module['wasmBinary'] = require('fs').readFileSync(wasmPath);
  }
}
