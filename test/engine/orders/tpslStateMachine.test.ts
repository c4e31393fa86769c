import { describe, expect, it } from 'vitest';
import type { TpslOrder } from '../../../src/engine/orders/tpslOrder.js';
import { applyTpslEvent, type TpslEvent } from '../../../src/engine/orders/tpslStateMachine.js';
import type { TpslState } from '../../../src/engine/orders/tpslState.js';

const base: TpslOrder = {
  id: 'tpsl-1',
  strategy: 'mm',
  marketId: 1,
  role: 'stop_loss',
  side: 'SELL',
  size: '0.001',
  stopPrice: '63680',
  trigger: 'mark',
  state: 'placing',
  filledSize: '0',
  createdMs: 1,
  updatedMs: 1,
};

function at(state: TpslState, extra: Partial<TpslOrder> = {}): TpslOrder {
  return { ...base, state, ...extra };
}

function stateAfter(order: TpslOrder, event: TpslEvent): TpslState | 'refused move' | 'unchanged' {
  const applied = applyTpslEvent(order, event, 2);
  return applied.kind === 'moved' ? applied.order.state : applied.kind === 'refused' ? 'refused move' : 'unchanged';
}

const record = (status: Extract<TpslEvent, { type: 'venue_record' }>['status']): TpslEvent => ({
  type: 'venue_record',
  status,
  venueId: 'v-1',
});

describe('the TP/SL state table', () => {
  it('follows the venue forward: ACCEPTED → TRIGGERED → SUCCESS, or → CANCELLED', () => {
    expect(stateAfter(at('placing'), { type: 'placed', venueId: 'v-1' })).toBe('accepted');
    expect(stateAfter(at('accepted', { venueId: 'v-1' }), record('TPSL_ORDER_STATUS_TRIGGERED'))).toBe('triggered');
    expect(stateAfter(at('triggered', { venueId: 'v-1' }), record('TPSL_ORDER_STATUS_SUCCESS'))).toBe('executed');
    expect(stateAfter(at('accepted', { venueId: 'v-1' }), record('TPSL_ORDER_STATUS_CANCELLED'))).toBe('cancelled');
  });

  it('never takes an order back: a stale ACCEPTED page after TRIGGERED changes nothing', () => {
    expect(stateAfter(at('triggered', { venueId: 'v-1' }), record('TPSL_ORDER_STATUS_ACCEPTED'))).toBe('unchanged');
    expect(stateAfter(at('cancelling', { venueId: 'v-1' }), record('TPSL_ORDER_STATUS_ACCEPTED'))).toBe('unchanged');
  });

  it('refuses any move out of an end, and a cancel of an executing order', () => {
    for (const end of ['executed', 'cancelled', 'refused'] as const)
      expect(stateAfter(at(end), record('TPSL_ORDER_STATUS_ACCEPTED'))).toBe('refused move');
    expect(stateAfter(at('triggered', { venueId: 'v-1' }), { type: 'cancel_sent' })).toBe('refused move');
    expect(stateAfter(at('accepted', { venueId: 'v-1' }), { type: 'placed', venueId: 'v-2' })).toBe('refused move');
  });

  it('adopts a lost placement from the list, and ends one the list does not hold', () => {
    const adopted = applyTpslEvent(at('placing'), record('TPSL_ORDER_STATUS_ACCEPTED'), 5);
    expect(adopted).toMatchObject({ kind: 'moved', order: { state: 'accepted', venueId: 'v-1', updatedMs: 5 } });
    expect(stateAfter(at('placing'), { type: 'not_listed' })).toBe('refused');
    expect(stateAfter(at('accepted', { venueId: 'v-1' }), { type: 'not_listed' })).toBe('cancelled');
  });

  it('an emulated stop fires locally once, and is cancelled without the venue', () => {
    expect(stateAfter(at('placing'), { type: 'emulate', reason: 'blocked' })).toBe('emulated');
    expect(stateAfter(at('emulated'), { type: 'emulated_fired', price: '63000' })).toBe('executed');
    expect(stateAfter(at('emulated'), { type: 'cancel_sent' })).toBe('cancelled');
    expect(stateAfter(at('emulated'), record('TPSL_ORDER_STATUS_ACCEPTED'))).toBe('refused move');
    expect(stateAfter(at('accepted'), { type: 'emulated_fired', price: '1' })).toBe('refused move');
  });

  it('keeps what the venue says of an execution', () => {
    const applied = applyTpslEvent(
      at('triggered', { venueId: 'v-1' }),
      {
        ...record('TPSL_ORDER_STATUS_SUCCESS'),
        filledSize: '0.001',
        triggeredPrice: '63600',
        executionTx: '0xab',
      } as TpslEvent,
      9,
    );
    expect(applied).toMatchObject({
      kind: 'moved',
      order: { state: 'executed', filledSize: '0.001', triggeredPrice: '63600', executionTx: '0xab' },
    });
  });
});
