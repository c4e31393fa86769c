import { compareDecimals } from '../../core/decimal.js';
import type { PositionRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { PositionView } from './accountState.js';
import type { MarginMode, Side } from '../intents/intents.js';

export interface TrackedPosition extends PositionView {
  readonly marketId: number;
  readonly avgEntryPrice?: string;
  readonly marginMode?: MarginMode;
}

/**
 * The account's open positions and margin modes per market, from the positions feed (WebSocket or
 * REST) and the margin-mode switches the engine made. A flat position is removed; the margin mode
 * of its market is kept.
 */
export class PositionBook {
  private readonly positions = new Map<number, TrackedPosition>();
  private readonly marginModes = new Map<number, MarginMode>();

  onPositions(records: readonly PositionRecord[]): void {
    for (const record of records) {
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

  setMarginMode(marketId: number, mode: MarginMode): void {
    this.marginModes.set(marketId, mode);
  }

  position(marketId: number): TrackedPosition | undefined {
    return this.positions.get(marketId);
  }

  all(): TrackedPosition[] {
    return [...this.positions.values()];
  }

  /** Copies for one decision's account state. */
  positionsNow(): Map<number, TrackedPosition> {
    return new Map(this.positions);
  }

  marginModesNow(): Map<number, MarginMode> {
    return new Map(this.marginModes);
  }
}

function marginModeOf(code: PositionRecord['margin_mode']): MarginMode | undefined {
  if (code === 1 || code === '1') return 'isolated';
  if (code === 0 || code === '0') return 'cross';
  return undefined;
}
