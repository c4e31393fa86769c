import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from '../../../core/address.js';
import { startSim, type RunningSim } from '../../../sim/startSim.js';
import { selectorsOf } from '../../config/selectorsOf.js';
import { createSilentLogger } from '../../operations/logging/createLogger.js';
import { loadStrategies } from '../../bot/wiring/loadStrategies.js';
import { auditChaosRun } from './audit/auditChaosRun.js';
import type { InvariantResult } from './audit/invariant.js';
import { reconnectsOf } from './audit/reconnectTime.js';
import { writeBotConfig } from './botConfig.js';
import { BotSession, type BotSessionOptions } from './botSession.js';
import { createChaosAccount, type ThrowawayKeysMaker } from './chaosAccount.js';
import type { ChaosReport } from './chaosReport.js';
import { readJournalTruth, type JournalTruth } from './journalTruth.js';
import { readVenueTruth, type VenueTruth } from './venueTruth.js';

export interface RunChaosOptions extends BotSessionOptions {
  readonly configPath: string;
  /** The CLI's throwaway account (`cli/throwawayAccount.ts`), passed in: diagnostics does not import the CLI. */
  readonly makeKeys: ThrowawayKeysMaker;
}

/** What the audit compared: the simulator's records, the journal's, and the invariants that held or not. */
interface ChaosAudit {
  readonly venue: VenueTruth;
  readonly journal: JournalTruth;
  readonly invariants: InvariantResult[];
}

/**
 * `perpbot chaos`: the configured strategies on an in-process simulator with faults on, in a bot
 * child process killed with SIGKILL half-way and started again, stopped with SIGINT at the end;
 * then the simulator's own records are audited against the journal file and the bot's log.
 */
export async function runChaos(o: RunChaosOptions): Promise<ChaosReport> {
  const { config, chaos, clock } = o;
  // A typo in a strategy's params costs nothing: checked here, as perpbot start does, before anything runs.
  await loadStrategies(config, o.cwd);
  const dir = chaos.dir ?? (await mkdtemp(join(tmpdir(), 'perpbot-chaos-')));
  await mkdir(dir, { recursive: true });
  const journalPath = join(dir, 'journal.sqlite');
  const startedAt = new Date(clock.now()).toISOString();
  const internalErrors: string[] = [];
  const sim = await startChaosSim(o, internalErrors);
  try {
    o.out.write(`perpbot chaos: simulator at ${sim.restUrl}; journal, bot config and logs in ${dir}\n`);
    const account = await createChaosAccount(config, sim.restUrl, clock, createSilentLogger(), o.signal, o.makeKeys);
    o.out.write(`account ${account.account} funded, signer ${account.signer} registered\n`);
    sim.controls.setFaults(chaos.faults);
    const botConfigPath = join(dir, 'bot.yaml');
    await writeBotConfig(botConfigPath, config, { restUrl: sim.restUrl, wsUrl: sim.wsUrl, journalPath });
    const session = new BotSession(o, sim, account, botConfigPath, dir);
    const ranMs = await session.run();
    if (internalErrors.length > 0) o.out.write(`simulator internal errors: ${internalErrors.slice(0, 3).join('; ')}\n`);
    const audit = auditRun(o, session, sim, journalPath, account.account);
    const ok = audit.invariants.every((i) => i.ok);
    // A temporary directory is evidence only when something failed; --dir is always kept.
    const dirKept = chaos.dir !== undefined || !ok;
    if (!dirKept) await rm(dir, { recursive: true, force: true });
    return chaosReportOf(o, audit, { ok, session, startedAt, ranMs, dir, dirKept, account: account.account });
  } finally {
    await sim.close();
  }
}

/** The seed of the run: --seed, else the config's. */
function seedOf(o: RunChaosOptions): number {
  return o.chaos.seed ?? o.config.sim.seed;
}

/** The simulator of the run, on a free port, collecting its internal errors (a chaos run reports them). */
function startChaosSim(o: RunChaosOptions, internalErrors: string[]): Promise<RunningSim> {
  const { config, chaos } = o;
  return startSim({
    host: '127.0.0.1',
    port: 0,
    seed: seedOf(o),
    blockMs: chaos.blockMs ?? config.sim.block_ms,
    registrationLagMs: chaos.registrationLagMs ?? config.sim.registration_lag_ms,
    selectors: selectorsOf(config),
    clock: o.clock,
    onError: (error) => internalErrors.push(error instanceof Error ? error.message : String(error)),
  });
}

/** The simulator's records against the journal file (empty when the bot never wrote one) and the bot's log. */
function auditRun(
  o: RunChaosOptions,
  session: BotSession,
  sim: RunningSim,
  journalPath: string,
  account: Address,
): ChaosAudit {
  const journal: JournalTruth = existsSync(journalPath)
    ? readJournalTruth(journalPath, account)
    : { fills: [], failedIntents: [], positions: [], intents: 0 };
  const venue = readVenueTruth(sim.context, account);
  const invariants = auditChaosRun({
    venue,
    journal,
    runs: session.runs,
    events: session.events,
    maxOutageMs: o.config.degraded.max_outage_ms,
    maxReconnectMs: o.chaos.maxReconnectMs,
    nowMs: o.clock.now(),
  });
  return { venue, journal, invariants };
}

interface RunFacts {
  /** Every invariant held. */
  readonly ok: boolean;
  readonly session: BotSession;
  readonly startedAt: string;
  readonly ranMs: number;
  readonly dir: string;
  readonly dirKept: boolean;
  readonly account: string;
}

function chaosReportOf(o: RunChaosOptions, audit: ChaosAudit, run: RunFacts): ChaosReport {
  const { chaos } = o;
  const { session, account } = run;
  return {
    ok: run.ok,
    startedAt: run.startedAt,
    durationMs: chaos.durationMs,
    ranMs: run.ranMs,
    settleMs: session.settledWithinMs,
    config: o.configPath,
    dir: run.dir,
    dirKept: run.dirKept,
    account,
    faults: chaos.faults,
    crash: chaos.crash,
    seed: seedOf(o),
    totals: {
      ordersPlaced: audit.venue.orders.length,
      fills: audit.venue.fills.length,
      reconnects: reconnectsOf(session.events, session.runs).length,
      botRuns: session.runs.length,
      intents: audit.journal.intents,
    },
    invariants: audit.invariants,
  };
}
