// A static server of a folder on a free localhost port, for the benchmarks
// that load files into headless Chromium: the production build
// (first_frame_bench.mjs) or the repository itself (chromium_page.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Serves `dir` (nothing outside it), each file read into memory when first asked for: resolves to { server, url }. */
export function serve(dir) {
  const files = new Map();
  const read = (file) => {
    if (!files.has(file)) files.set(file, existsSync(file) && statSync(file).isFile() ? readFileSync(file) : null);
    return files.get(file);
  };
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const file = path.join(dir, name.endsWith('/') ? `${name}index.html` : name);
    const inside = file.startsWith(path.join(dir, path.sep));  // not a sibling folder named like it
    const bytes = inside ? read(file) : null;
    if (!bytes) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': bytes.length,
      'Cache-Control': 'no-cache',
    });
    res.end(bytes);
  });
  return new Promise((resolve) => server.listen(0, 'localhost', () => resolve({ server, url: `http://localhost:${server.address().port}/` })));
}
