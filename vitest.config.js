import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.mjs', 'tests/browser/**/*.test.mjs'],
    environment: 'node',
  },
});
