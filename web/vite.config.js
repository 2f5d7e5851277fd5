import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',  // relative URLs: the built site works from any static host and path
  server: { host: 'localhost', port: 5173 },
  preview: { host: 'localhost', port: 4173 },
  // The workers are modules: the simulation worker loads its share-link reader with the first link.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024, // three.js alone is ~700 kB
  },
});
