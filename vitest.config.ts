import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tools/longestFirstSequencer.js';

/**
 * Module loading, not the tests, was most of the run (import 213 s of 380 s): each file in a fresh
 * module graph loaded viem, zod, the engine and the simulator again. So files share one module
 * graph per worker (isolate: false). Nothing in src/ keeps module state that leaks between files
 * (the secret registry only grows, and no test asserts that a value is not redacted; metrics have
 * a registry per bot; no test changes process.env). The unit files run in worker threads; the e2e
 * files (simulators, bots, child processes, signals) in worker processes.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The machines have two cores, but an e2e file spends much of its time waiting on its bots and
    // simulator (the e2e project alone: 273 s of wall time for 263 CPU-seconds with two workers,
    // 228 s with four): more workers fill those waits. The whole suite on one afternoon's slow VM:
    // 255 s with three workers, 195 s with four (session 39), every timing test passing in both.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirstSequencer },
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
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
          isolate: false,
          // The CLI compiled once per run for the tests that spawn it, and the test strategies those
          // spawned bots start type-checked once into the cache they read (see the files).
          globalSetup: ['test/e2e/support/compiledCli.ts', 'test/e2e/support/warmTypeCache.ts'],
        },
      },
    ],
  },
});
