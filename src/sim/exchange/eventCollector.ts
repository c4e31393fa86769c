import type { Address } from '../../core/address.js';
import type { ExchangeEvent } from './exchangeEvents.js';

/**
 * Gathers one operation's events. Orders, fills and trades are kept in the order they happened;
 * position, balance and book changes are coalesced (one per account-market, account, market) and
 * appended at the end, each built from the final state by the exchange.
 */
export class EventCollector {
  readonly events: ExchangeEvent[] = [];
  readonly positions = new Map<string, { account: Address; marketId: number }>();
  readonly balances = new Set<Address>();
  readonly books = new Set<number>();

  push(event: ExchangeEvent): void {
    this.events.push(event);
  }

  touchPosition(account: Address, marketId: number): void {
    this.positions.set(`${account}:${marketId}`, { account, marketId });
  }

  touchBalance(account: Address): void {
    this.balances.add(account);
  }

  touchBook(marketId: number): void {
    this.books.add(marketId);
  }
}
