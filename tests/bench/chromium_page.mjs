// A page of Debian's headless Chromium (through playwright-core) served the
// repository's files by a static server on localhost: for the benchmarks that
// run the WASM core in the engine the app runs in, beside Node's.
//
//   const chromium = await openBenchPage();
//   const result = await chromium.page.evaluate(fn, arg);  // fn imports '/web/src/wasm/roverlab_core.js' etc.
//   await chromium.close();
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { launchBrowser, root } from '../browser/support.mjs';

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Opens the page (at /package.json, an empty origin); resolves to { page, version, close }. */
export async function openBenchPage() {
  const server = http.createServer(async (request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    if (!file.startsWith(root)) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, 'localhost', resolve));
  const browser = await launchBrowser();
  const page = await browser.newPage();
  await page.goto(`http://localhost:${server.address().port}/package.json`);
  return {
    page,
    version: `Chromium ${browser.version()}`,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}
