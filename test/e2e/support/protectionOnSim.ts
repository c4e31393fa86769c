import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { countUnits, multiplyUnits } from '../../../src/core/decimal.js';
import type { Engine } from '../../../src/engine/engine.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import type { TpslOrderRecord } from '../../../src/venue/schemas/restTpsl.js';
import { engineOnSim } from './engineOnSim.js';
import { startBotOnSim, until, type JournalBot } from './journalBot.js';
import { activeTpsl } from './protectionBot.js';
import { fundedAccount, grantAllowance, type SimAccount } from './simAccount.js';

/**
 * The whole bot (runBot) with the resting-probe strategy and a `protection:` on the simulator,
 * a funded account with an OperatorHub budget, and a second account (`take`) that crosses the
 * bot's resting orders. `quiet`: no synthetic liquidity and a still oracle, so only the taker
 * meets the bot's orders.
 */
export class ProtectionOnSim {
  bot: JournalBot | undefined;
  private seq = 0;
  /** The block number when the last `take` was answered. */
  private takenAtBlock = 0;

  private constructor(
    readonly sim: RunningSim,
    readonly dir: string,
    readonly who: SimAccount,
    readonly taker: Engine,
    readonly blockMs: number,
  ) {}

  static async start(o: { quiet: boolean; blockMs: number; refuseTpsl?: boolean }): Promise<ProtectionOnSim> {
    const dir = mkdtempSync(join(tmpdir(), 'perpbot-protect-'));
    mkdirSync(join(dir, 'strategies'), { recursive: true });
    for (const probe of ['restingProbe', 'bracketProbe']) {
      const target = new URL(`./${probe}Strategy.ts`, import.meta.url).pathname;
      writeFileSync(join(dir, 'strategies', `${probe}.ts`), `export { default } from ${JSON.stringify(target)};\n`);
    }
    const sim = await startSim({
      port: 0,
      blockMs: o.blockMs,
      registrationLagMs: 0,
      tpslLagMs: 100,
      restRequestsPer10s: 100_000,
      ...(o.refuseTpsl === true ? { refuseTpsl: true } : {}),
      ...(o.quiet ? { exchange: { makers: false, oracleVolatilityPpm: 0 } } : {}),
    });
    const who = await fundedAccount(sim);
    await grantAllowance(who, 1_000_000n);
    const taker = engineOnSim(await fundedAccount(sim));
    await taker.start();
    return new ProtectionOnSim(sim, dir, who, taker, o.blockMs);
  }

  get journalPath(): string {
    return join(this.dir, 'journal.sqlite');
  }

  /**
   * The config the bot runs (also what a spawned CLI command reads): the strategy `probe` of
   * `module` (the resting probe unless given), with `protection` unless it is empty.
   */
  config(params: string, protection: string, extra = '', module = 'strategies/restingProbe.ts'): string {
    return `
venue: { profile: sim, rest_url: ${this.sim.restUrl}, ws_url: ${this.sim.wsUrl} }
risk: { max_order_notional: "1000000", max_position_per_market: "10000000", max_open_orders: 50, kill_switch: { max_loss: "100000" } }
strategies:
  - name: probe
    module: ${module}
    markets: [1]
    params: ${params}
${protection === '' ? '' : `    protection: ${protection}`}
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(this.journalPath)} }
${extra}
`;
  }

  /** The control server's URL, when the config turns it on (`control: { port: 0 }`). */
  controlUrl: string | undefined;

  async startBot(
    params: string,
    protection: string,
    extra = 'protection: { venue_read_ms: 500 }',
    module?: string,
  ): Promise<JournalBot> {
    this.bot = await startBotOnSim(this.sim, this.who, this.config(params, protection, extra, module), this.dir, {
      onControlServer: (url) => (this.controlUrl = url),
    });
    await until(
      async () => (await this.who.rest.openOrders({ account: this.who.account, market_id: '1' })).orders.length > 0,
      20_000,
    );
    return this.bot;
  }

  async grid(): Promise<{ mark: string; tick: string }> {
    const market = (await this.who.rest.markets()).markets.find((m) => Number(m.market_id) === 1);
    if (market === undefined) throw new Error('no market 1');
    return { mark: market.mark_price, tick: market.config.step_price };
  }

  /** The taker crosses the bot's resting order; resolves with the time its answer came. */
  async take(side: 'buy' | 'sell', size: string, price: string): Promise<number> {
    const outcome = await this.taker.execute(
      placeLimit({
        intentId: `taker-${this.seq++}`,
        strategy: 'taker',
        marketId: 1,
        side,
        size,
        price,
        timeInForce: 'IOC',
      }),
    );
    expect(outcome.type).toBe('accepted');
    this.takenAtBlock = this.sim.controls.state().blockNumber;
    return Date.now();
  }

  /** Waits for the venue's active TP/SL orders to satisfy `check`; the milliseconds it took from `since`. */
  /**
   * How many of the simulator's blocks were mined from the last `take`'s answer until the venue's
   * stops pass `check`. The bot and the simulator share this process's event loop, so a machine
   * too busy to run either delays both: a count of blocks is what "within one block" means, where
   * wall time on a loaded machine is not.
   */
  async blocksUntilStops(check: (stops: TpslOrderRecord[]) => boolean): Promise<number> {
    const from = this.takenAtBlock;
    await this.stopsWithin(Date.now(), check);
    return this.sim.controls.state().blockNumber - from;
  }

  async stopsWithin(since: number, check: (stops: TpslOrderRecord[]) => boolean): Promise<number> {
    let stops: TpslOrderRecord[] = [];
    await until(async () => check((stops = await activeTpsl(this.who.rest, this.who.account))), 10_000).catch(
      (e: unknown) => {
        throw new Error(`stops now: ${JSON.stringify(stops)}`, { cause: e });
      },
    );
    return Date.now() - since;
  }

  async close(): Promise<void> {
    await this.bot?.stop();
    this.bot = undefined;
    await this.taker.stop();
    await this.sim.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function onGrid(price: string, tick: string, rounding: 'down' | 'up' = 'down'): string {
  return multiplyUnits(countUnits(price, tick, 'price', rounding), tick);
}

export const oneStop =
  (size: string) =>
  (stops: TpslOrderRecord[]): boolean =>
    stops.length === 1 && stops[0]?.stop_type === 'STOP_LOSS' && stops[0].size === size;
