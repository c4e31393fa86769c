/**
 * Child process of the kill -9 test: starts an engine with the journal against a running
 * simulator and fires a burst of resting post-only bids, printing one line per outcome, until the
 * test kills it. Inputs come from the environment (the signer key is a secret: never argv).
 */
import { systemClock } from '../../../src/core/clock.js';
import { venueSender } from '../../../src/engine/sending/actionSender.js';
import { Engine } from '../../../src/engine/engine.js';
import { withEngineDefaults } from '../../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { openJournalForBot } from '../../../src/journal/openJournalForBot.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const toStderr = (level: string) => (obj: object, msg?: string) =>
  process.stderr.write(
    `${level} ${msg ?? ''} ${JSON.stringify(obj, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Error ? v.message : v))}\n`,
  );
const log = {
  debug: process.env['BURST_DEBUG'] === '1' ? toStderr('debug') : () => {},
  info() {},
  warn: toStderr('warn'),
  error: toStderr('error'),
};

async function main(): Promise<void> {
  const account = env('BURST_ACCOUNT') as `0x${string}`;
  const rest = createRestClient({ baseUrl: env('BURST_REST_URL'), timeoutMs: 10_000 });
  const count = Number(env('BURST_COUNT'));
  const runId = `burst-${systemClock.now().toString(36)}`;
  const journaled = await openJournalForBot({
    path: env('BURST_JOURNAL'),
    account,
    rest,
    clock: systemClock,
    log,
    markets: [1],
    runId,
    unknownOrders: 'leave',
    adopter: () => undefined,
    maxInFlightWaitMs: 10_000,
  });
  const engine = new Engine({
    account,
    signer: fastPrivateKeySigner(env('BURST_SIGNER_KEY') as `0x${string}`),
    rest,
    sender: venueSender(rest),
    config: withEngineDefaults({ guards: { maxOpenOrders: 10_000, actionsPerSecond: 100_000, actionBurst: 100_000 } }),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log,
    markets: [1],
    // Short permits: a restarted process waits out the deadline of what was in flight at the kill.
    permitDeadlineSeconds: 4,
    journal: journaled.engineJournal,
    ...(journaled.restoredNonceHighWater === undefined
      ? {}
      : { restoredNonceHighWater: journaled.restoredNonceHighWater }),
  });
  journaled.beforeStart(engine);
  await engine.start();
  process.stdout.write('ready\n');
  // A window of concurrent placements, refilled as each ends: a burst the venue can keep up with.
  let next = 0;
  const submitNext = () => {
    if (next >= count) return;
    const i = next++;
    void engine
      .execute(
        placeLimit({
          intentId: `${runId}-${i}`,
          strategy: 'burst',
          marketId: 1,
          side: 'buy',
          size: '0.00015',
          price: (50_000 + i).toString(),
          postOnly: true,
        }),
      )
      .then((o) => {
        process.stdout.write(
          `outcome ${o.intentId} ${o.type} ${o.type === 'failed' ? (o.error.kind ?? o.error.code) : ''}\n`,
        );
        submitNext();
      });
  };
  for (let w = 0; w < Number(process.env['BURST_WINDOW'] ?? '16'); w++) submitNext();
}

main().catch((error: unknown) => {
  process.stderr.write(`burst child failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
