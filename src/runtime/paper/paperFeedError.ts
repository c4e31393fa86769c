import { PerpbotError } from '../../core/perpbotError.js';

/** A paper bot cannot start: the venue's public feed sent no book for some configured market in time. */
export class PaperFeedError extends PerpbotError {
  constructor(markets: readonly number[], waitedMs: number, wsUrl: string) {
    super(
      `profile paper: no order book from the venue feed for market${markets.length === 1 ? '' : 's'} ${markets.join(', ')} within ${waitedMs} ms`,
      {
        code: 'STARTUP_DEADLINE',
        details: { markets, waitedMs, wsUrl },
        hints: [
          `check venue.ws_url (now ${wsUrl}) and that the venue publishes the orderbook channel for those markets`,
          `venue.startup_deadline_ms (now ${waitedMs}) sets how long to wait`,
        ],
      },
    );
    this.name = 'PaperFeedError';
  }
}
