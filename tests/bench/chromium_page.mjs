// A page of Debian's headless Chromium (through playwright-core) served the
// repository's files (static_server.mjs): for the benchmarks that run the
// WASM core in the engine the app runs in, beside Node's.
//
//   const chromium = await openBenchPage();
//   const result = await chromium.page.evaluate(fn, arg);  // fn imports '/web/src/wasm/roverlab_core.js' etc.
//   await chromium.close();
import { launchBrowser, root } from '../browser/support.mjs';
import { serve } from './static_server.mjs';

/** Opens the page (at /package.json, an empty origin); resolves to { page, version, close }. */
export async function openBenchPage() {
  const { server, url } = await serve(root);
  const browser = await launchBrowser();
  const page = await browser.newPage();
  await page.goto(`${url}package.json`);
  return {
    page,
    version: `Chromium ${browser.version()}`,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}
