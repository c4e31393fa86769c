import { defineConfig } from 'vitest/config';

/**
 * Two projects. Module loading, not the tests, was most of the run (import 213 s of 380 s): each
 * file in a fresh module graph loads viem, zod and the engine again. The unit files share one
 * graph per worker thread (isolate: false): they keep no module state that leaks between files
 * (the secret registry only grows, and no test asserts that something is not redacted). The e2e
 * files start simulators, bots and child processes, and keep their own process each.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The machines have two cores; e2e files each start their own simulator.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] },
      },
    ],
  },
});
