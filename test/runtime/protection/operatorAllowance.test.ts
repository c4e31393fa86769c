import { describe, expect, it } from 'vitest';
import type { TpslOrder } from '../../../src/engine/orders/tpslOrder.js';
import { openJournal } from '../../../src/journal/openJournal.js';
import {
  budgetWarning,
  latestOperatorAllowance,
  recordOperatorAllowance,
  spentSinceWei,
} from '../../../src/runtime/protection/operatorAllowance.js';

const NOW = 1_800_000_000_000;
const WAD = 10n ** 18n;

function stop(size: string, stopPrice: string, state: TpslOrder['state'] = 'accepted'): TpslOrder {
  return {
    id: 'tpsl-1',
    strategy: 'mm',
    marketId: 1,
    role: 'stop_loss',
    side: 'SELL',
    size,
    stopPrice,
    trigger: 'mark',
    state,
    filledSize: '0',
    createdMs: 1,
    updatedMs: 1,
  };
}

describe('the OperatorHub budget the TP/SL executions spend', () => {
  it('is journaled by setup and read back; the executions since it count as spent', () => {
    const journal = openJournal(':memory:');
    const account = '0x00000000000000000000000000000000000000aa';
    recordOperatorAllowance(
      journal.db,
      account,
      { operator: '0xhub', budgetWei: 500n * WAD, allowanceExpiry: 2_000_000_000, txHash: '0x1' },
      NOW,
    );
    expect(latestOperatorAllowance(journal.db, account)).toEqual({
      operator: '0xhub',
      budgetWei: 500n * WAD,
      expiry: 2_000_000_000,
      atMs: NOW,
    });
    journal.recordFill(
      account,
      {
        id: 'f1',
        marketId: 1,
        orderId: '0xe',
        intentId: 'tpsl-1.execution',
        strategy: 'mm',
        side: 'sell',
        price: '60000',
        size: '0.002',
      },
      'history',
      NOW + 1,
    );
    journal.recordFill(
      account,
      {
        id: 'f2',
        marketId: 1,
        orderId: '0xo',
        intentId: 'mm-1',
        strategy: 'mm',
        side: 'buy',
        price: '60000',
        size: '1',
      },
      'venue',
      NOW + 1,
    );
    expect(spentSinceWei(journal.db, account, NOW)).toBe(120n * WAD);
    journal.close();
  });

  it('warns when none is journaled, when it expires within a day, and when less is left than the open stops need', () => {
    const allowance = { operator: '0xhub', budgetWei: 100n * WAD, expiry: NOW / 1000 + 30 * 86_400, atMs: NOW };
    expect(budgetWarning(undefined, 0n, [], NOW)).toMatch(/no OperatorHub allowance journaled/);
    expect(budgetWarning({ ...allowance, expiry: NOW / 1000 + 3600 }, 0n, [], NOW)).toMatch(/within a day/);
    expect(budgetWarning({ ...allowance, expiry: NOW / 1000 - 1 }, 0n, [], NOW)).toMatch(/expired/);
    // 0.001 × 63000 = 63 USD needed: 100 left is enough, 30 left is not.
    expect(budgetWarning(allowance, 0n, [stop('0.001', '63000')], NOW)).toBeUndefined();
    expect(budgetWarning(allowance, 70n * WAD, [stop('0.001', '63000')], NOW)).toBe(
      'the OperatorHub budget left (30 USD) is below what the open stops need (63 USD); run perpbot setup --budget',
    );
    // Only stops the venue holds count.
    expect(budgetWarning(allowance, 70n * WAD, [stop('0.001', '63000', 'emulated')], NOW)).toBeUndefined();
  });
});
