import { Subject, type Observable } from 'rxjs';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { BracketIntent, ProtectIntent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import { askedProtection } from './askedProtection.js';
import type { ProtectedMarket } from './protectedMarket.js';
import type { ProtectionSpec } from './protectionLegs.js';

export interface StrategyProtectionsOptions {
  /** Whether the venue lists the market. */
  marketKnown(marketId: number): boolean;
  now(): number;
}

/**
 * Which strategy protects which market now: the config's `protection:` blocks, each overridden
 * for its strategy and market by what the strategy last asked (`protect`, `bracket`, or `off`).
 * What a strategy asks lasts for the run: after a restart the config's apply again until it asks
 * anew (the legs on the venue stay meanwhile; see the keeper). The keeper reads `current()` on
 * every pass and passes at once on `changes$`.
 */
export class StrategyProtections {
  private configured: readonly ProtectedMarket[] = [];
  private traders: ReadonlyMap<number, readonly string[]> = new Map();
  /** What strategies asked, by `strategy/market`: the legs' distances, or undefined for off. */
  private readonly asked = new Map<
    string,
    ProtectedMarket | { readonly strategy: string; readonly marketId: number }
  >();
  private readonly changed = new Subject<void>();
  readonly changes$: Observable<void> = this.changed.asObservable();
  /** Why no keeper runs for these protections (see `keptByNobody`), or undefined. */
  private unkept: { readonly why: string; readonly fix: string } | undefined;

  constructor(private readonly o: StrategyProtectionsOptions) {}

  /**
   * The config's protections, and which strategies trade each market: a TP/SL closes the
   * account's whole position in a market, so a strategy may protect a market only it trades.
   */
  configure(configured: readonly ProtectedMarket[], traders: ReadonlyMap<number, readonly string[]>): void {
    this.configured = configured;
    this.traders = traders;
    this.changed.next();
  }

  /**
   * No keeper follows these protections (a replay of a config without `protection:`): each
   * protect intent is refused saying so, never accepted and left without TP/SL orders.
   */
  keptByNobody(why: string, fix: string): void {
    this.unkept = { why, fix };
  }

  /** The protections in force: one per protected strategy and market. */
  current(): ProtectedMarket[] {
    const out = this.configured.filter((p) => !this.asked.has(keyOf(p.strategy, p.marketId)));
    for (const asked of this.asked.values()) if ('spec' in asked) out.push(asked);
    return out;
  }

  /** Whether any strategy asked for protection (or its end) in this run. */
  get anyAsked(): boolean {
    return this.asked.size > 0;
  }

  /** A protect intent, or a bracket's protection: checked, then in force at once. */
  protect(intent: ProtectIntent | BracketIntent): IntentOutcome {
    const { intentId, strategy, kind, marketId } = intent;
    const atMs = this.o.now();
    const asked = askedProtection(intent, this.o.marketKnown(marketId));
    const refused = 'rule' in asked ? asked : (this.unkeptRefusal(marketId) ?? this.sharedMarket(strategy, marketId));
    if (refused !== undefined) return { intentId, strategy, kind, marketId, atMs, type: 'refused', refusal: refused };
    this.set(strategy, marketId, 'spec' in asked ? asked.spec : undefined);
    return { intentId, strategy, kind, marketId, atMs, type: 'accepted' };
  }

  private set(strategy: string, marketId: number, spec: ProtectionSpec | undefined): void {
    this.asked.set(
      keyOf(strategy, marketId),
      spec === undefined ? { strategy, marketId } : { strategy, marketId, spec },
    );
    this.changed.next();
  }

  private unkeptRefusal(marketId: number): Refusal | undefined {
    return this.unkept === undefined ? undefined : refusal('protection', marketId, this.unkept.why, this.unkept.fix);
  }

  private sharedMarket(strategy: string, marketId: number): Refusal | undefined {
    const others = (this.traders.get(marketId) ?? []).filter((name) => name !== strategy);
    if (others.length === 0) return undefined;
    return refusal(
      'protection',
      marketId,
      `market ${marketId} is traded also by ${others.join(', ')}: a TP/SL closes the account's whole position there, so only a strategy that trades a market alone may protect it`,
      'give the other strategies other markets, or protect from the config of the one strategy in the market',
    );
  }
}

function keyOf(strategy: string, marketId: number): string {
  return `${strategy}/${marketId}`;
}
