// Shared by the Node tests: the repository root and the WASM build of the core.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const coreModulePath = path.join(root, 'web/src/wasm/roverlab_core.js');

/** A fresh instance of the WASM core (it reads the .wasm next to the .js, see web/wasm-pre.js). */
export async function loadWasmCore() {
  if (!existsSync(coreModulePath)) throw new Error(`${coreModulePath} is missing: build it with \`npm run build:wasm\``);
  const { default: createRoverlabCore } = await import(coreModulePath);
  return createRoverlabCore();
}
