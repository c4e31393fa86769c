import type { Address } from '../../core/address.js';
import { BoundedMap } from '../../core/boundedMap.js';
import type { StopTypeFilter, TpslStatus } from '../../venue/schemas/tpslNames.js';
import type { NewTpslOrder, SimTpslOrder } from './simTpslOrder.js';

export interface TpslListFilter {
  readonly marketId?: number;
  /** The venue's default is TAKE_PROFIT; STOP_TYPE_NONE means both. */
  readonly stopType: StopTypeFilter;
  readonly statuses: ReadonlySet<TpslStatus>;
  /** Inclusive bounds on created_at, unix nanoseconds. */
  readonly startNs?: bigint;
  readonly endNs?: bigint;
}

/** Orders an account may hold at once (ACCEPTED or TRIGGERED): not shown, the simulator's bound. */
export const MAX_ACTIVE_TPSL_PER_ACCOUNT = 1000;
/** Finished orders kept per account for the list read; older ones are forgotten. */
const FINISHED_KEPT_PER_ACCOUNT = 1000;
/** Signed place requests remembered, so the same signed request places one order only. */
const SIGNED_REQUESTS_KEPT = 100_000;

/**
 * The simulator's TP/SL orders, per account, in placement order. Pure state: the trigger and the
 * execution (`tpslWatcher.ts`) and the routes move orders through the methods below.
 */
export class TpslBook {
  private sequence: bigint;
  private readonly accounts = new Map<string, SimTpslOrder[]>();
  private readonly bySignedRequest = new BoundedMap<string, string>(SIGNED_REQUESTS_KEPT);

  /** Ids count from `idBase + 1` (a random base unless the simulator numbers from 1). */
  constructor(idBase: bigint) {
    this.sequence = idBase;
  }

  /** The order a signed request (its digest, hex) already placed, if any. */
  placedBy(signedRequest: string): string | undefined {
    return this.bySignedRequest.get(signedRequest);
  }

  place(order: NewTpslOrder, signedRequest: string): SimTpslOrder {
    this.sequence += 1n;
    const placed: SimTpslOrder = {
      ...order,
      orderId: `tpsl-${this.sequence}`,
      status: 'TPSL_ORDER_STATUS_ACCEPTED',
      filledSize: '0',
    };
    const list = this.listOf(order.account);
    list.push(placed);
    this.bySignedRequest.set(signedRequest, placed.orderId);
    this.forgetFinished(list);
    return placed;
  }

  activeCount(account: Address): number {
    return this.listOf(account).filter(isActive).length;
  }

  find(account: Address, orderId: string): SimTpslOrder | undefined {
    return this.listOf(account).find((order) => order.orderId === orderId);
  }

  /** Every ACCEPTED or TRIGGERED order of every account, oldest first per account. */
  *active(): Generator<SimTpslOrder> {
    for (const list of this.accounts.values()) for (const order of list) if (isActive(order)) yield order;
  }

  orders(account: Address): readonly SimTpslOrder[] {
    return this.listOf(account);
  }

  /** Newest first, filtered. */
  list(account: Address, filter: TpslListFilter): SimTpslOrder[] {
    return this.listOf(account)
      .filter((order) => matches(order, filter))
      .reverse();
  }

  private listOf(account: Address): SimTpslOrder[] {
    const key = account.toLowerCase();
    let list = this.accounts.get(key);
    if (list === undefined) {
      list = [];
      this.accounts.set(key, list);
    }
    return list;
  }

  /** Drops the oldest finished orders past the bound; active ones are never dropped. */
  private forgetFinished(list: SimTpslOrder[]): void {
    let finished = list.filter((order) => !isActive(order)).length;
    for (let i = 0; i < list.length && finished > FINISHED_KEPT_PER_ACCOUNT;) {
      if (isActive(list[i]!)) i++;
      else {
        list.splice(i, 1);
        finished--;
      }
    }
  }
}

function isActive(order: SimTpslOrder): boolean {
  return order.status === 'TPSL_ORDER_STATUS_ACCEPTED' || order.status === 'TPSL_ORDER_STATUS_TRIGGERED';
}

function matches(order: SimTpslOrder, filter: TpslListFilter): boolean {
  if (filter.marketId !== undefined && order.marketId !== filter.marketId) return false;
  if (filter.stopType !== 'STOP_TYPE_NONE' && order.stopType !== filter.stopType) return false;
  if (!filter.statuses.has(order.status)) return false;
  const createdNs = BigInt(order.createdAtMs) * 1_000_000n;
  if (filter.startNs !== undefined && createdNs < filter.startNs) return false;
  return filter.endNs === undefined || createdNs <= filter.endNs;
}
