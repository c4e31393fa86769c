import { writePrivateFile } from '../../../core/privateFiles.js';
import { dirname, join, resolve } from 'node:path';
import { fastPrivateKeySigner } from '../../../protocol/nativeSigner.js';
import type { RunningSim } from '../../../sim/startSim.js';
import type { Config } from '../../config/configSchema.js';
import { formatProbeRows } from '../../diagnostics/probe/formatProbeRows.js';
import { probePassed, type ProbeRow } from '../../diagnostics/probe/probeRow.js';
import { probeVenue, type ProbeKeys } from '../../diagnostics/probe/probeVenue.js';
import { WIRE_SAMPLES_DIR, WireSampleStore } from '../../operations/wire/wireSampleStore.js';
import { accountOf } from '../accountFlag.js';
import {
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  loadCliKeys,
  remoteVenue,
  usesEmbeddedSim,
  type VenueUrls,
} from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';
import { startEmbeddedSim } from '../embeddedSim.js';
import { integerFlag, stringFlag } from '../parseCommandArgs.js';
import { throwawayAccount } from '../throwawayAccount.js';

const DEFAULT_SECONDS = 10;

/**
 * `perpbot probe`: every read and channel of the venue decoded with the bot's own decoders, one
 * row each; exit 0 when all are ok, 1 otherwise. Read-only: REST GETs, subscriptions, and auth_v2
 * (a signed login message). With profile sim and no URLs it probes a simulator of its own with
 * throwaway keys, as `perpbot start` would trade on it.
 */
export async function runProbe(args: ParsedArgs, io: CliIo): Promise<number> {
  const seconds = integerFlag(args, 'seconds', 1, 3600) ?? DEFAULT_SECONDS;
  const jsonPath = stringFlag(args, 'json');
  const config = await loadCliConfig(args, io);
  // Warnings only by default: the table is the output.
  const log = createCliLogger(config, io.stderr, config.logging.level === 'silent' ? 'silent' : 'warn');
  const store = new WireSampleStore({
    dir: join(dirname(resolve(io.cwd, config.journal.path)), WIRE_SAMPLES_DIR),
    logger: log,
    clock: io.clock,
  });
  let sim: RunningSim | undefined;
  try {
    let venue: VenueUrls;
    let keys: { keys: ProbeKeys } | { reason: string };
    if (usesEmbeddedSim(config)) {
      sim = await startEmbeddedSim(config, io.clock, log);
      venue = sim;
      const made = await throwawayAccount(config, sim.restUrl, { clock: io.clock, logger: log, signal: io.shutdown });
      keys = { keys: { account: made.account.address, signer: fastPrivateKeySigner(made.signer.privateKey) } };
    } else {
      venue = remoteVenue(config, 'probe');
      keys = await configuredKeys(config, io);
    }
    const rows = await probeVenue({
      restUrl: venue.restUrl,
      wsUrl: venue.wsUrl,
      markets: configuredMarkets(config),
      ...('keys' in keys ? { keys: keys.keys } : { noKeysReason: keys.reason }),
      rest: createCliRestClient(config, venue.restUrl, log),
      timeoutMs: config.venue.request_timeout_ms,
      listenMs: seconds * 1000,
      clock: io.clock,
      saveSample: (failure, raw) => store.save(failure, raw),
      signal: io.shutdown,
    });
    io.stdout.write(formatProbeRows(rows, venue));
    if (jsonPath !== undefined) await writePrivateFile(resolve(io.cwd, jsonPath), probeJson(rows, venue));
    return probePassed(rows) ? 0 : 1;
  } finally {
    await sim?.close();
  }
}

/** The configured keys: both (private reads and channels), the account alone (private reads), or none. */
async function configuredKeys(config: Config, io: CliIo): Promise<{ keys: ProbeKeys } | { reason: string }> {
  try {
    const both = await loadCliKeys(config, io);
    return { keys: { account: both.account.address, signer: both.signer } };
  } catch (bothError) {
    try {
      return { keys: { account: await accountOf(undefined, config, io) } };
    } catch {
      return { reason: bothError instanceof Error ? bothError.message : String(bothError) };
    }
  }
}

function probeJson(rows: readonly ProbeRow[], venue: VenueUrls): string {
  return `${JSON.stringify({ ok: probePassed(rows), restUrl: venue.restUrl, wsUrl: venue.wsUrl, rows }, null, 2)}\n`;
}
