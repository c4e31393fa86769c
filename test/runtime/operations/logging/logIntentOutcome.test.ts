import { describe, expect, it } from 'vitest';
import type { IntentOutcome } from '../../../../src/engine/intents/intentOutcome.js';
import { refusal } from '../../../../src/engine/intents/refusal.js';
import { createLogger } from '../../../../src/runtime/operations/logging/createLogger.js';
import { logIntentOutcome } from '../../../../src/runtime/operations/logging/logIntentOutcome.js';

const base = { intentId: 'mm-7', strategy: 'mm', marketId: 1, atMs: 0 } as const;

function logged(outcome: IntentOutcome): { level: number; msg: string; [key: string]: unknown } {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    pretty: false,
    destination: { write: (line: string) => void lines.push(line) },
  });
  logIntentOutcome(logger, outcome);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as { level: number; msg: string };
}

describe('logIntentOutcome', () => {
  it('logs a placement at info with the venue order id', () => {
    const line = logged({ ...base, kind: 'placeLimit', type: 'accepted', orderId: '0xabc' });
    expect(line).toMatchObject({ level: 30, msg: 'order placed', orderId: '0xabc', intentId: 'mm-7', strategy: 'mm' });
    expect('txHash' in line).toBe(false);
  });

  it('logs the order id and tx hash of a placement verbatim: 32 bytes of hex are not a secret', () => {
    const orderId = `0x${'0000000000001a2b'}${'c'.repeat(48)}`;
    const txHash = `0x${'7e'.repeat(32)}`;
    const line = logged({ ...base, kind: 'placeLimit', type: 'accepted', orderId, txHash });
    expect(line).toMatchObject({ msg: 'order placed', orderId, txHash });
  });

  it('logs a refusal at warn with its rule, value and reason', () => {
    const line = logged({
      ...base,
      kind: 'placeLimit',
      type: 'refused',
      refusal: refusal('min_order_size', '0.0001', 'below the minimum'),
    });
    expect(line).toMatchObject({
      level: 40,
      msg: 'intent refused',
      rule: 'min_order_size',
      code: 'MIN_ORDER_SIZE',
      value: '0.0001',
      reason: 'below the minimum',
    });
  });

  it('logs a cancel that lost the race to a fill at info, since nothing is wrong', () => {
    const line = logged({
      ...base,
      kind: 'cancel',
      type: 'refused',
      refusal: refusal('cancel_target_finished', 'mm-3', 'the order is already filled'),
    });
    expect(line).toMatchObject({
      level: 30,
      msg: 'cancel not needed',
      value: 'mm-3',
      reason: 'the order is already filled',
    });
  });

  it('still warns about a cancel naming an intent that placed nothing', () => {
    const line = logged({
      ...base,
      kind: 'cancel',
      type: 'refused',
      refusal: refusal('cancel_target', 'mm-404', 'no order was placed by that intent'),
    });
    expect(line).toMatchObject({ level: 40, msg: 'intent refused', rule: 'cancel_target' });
  });

  it('warns about an unknown outcome with its reason and what to read before acting again', () => {
    const line = logged({
      ...base,
      kind: 'setLeverage',
      type: 'unknown',
      reason: 'the position is flat',
      hints: ['read the leverage once a position is open'],
    });
    expect(line).toMatchObject({
      level: 40,
      msg: 'outcome unknown',
      reason: 'the position is flat',
      hints: ['read the leverage once a position is open'],
    });
  });
});
