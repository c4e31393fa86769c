import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The machines have two cores; e2e files each start their own simulator.
    maxWorkers: 2,
  },
});
