import { Gauge, type Registry } from 'prom-client';
import type { BotStatus } from '../control/botStatus.js';

/** What `perpbot_info` says of the bot, for joins across a fleet (each a single bounded value). */
export interface BotIdentity {
  readonly account: string;
  readonly version: string;
  /** The config file's name without its extension (`desk-a` for desk-a.yaml). */
  readonly config: string;
  readonly profile: string;
}

/**
 * The gauges a fleet's rules and board need beside the bot's own: who the bot is (`perpbot_info`,
 * the one series with the account, which every other joins on), the loss at which each kill
 * switch trips, and whether the journal takes writes. Set from the status snapshot like the rest.
 */
export class FleetGauges {
  private readonly info: Gauge<'account' | 'version' | 'config' | 'profile'>;
  private readonly lossLimit: Gauge<'strategy'>;
  private readonly journalFallback: Gauge;
  private readonly journalKept: Gauge;

  constructor(registry: Registry, prefix: string) {
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Gauge<L>({ name: `${prefix}${name}`, help, labelNames, registers: [registry] });
    this.info = gauge(
      'info',
      'Always 1: who this bot is, for joins (account, perpbot version, config name, venue profile)',
      ['account', 'version', 'config', 'profile'],
    );
    this.lossLimit = gauge(
      'loss_limit_usdc',
      'The loss at which a kill switch trips (kill_switch.max_loss): the account (strategy="account") and each strategy',
      ['strategy'],
    );
    this.journalFallback = gauge(
      'journal_fallback_active',
      '1 while the journal cannot be written (JOURNAL_DOWN): records go to memory and the fallback file',
      [],
    );
    this.journalKept = gauge(
      'journal_fallback_records',
      'Records not yet in the journal (in memory and the fallback file); written to it once it takes writes',
      [],
    );
  }

  identify(identity: BotIdentity): void {
    this.info.reset();
    this.info.set({ ...identity }, 1);
  }

  set(status: BotStatus): void {
    this.lossLimit.reset();
    this.lossLimit.set({ strategy: 'account' }, Number(status.lossLimit));
    for (const s of status.strategies) this.lossLimit.set({ strategy: s.name }, Number(s.lossLimit));
    this.journalFallback.set(status.journal.writable ? 0 : 1);
    this.journalKept.set(status.journal.keptRecords);
  }
}
