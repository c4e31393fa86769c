import { compareDecimals } from '../../core/decimal.js';
import type { PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { PositionView } from './accountState.js';
import type { MarginMode, Side } from '../intents/intents.js';
import { MarkedChanges, ReadMarks } from './readMarks.js';

export interface TrackedPosition extends PositionView {
  readonly marketId: number;
  readonly avgEntryPrice?: string;
  readonly marginMode?: MarginMode;
}

/**
 * The account's open positions and margin modes per market, and its balance, from the live feeds
 * and REST reads, and the margin-mode switches the engine made. A flat position is removed; the
 * margin mode of its market is kept. A read applied with the mark taken before it began
 * (`ReadMarks`) leaves what the feed set since as it is: the feed's is the newer.
 */
export class PositionBook {
  private readonly positions = new Map<number, TrackedPosition>();
  private readonly marginModes = new Map<number, MarginMode>();
  private readonly fed: MarkedChanges<number | 'balance'>;
  private balanceNow: string | undefined;
  /**
   * The copies handed out for decisions, made on the first ask after a change and shared until
   * the next: every intent's checks ask for both, and positions change far less often than that.
   */
  private positionsCopy: ReadonlyMap<number, TrackedPosition> | undefined;
  private marginModesCopy: ReadonlyMap<number, MarginMode> | undefined;

  constructor(marks: ReadMarks = new ReadMarks()) {
    this.fed = new MarkedChanges(marks);
  }

  /** Positions from the feed, or (`readFrom`: the mark taken before it began) from a read. */
  onPositions(records: readonly PositionRecord[], readFrom?: number): void {
    this.positionsCopy = undefined;
    this.marginModesCopy = undefined;
    for (const record of records) {
      if (readFrom === undefined) this.fed.changed(record.market_id);
      else if (this.fed.newerThan(record.market_id, readFrom)) continue;
      const mode = marginModeOf(record.margin_mode);
      if (mode !== undefined) this.marginModes.set(record.market_id, mode);
      const size = record.size.startsWith('-') ? record.size.slice(1) : record.size;
      const side: Side = record.side ?? (record.size.startsWith('-') ? 'sell' : 'buy');
      if (compareDecimals(size, '0') === 0) {
        this.positions.delete(record.market_id);
        continue;
      }
      this.positions.set(record.market_id, {
        marketId: record.market_id,
        side,
        size,
        ...(record.avg_entry_price === undefined ? {} : { avgEntryPrice: record.avg_entry_price }),
        ...(mode === undefined ? {} : { marginMode: mode }),
      });
    }
  }

  /** The balance from the account feed, or (`readFrom`) from a read, as `onPositions`. */
  onBalance(balance: string, readFrom?: number): void {
    if (readFrom === undefined) this.fed.changed('balance');
    else if (this.fed.newerThan('balance', readFrom)) return;
    this.balanceNow = balance;
  }

  get balance(): string | undefined {
    return this.balanceNow;
  }

  setMarginMode(marketId: number, mode: MarginMode): void {
    this.marginModesCopy = undefined;
    this.marginModes.set(marketId, mode);
  }

  position(marketId: number): TrackedPosition | undefined {
    return this.positions.get(marketId);
  }

  all(): TrackedPosition[] {
    return [...this.positions.values()];
  }

  /** A copy for one decision's account state (read-only: later decisions may share it). */
  positionsNow(): ReadonlyMap<number, TrackedPosition> {
    return (this.positionsCopy ??= new Map(this.positions));
  }

  marginModesNow(): ReadonlyMap<number, MarginMode> {
    return (this.marginModesCopy ??= new Map(this.marginModes));
  }
}

function marginModeOf(code: PositionRecord['margin_mode']): MarginMode | undefined {
  if (code === 1 || code === '1') return 'isolated';
  if (code === 0 || code === '0') return 'cross';
  return undefined;
}
