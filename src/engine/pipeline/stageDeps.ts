import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { MarketView } from '../checks/marketView.js';
import type { EngineConfig } from '../config/engineConfig.js';
import type { NonceAllocator } from '../nonces/nonceAllocator.js';
import { parseNonceState } from '../nonces/noncePair.js';
import type { ActionSender } from '../sending/actionSender.js';
import { FEED_WAIT_MS, readLandingEvidence, type LandingReader } from '../sending/landingEvidence.js';
import type { EngineJournal } from '../tracking/engineJournal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { PipelineDeps } from './pipelineDeps.js';

/** The engine's parts the stages use, and what changes on a refresh or a restart (context, allocator). */
export interface StageParts {
  readonly account: Address;
  readonly signer: SignerLike;
  readonly rest: RestClient;
  readonly sender: ActionSender;
  readonly config: EngineConfig;
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly log: Logger;
  readonly journal: EngineJournal;
  readonly tracker: OrderTracker;
  readonly authMode: 'permit' | 'jwt';
  readonly permitDeadlineSeconds: number;
  context(): SigningContext | undefined;
  allocator(): NonceAllocator | undefined;
  market(marketId: number): MarketView | undefined;
  admit: PipelineDeps['admit'];
  admitNow: NonNullable<PipelineDeps['admitNow']>;
  onSignerNotAuthorized(error: unknown): void | Promise<void>;
}

/**
 * The stages' view of the engine, built once per signing context and allocator (they change on a
 * refresh or a restart) rather than per intent: a dozen closures per intent showed up in the
 * engine's profile as allocation and garbage collection.
 */
export class StageDeps {
  private cached:
    { readonly context: SigningContext; readonly allocator: NonceAllocator; readonly deps: PipelineDeps } | undefined;

  constructor(private readonly parts: StageParts) {}

  get(): PipelineDeps {
    const context = this.parts.context();
    const allocator = this.parts.allocator();
    if (context === undefined || allocator === undefined)
      throw new PerpbotError('engine used before start()', {
        code: 'ENGINE_NOT_STARTED',
        hints: ['await engine.start() first'],
      });
    const cached = this.cached;
    if (cached !== undefined && cached.context === context && cached.allocator === allocator) return cached.deps;
    const deps = this.build(context, allocator);
    this.cached = { context, allocator, deps };
    return deps;
  }

  private build(context: SigningContext, allocator: NonceAllocator): PipelineDeps {
    const p = this.parts;
    // After an ambiguous answer: the tracker (orders and fills channels), open orders, the position.
    const landing: LandingReader = {
      rest: p.rest,
      account: p.account,
      tracker: p.tracker,
      clock: p.clock,
      feedWaitMs: FEED_WAIT_MS,
    };
    return {
      account: p.account,
      config: p.config,
      selectors: p.selectors,
      auth:
        p.authMode === 'jwt'
          ? { mode: 'jwt' }
          : { mode: 'permit', context: () => context, signer: p.signer, allocator },
      sender: p.sender,
      tracker: p.tracker,
      clock: p.clock,
      log: p.log,
      journal: p.journal,
      permitDeadlineSeconds: p.permitDeadlineSeconds,
      market: (id) => p.market(id),
      admit: (intent, state) => p.admit(intent, state),
      admitNow: (intent, state) => p.admitNow(intent, state),
      readNonceState: async () => parseNonceState(await p.rest.nonceState(p.account)),
      lookupRestingId: async (marketId, orderId) => {
        // Every page, filtered to the one id: the first page alone misses an order further down.
        const open = await readAllOpenOrders(p.rest, { account: p.account, marketId, orderIds: [orderId] });
        const found = open.orders.find((x) => x.order_id.toLowerCase() === orderId.toLowerCase());
        return found === undefined ? undefined : BigInt(found.resting_order_id);
      },
      readLandingEvidence: (intent, action, signal) => readLandingEvidence(landing, intent.intentId, action, signal),
      onSignerNotAuthorized: (error) => p.onSignerNotAuthorized(error),
    };
  }
}
