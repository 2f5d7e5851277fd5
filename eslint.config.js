// ESLint (flat config): the recommended rules over the web app and the
// JavaScript tests. `npm test` runs it (scripts/test.sh, suite "lint").
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['web/src/wasm/', 'dist/', 'build/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
  },
  // The page and its modules.
  { files: ['web/src/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // The simulation worker.
  { files: ['web/src/sim/sim_worker.js'], languageOptions: { globals: { ...globals.worker } } },
  // Node: the configs, the tests, the benchmarks and the fuzz harness (tests/fuzz/wasm_worker.mjs is a worker thread).
  {
    files: ['*.js', 'web/*.js', 'tests/**/*.mjs', 'tests/**/*.js', 'tools/**/*.mjs', 'controllers/**/*.mjs'],
    ignores: ['web/wasm-pre.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Prepended to the Emscripten loader (emcc --pre-js), a script that shares the loader's scope.
  {
    files: ['web/wasm-pre.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { process: 'readonly', window: 'readonly', importScripts: 'readonly', Module: 'readonly', _scriptDir: 'readonly' },
    },
    // Its initial values are read by the loader that follows it, which ESLint does not see.
    rules: { 'no-useless-assignment': 'off' },
  },
  // Functions the browser tests hand to the page (page.evaluate, waitForFunction) run there.
  { files: ['tests/browser/**/*.mjs', 'tests/bench/**/*.mjs'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },
];
