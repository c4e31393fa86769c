import { parseAddress, type Address } from '../../core/address.js';

/**
 * The accounts a driven market acts through, neither of them the bot's: `book` rests the recorded
 * levels (a taker of ours trades with them), `counterparty` takes the other side of a fill a
 * recorded trade gives one of our resting orders.
 */
export const DRIVEN_ACCOUNTS = {
  book: parseAddress('0x00000000000000000000000000000000000d0b00', 'driven book account'),
  counterparty: parseAddress('0x00000000000000000000000000000000000d0c00', 'driven counterparty account'),
} as const;

/** Deep enough that the driven accounts never run out of margin. */
export const DRIVEN_DEPOSIT = '1000000000000000';

/** True for an account the driven market acts through (its orders are not queued for fills). */
export function isDrivenAccount(account: Address): boolean {
  return account === DRIVEN_ACCOUNTS.book || account === DRIVEN_ACCOUNTS.counterparty;
}
