import { addDecimals, negateDecimal } from '../../../core/decimal.js';
import { placesOf, toPlaces, USDC_PLACES } from '../../../core/displayDecimal.js';
import { footedStatement } from '../../../core/footedStatement.js';
import type { AccountValuation } from '../../../engine/ledger/accountValuation.js';
import type { PositionValue } from '../../../engine/ledger/pnlLedger.js';
import type { PnlView } from '../../../engine/ledger/pnlView.js';

/**
 * Money as every screen prints it (the dashboard, `perpbot status`, the terminal's line): USDC to
 * 6 places, a market's prices to the places of its `step_price`, rounded half to even
 * (core/displayDecimal.ts). The exact figures stay beside these in `/api/status`. The account's
 * figures are shown as one statement (core/footedStatement.ts): opening balance, + realisedPnl,
 * − fees, + otherBalanceChange = balance, + each position's unrealisedPnl = equity; the balances and
 * running totals are their exact values rounded, each line the difference, so on screen
 * realisedPnl − fees + otherBalanceChange is the balance change and the positions add up to
 * unrealisedPnl, to the last digit.
 */

/** A PnL as shown: fees as paid (positive), netPnl = realisedPnl + unrealisedPnl − fees on screen too. */
export interface PnlDisplay {
  readonly realisedPnl: string;
  readonly unrealisedPnl: string;
  readonly fees: string;
  readonly netPnl: string;
}

export interface AccountDisplay {
  readonly balance: string | null;
  readonly openingBalance: string | null;
  readonly balanceChange: string | null;
  readonly otherBalanceChange: string | null;
  readonly equity: string | null;
  readonly pnl: PnlDisplay | null;
}

export interface PositionDisplay {
  readonly avgEntryPrice: string;
  readonly markPrice: string | null;
  readonly unrealisedPnl: string | null;
}

/** The places a market's prices are shown with: its tick's; undefined for a market the bot does not know. */
export type PricePlaces = (marketId: number) => number | undefined;

/** USDC as shown. */
export function usdc(value: string): string {
  return toPlaces(value, USDC_PLACES, 'USDC amount');
}

/** A price as shown: to the market's tick, or exact when the market's grid is unknown. */
export function price(value: string, places: number | undefined): string {
  return places === undefined ? value : toPlaces(value, places, 'price');
}

/** The places of a market record's `step_price`; undefined when it has none or a malformed one. */
export function pricePlacesOf(
  market: { readonly config?: { readonly step_price?: string } } | undefined,
): number | undefined {
  const step = market?.config?.step_price;
  if (step === undefined) return undefined;
  try {
    return placesOf(step);
  } catch {
    return undefined;
  }
}

/** A PnL on its own (a strategy's, a replay's): realisedPnl, − fees, + unrealisedPnl as a statement from 0. */
export function pnlDisplay(pnl: Pick<PnlView, 'realisedPnl' | 'unrealisedPnl' | 'fees'>): PnlDisplay {
  const s = footedStatement('0', [pnl.realisedPnl, negateDecimal(pnl.fees), pnl.unrealisedPnl], USDC_PLACES);
  return {
    realisedPnl: s.lines[0]!,
    fees: usdc(negateDecimal(s.lines[1]!)),
    unrealisedPnl: s.lines[2]!,
    netPnl: s.totals[2]!,
  };
}

/** The account and its positions (in `valuation.positions`' order) as one statement that adds up on screen. */
export function accountDisplay(
  valuation: AccountValuation,
  places: PricePlaces,
): { readonly account: AccountDisplay; readonly positions: readonly PositionDisplay[] } {
  const { pnl, positions, balance, openingBalance, otherBalanceChange, equity } = valuation;
  const priced = pnl.unpricedMarkets.length === 0;
  // Without both balances the statement starts from 0 and has no balance lines.
  const balances = balance !== null && openingBalance !== null && otherBalanceChange !== null;
  const head = [pnl.realisedPnl, negateDecimal(pnl.fees), ...(balances ? [otherBalanceChange] : [])];
  const unrealised = priced ? positions.map((p) => p.unrealisedPnl ?? '0') : [];
  const s = footedStatement(balances ? openingBalance : '0', [...head, ...unrealised], USDC_PLACES);
  const atBalance = s.totals[head.length - 1]!;
  const unrealisedShown = shownSum(s.lines.slice(head.length));
  return {
    account: {
      balance: balances ? atBalance : balance === null ? null : usdc(balance),
      openingBalance: balances ? s.start : openingBalance === null ? null : usdc(openingBalance),
      balanceChange: balances ? shownSum([atBalance, negateDecimal(s.start)]) : null,
      otherBalanceChange: balances ? s.lines[2]! : null,
      equity: equity === null ? null : balances ? s.totals.at(-1)! : usdc(equity),
      pnl: priced
        ? {
            realisedPnl: s.lines[0]!,
            fees: usdc(negateDecimal(s.lines[1]!)),
            unrealisedPnl: unrealisedShown,
            netPnl: shownSum([s.lines[0]!, s.lines[1]!, unrealisedShown]),
          }
        : null,
    },
    positions: positions.map((p, i) =>
      positionDisplay(p, places(p.marketId), priced ? s.lines[head.length + i] : undefined),
    ),
  };
}

function positionDisplay(
  p: PositionValue,
  places: number | undefined,
  unrealised: string | undefined,
): PositionDisplay {
  return {
    avgEntryPrice: price(p.avgEntryPrice, places),
    markPrice: p.markPrice === undefined ? null : price(p.markPrice, places),
    unrealisedPnl: unrealised ?? (p.unrealisedPnl === undefined ? null : usdc(p.unrealisedPnl)),
  };
}

/** The sum of figures already shown: exact on the 6-place grid, written with every place. */
function shownSum(figures: readonly string[]): string {
  return usdc(figures.reduce((sum, f) => addDecimals(sum, f, 'shown figure'), '0'));
}
