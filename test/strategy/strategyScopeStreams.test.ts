import { config } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runInStrategyScope } from '../../src/strategy/strategyScope.js';
import { containStrategyErrors } from '../../src/strategy/strategyScopeStreams.js';

describe('containStrategyErrors', () => {
  it("installs its handler again when RxJS's was replaced since, so a strategy's error still reaches it", () => {
    const found = config.onUnhandledError;
    try {
      containStrategyErrors();
      // Code that took RxJS's handler over (a library, a test that set its own and cleared it).
      config.onUnhandledError = null;
      containStrategyErrors();
      const failed: unknown[] = [];
      const error = new Error('nested bug');
      runInStrategyScope({ strategy: 'nested', fail: (e) => failed.push(e) }, () => config.onUnhandledError?.(error));
      expect(failed).toEqual([error]);
      // Outside every strategy, with nothing before it: thrown, as RxJS does by default.
      expect(() => config.onUnhandledError?.(new Error('engine'))).toThrow('engine');
    } finally {
      config.onUnhandledError = found;
    }
  });

  it('keeps one handler however many hosts start', () => {
    const found = config.onUnhandledError;
    try {
      containStrategyErrors();
      const first = config.onUnhandledError;
      containStrategyErrors();
      expect(config.onUnhandledError).toBe(first);
    } finally {
      config.onUnhandledError = found;
    }
  });
});
