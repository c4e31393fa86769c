import { describe, expect, it } from 'vitest';
import {
  currentStrategyScope,
  outsideStrategyScope,
  runInStrategyScope,
  type StrategyScope,
} from '../../src/strategy/strategyScope.js';

const scope = (strategy: string): StrategyScope => ({ strategy, fail: () => {} });

describe('strategy scopes', () => {
  it('outside a scope, code and the promises it makes see no strategy; the scope around it is back after', async () => {
    const seen: (string | undefined)[] = [];
    let inner: Promise<void> | undefined;
    runInStrategyScope(scope('maker'), () => {
      seen.push(currentStrategyScope()?.strategy);
      outsideStrategyScope(() => {
        seen.push(currentStrategyScope()?.strategy);
        inner = Promise.resolve().then(() => void seen.push(currentStrategyScope()?.strategy));
      });
      seen.push(currentStrategyScope()?.strategy);
    });
    await inner;
    expect(seen).toEqual(['maker', undefined, 'maker', undefined]);
  });

  it('a strategy scope inside the outside one is that strategy, in its promises too', async () => {
    const seen: (string | undefined)[] = [];
    await outsideStrategyScope(() =>
      runInStrategyScope(scope('taker'), () =>
        Promise.resolve().then(() => void seen.push(currentStrategyScope()?.strategy)),
      ),
    );
    expect(seen).toEqual(['taker']);
    expect(outsideStrategyScope(() => currentStrategyScope())).toBeUndefined();
  });
});
