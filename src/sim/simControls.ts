import type { Address } from '../core/address.js';
import { parseAddress } from '../core/address.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { checkSubscribeFault } from './ws/subscribeFault.js';
import type { SimControls, SimFaults, SimStateView, SimWebSocketHandle } from './simContext.js';
import type { SimRuntime } from './simRuntime.js';

export interface SimControlHooks {
  /** Called with the resolved faults after each `setFaults` (the WebSocket fault schedule listens). */
  readonly faultsChanged?: (faults: SimFaults) => void;
}

/**
 * The simulator's test controls as plain functions over the runtime. The WebSocket handle is
 * looked up on each call, so the controls do not depend on the order the two are built in.
 */
export function createSimControls(
  runtime: SimRuntime,
  webSocket: () => SimWebSocketHandle | undefined,
  hooks: SimControlHooks = {},
): SimControls {
  const chain = runtime.chainState;
  return {
    advanceBlocks(count = 1) {
      if (!Number.isSafeInteger(count) || count < 1) throw new InvalidValueError('count', count, 'a positive integer');
      for (let i = 0; i < count; i++) runtime.mineBlock();
      return chain.blockNumber;
    },
    setMark(marketId: number, price: string) {
      // The oracle channel is block-driven: the new mark goes out with the next block.
      runtime.exchange.setMark(marketId, price);
    },
    setRegistrationLag(ms: number) {
      if (!Number.isSafeInteger(ms) || ms < 0)
        throw new InvalidValueError('registrationLagMs', ms, 'a non-negative integer');
      runtime.setRegistrationLag(ms);
    },
    setFaults(faults: Partial<SimFaults>) {
      runtime.setFaults(faults);
      hooks.faultsChanged?.(runtime.options.faults);
    },
    dropWebSockets() {
      return webSocket()?.dropConnections() ?? 0;
    },
    dropAccountWebSockets(account: Address) {
      return webSocket()?.dropAccount(parseAddress(account, 'account')) ?? 0;
    },
    stallStreams(stalled: boolean) {
      webSocket()?.setStalled(stalled);
    },
    setSubscribeFault(fault) {
      webSocket()?.setSubscribeFault(checkSubscribeFault(fault));
    },
    registerNow(account: Address) {
      chain.accounts.registerNow(parseAddress(account, 'account'), runtime.clock.now());
    },
    state: () => stateView(runtime),
  };
}

/** A snapshot of the chain and TP/SL state for a test's assertions. */
function stateView(runtime: SimRuntime): SimStateView {
  const chain = runtime.chainState;
  return {
    blockNumber: chain.blockNumber,
    nonce: (account) => chain.nonces.state(account),
    signerStatus: (account, signer) => chain.signerStatus(account, signer),
    isRegistered: (account) => chain.isRegistered(account),
    allowance: (account) => {
      const allowance = chain.allowances.get(account);
      return allowance === undefined ? undefined : { budgetWei: allowance.budgetWei, expiry: allowance.expiry };
    },
    tpslOrders: (account) =>
      runtime.tpsl.orders(account).map((order) => ({
        orderId: order.orderId,
        status: order.status,
        ...(order.refusal === undefined ? {} : { refusal: order.refusal }),
      })),
    faults: runtime.options.faults,
    registrationLagMs: runtime.options.registrationLagMs,
  };
}
