import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The machine has 2 cores; the browser and CLI tests start their own processes.
    maxWorkers: 2,
  },
});
