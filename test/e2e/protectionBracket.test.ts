import { afterEach, describe, expect, it } from 'vitest';
import { multiplyDecimals } from '../../src/core/decimal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import type { TpslOrderRecord } from '../../src/venue/schemas/restTpsl.js';
import { until } from './support/journalBot.js';
import { activeTpsl, signedPosition } from './support/protectionBot.js';
import { onGrid, ProtectionOnSim } from './support/protectionOnSim.js';

const BLOCK_MS = 1000;
const BRACKET_PROBE = 'strategies/bracketProbe.ts';

/** The legs on the venue as [stop type, side, size], in a fixed order. */
const legsOf = (stops: readonly TpslOrderRecord[]): string[][] =>
  stops.map((s) => [s.stop_type, s.side, s.size]).sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));

/**
 * A strategy that knows its own protection (no `protection:` in its config) emits a bracket: a
 * resting bid and its stop-loss and take-profit. The venue's TP/SL follow what the entry actually
 * filled, and the strategy's `unprotect` leaves the venue without any. The whole bot (runBot) on
 * the simulator over HTTP and WebSocket; a second account takes the other side.
 */
describe('a bracket from a strategy (runBot on the simulator)', () => {
  let t: ProtectionOnSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('legs of the filled size after a partial fill; none once the strategy turns protection off', async () => {
    const h = (t = await ProtectionOnSim.start({ quiet: true, blockMs: BLOCK_MS }));
    const { mark, tick } = await h.grid();
    const entry = onGrid(multiplyDecimals(mark, '0.95'), tick);
    await h.startBot(
      `{ entry: { price: "${entry}", size: "0.003" }, stop_loss_bps: 50, take_profit_bps: 100, off_at: "0.002" }`,
      '',
      'protection: { venue_read_ms: 500 }',
      BRACKET_PROBE,
    );
    // The entry rests unfilled: no position, so nothing to protect yet.
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);

    // A third of the entry fills: both legs, of that third, on the venue.
    await h.stopsWithin(await h.take('sell', '0.001', entry), (stops) => stops.length === 2);
    expect(await signedPosition(h.who.rest, h.who.account)).toBe('0.001');
    const legs = await activeTpsl(h.who.rest, h.who.account);
    expect(legsOf(legs)).toEqual([
      ['STOP_LOSS', 'SELL', '0.001'],
      ['TAKE_PROFIT', 'SELL', '0.001'],
    ]);
    const sl = legs.find((s) => s.stop_type === 'STOP_LOSS');
    const tp = legs.find((s) => s.stop_type === 'TAKE_PROFIT');
    // From the average entry: 50 bps below toward it, 100 bps above away from it (never looser than asked).
    expect(sl?.stop_price).toBe(onGrid(multiplyDecimals(entry, '0.995'), tick, 'up'));
    expect(tp?.stop_price).toBe(onGrid(multiplyDecimals(entry, '1.01'), tick, 'up'));

    // More fills: at 0.002 the strategy sends unprotect, and the venue holds no TP/SL of it.
    await h.stopsWithin(await h.take('sell', '0.001', entry), (stops) => stops.length === 0);
    expect(await signedPosition(h.who.rest, h.who.account)).toBe('0.002');
    // It stays so: a fill after protection went off places nothing.
    await h.take('sell', '0.001', entry);
    await until(async () => (await signedPosition(h.who.rest, h.who.account)) === '0.003', 10_000);
    const journal = openJournal(h.journalPath, { readonly: true });
    // Past two venue reads and passes of the keeper (500 ms each) after the last fill.
    await until(() => {
      const rows = journal.db.prepare("SELECT state FROM tpsl_orders WHERE state != 'cancelled'").all();
      return rows.length === 0;
    }, 10_000);
    expect(await activeTpsl(h.who.rest, h.who.account)).toEqual([]);

    // The journal: the bracket, its entry (an intent of its own) and the unprotect, each accepted.
    const intents = journal.db
      .prepare(
        "SELECT kind, json_extract(intent, '$.off') AS off, outcome_type FROM intents WHERE strategy = 'probe' ORDER BY received_ms, rowid",
      )
      .all();
    journal.close();
    expect(intents).toEqual([
      { kind: 'bracket', off: null, outcome_type: 'accepted' },
      { kind: 'placeLimit', off: null, outcome_type: 'accepted' },
      { kind: 'protect', off: 1, outcome_type: 'accepted' },
    ]);
    expect(h.bot?.engine.protections.current()).toEqual([]);
  }, 90_000);
});
