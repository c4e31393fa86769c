import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import { NO_FAULTS } from '../../sim/simContext.js';
import { startSim, type RunningSim } from '../../sim/startSim.js';
import { selectorsOf } from '../cli/cliContext.js';
import type { TextSink } from '../cli/cliIo.js';
import type { Config } from '../config/configSchema.js';
import { REST_URL_ENV, WS_URL_ENV } from '../config/loadConfig.js';
import { parseStrategyParams } from '../config/parseStrategyParams.js';
import { createSilentLogger } from '../logging/createLogger.js';
import { loadStrategies } from '../wiring/loadStrategies.js';
import { auditChaosRun } from './audit/auditChaosRun.js';
import { reconnectsOf } from './audit/reconnectTime.js';
import { degradedPeriodsOf } from './audit/tradingPeriods.js';
import { writeBotConfig } from './botConfig.js';
import { BotProcess, type BotExitStatus } from './botProcess.js';
import type { BotEvent, BotExit, BotRun } from './botTimeline.js';
import { createChaosAccount, type ChaosAccount } from './chaosAccount.js';
import type { ChaosOptions } from './chaosOptions.js';
import { ProgressDisplay, type ChaosProgress } from './chaosProgress.js';
import type { ChaosReport } from './chaosReport.js';
import { readJournalTruth, type JournalTruth } from './journalTruth.js';
import { readVenueTruth } from './venueTruth.js';

export interface RunChaosOptions {
  readonly config: Config;
  readonly configPath: string;
  readonly chaos: ChaosOptions;
  /** The bot runs here (strategy modules are resolved from it). */
  readonly cwd: string;
  /** The environment the bot inherits (without any PERPBOT_ variable, which the run sets itself). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: TextSink;
  readonly tty: boolean;
  readonly clock: Clock;
  /** Aborting it ends the run early: the bot is stopped and what happened so far is audited. */
  readonly signal: AbortSignal;
}

/** A bot process that ends by itself this many times in a row is not restarted again. */
const MAX_UNEXPECTED_RESTARTS = 5;
const TICK_MS = 250;
/** Longest wait at the end, faults off, for the bot to trade again before it is stopped. */
const SETTLE_MAX_MS = 60_000;

class ChaosError extends PerpbotError {}

/**
 * `perpbot chaos`: the configured strategies on an in-process simulator with faults on, in a bot
 * child process killed with SIGKILL half-way and started again, stopped with SIGINT at the end;
 * then the simulator's own records are audited against the journal file and the bot's log.
 */
export async function runChaos(o: RunChaosOptions): Promise<ChaosReport> {
  const { config, chaos, clock } = o;
  // A typo in a strategy's params costs nothing: checked here, as perpbot start does, before anything runs.
  const hosted = await loadStrategies(config, o.cwd);
  hosted.forEach((strategy, index) => parseStrategyParams(strategy.definition.params, strategy.params, index));
  const dir = chaos.dir ?? (await mkdtemp(join(tmpdir(), 'perpbot-chaos-')));
  await mkdir(dir, { recursive: true });
  const journalPath = join(dir, 'journal.sqlite');
  const seed = chaos.seed ?? config.sim.seed;
  const startedAt = new Date(clock.now()).toISOString();
  const internalErrors: string[] = [];
  const sim = await startSim({
    host: '127.0.0.1',
    port: 0,
    seed,
    blockMs: chaos.blockMs ?? config.sim.block_ms,
    registrationLagMs: chaos.registrationLagMs ?? config.sim.registration_lag_ms,
    selectors: selectorsOf(config),
    clock,
    onError: (error) => internalErrors.push(error instanceof Error ? error.message : String(error)),
  });
  try {
    o.out.write(`perpbot chaos: simulator at ${sim.restUrl}; journal, bot config and logs in ${dir}\n`);
    const account = await createChaosAccount(config, sim.restUrl, clock, createSilentLogger(), o.signal);
    o.out.write(`account ${account.account} funded, signer ${account.signer} registered\n`);
    sim.controls.setFaults(chaos.faults);
    const botConfigPath = join(dir, 'bot.yaml');
    await writeBotConfig(botConfigPath, config, { restUrl: sim.restUrl, wsUrl: sim.wsUrl, journalPath });
    const session = new BotSession(o, sim, account, botConfigPath, dir);
    const ranMs = await session.run();
    if (internalErrors.length > 0) o.out.write(`simulator internal errors: ${internalErrors.slice(0, 3).join('; ')}\n`);
    const journal: JournalTruth = existsSync(journalPath)
      ? readJournalTruth(journalPath, account.account)
      : { fills: [], failedIntents: [], positions: [], intents: 0 };
    const venue = readVenueTruth(sim.context, account.account);
    const invariants = auditChaosRun({
      venue,
      journal,
      runs: session.runs,
      events: session.events,
      maxOutageMs: config.degraded.max_outage_ms,
      maxReconnectMs: chaos.maxReconnectMs,
      nowMs: clock.now(),
    });
    const ok = invariants.every((i) => i.ok);
    // A temporary directory is evidence only when something failed; --dir is always kept.
    const dirKept = chaos.dir !== undefined || !ok;
    if (!dirKept) await rm(dir, { recursive: true, force: true });
    return {
      ok,
      startedAt,
      durationMs: chaos.durationMs,
      ranMs,
      settleMs: session.settledWithinMs,
      config: o.configPath,
      dir,
      dirKept,
      account: account.account,
      faults: chaos.faults,
      crash: chaos.crash,
      seed,
      totals: {
        ordersPlaced: venue.orders.length,
        fills: venue.fills.length,
        reconnects: reconnectsOf(session.events, session.runs).length,
        botRuns: session.runs.length,
        intents: journal.intents,
      },
      invariants,
    };
  } finally {
    await sim.close();
  }
}

interface MutableRun {
  run: number;
  startedAtMs: number;
  endedAtMs?: number;
  exit?: BotExit;
  /** Set before the chaos run signals the process, so its exit is judged against the plan. */
  planned?: 'crash' | 'stop';
  forced?: boolean;
}

/** The bot's runs under chaos: the first start, the crash and restart, restarts after exits, the stop. */
class BotSession {
  readonly events: BotEvent[] = [];
  private readonly mutableRuns: MutableRun[] = [];
  private current: { readonly bot: BotProcess; readonly record: MutableRun } | undefined;
  private readonly progress: ProgressDisplay;
  /** How long the settle phase took (faults off until trading again, or SETTLE_MAX_MS). */
  settledWithinMs = 0;

  constructor(
    private readonly o: RunChaosOptions,
    private readonly sim: RunningSim,
    private readonly account: ChaosAccount,
    private readonly botConfigPath: string,
    private readonly dir: string,
  ) {
    this.progress = new ProgressDisplay(o.out, o.tty);
  }

  get runs(): readonly BotRun[] {
    return this.mutableRuns.map(({ run, startedAtMs, endedAtMs, exit }) => ({
      run,
      startedAtMs,
      ...(endedAtMs === undefined ? {} : { endedAtMs }),
      ...(exit === undefined ? {} : { exit }),
    }));
  }

  /** Runs the whole schedule; returns how long the strategies ran. */
  async run(): Promise<number> {
    const { chaos, clock, signal, config } = this.o;
    const first = this.start();
    const ready = await Promise.race([first.ready, abortOf(signal)]);
    if (ready !== true) {
      if (signal.aborted) {
        await this.stop(stopTimeoutMs(config));
        return 0;
      }
      const status = await first.exited;
      const said = first
        .stderrTail()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .slice(-3)
        .join(' | ');
      throw new ChaosError(
        `the bot did not start: it exited (code ${String(status.code)}, signal ${String(status.signal)}) before trading${said === '' ? '' : `: ${said}`}`,
        {
          code: 'CHAOS_BOT_START',
          details: { code: status.code, signal: status.signal },
          hints: [`its log: ${join(this.dir, 'bot-1.log')}`, `it ran: perpbot start --config ${this.botConfigPath}`],
        },
      );
    }
    const t0 = clock.now();
    const crashAt = t0 + Math.floor(chaos.durationMs / 2);
    const endAt = t0 + chaos.durationMs;
    let crashed = !chaos.crash;
    let unexpectedInARow = 0;
    this.progress.note(
      `bot running (run 1); ${chaos.crash ? 'crash with SIGKILL half-way, ' : ''}stop in ${Math.round(chaos.durationMs / 1000)} s`,
    );
    while (!signal.aborted && clock.now() < endAt) {
      const { bot, record } = this.current ?? {};
      if (!crashed && clock.now() >= crashAt) {
        crashed = true;
        if (bot !== undefined && record !== undefined && bot.running) {
          record.planned = 'crash';
          bot.signal('SIGKILL');
          await bot.exited;
        }
        this.progress.note(`crash: bot killed with SIGKILL at ${Math.round((clock.now() - t0) / 1000)} s; restarting`);
        this.start();
        unexpectedInARow = 0;
      } else if (bot !== undefined && !bot.running) {
        await bot.exited;
        unexpectedInARow += 1;
        if (unexpectedInARow > MAX_UNEXPECTED_RESTARTS) {
          this.progress.note(`the bot exited by itself ${unexpectedInARow} times in a row: not restarting it`);
          break;
        }
        this.progress.note(`the bot exited by itself (run ${bot.run}); restarting`);
        await clock.sleep(1_000, signal).catch(() => undefined);
        if (!signal.aborted) this.start();
      } else if (bot !== undefined && unexpectedInARow > 0 && bot.isReady) {
        unexpectedInARow = 0;
      }
      this.progress.tick(clock.now(), () => this.snapshot(t0, chaos.durationMs));
      await clock.sleep(TICK_MS, signal).catch(() => undefined);
    }
    const ranMs = clock.now() - t0;
    this.progress.tick(Number.MAX_SAFE_INTEGER, () => this.snapshot(t0, chaos.durationMs));
    if (!signal.aborted) await this.settle();
    this.progress.note(signal.aborted ? 'interrupted: stopping the bot' : 'stopping the bot (SIGINT)');
    await this.stop(stopTimeoutMs(config));
    return ranMs;
  }

  /**
   * Faults off, then up to SETTLE_MAX_MS for the bot to be authenticated and trading again: a stop
   * in the middle of an outage would leave the journal without the fills the outage hid until
   * the next start reconciles them, and the audit compares settled states, not luck.
   */
  private async settle(): Promise<void> {
    this.sim.controls.setFaults(NO_FAULTS);
    const { clock, signal } = this.o;
    const until = clock.now() + SETTLE_MAX_MS;
    let announced = false;
    while (!signal.aborted && clock.now() < until && this.current?.bot.running === true && !this.settled()) {
      if (!announced) this.progress.note('faults off: waiting for the bot to trade again before stopping it');
      announced = true;
      await clock.sleep(TICK_MS, signal).catch(() => undefined);
    }
    this.settledWithinMs = SETTLE_MAX_MS - Math.max(0, until - clock.now());
  }

  /** The current run's latest connection status is authenticated and its latest mode trading. */
  private settled(): boolean {
    const run = this.current?.record.run;
    const mine = this.events.filter((e) => e.run === run).reverse();
    const connection = mine.find((e) => e.type === 'connection');
    const mode = mine.find((e) => e.type === 'trading');
    return (
      this.current?.bot.isReady === true &&
      connection?.type === 'connection' &&
      connection.status === 'authenticated' &&
      mode?.type === 'trading' &&
      mode.mode === 'trading'
    );
  }

  private start(): BotProcess {
    const run = this.mutableRuns.length + 1;
    const record: MutableRun = { run, startedAtMs: this.o.clock.now() };
    this.mutableRuns.push(record);
    const bot = new BotProcess({
      run,
      configPath: this.botConfigPath,
      cwd: this.o.cwd,
      env: this.childEnv(),
      logPath: join(this.dir, `bot-${run}.log`),
      now: () => this.o.clock.now(),
      onEvent: (event) => this.events.push(event),
    });
    this.current = { bot, record };
    void bot.exited.then((status) => this.ended(record, status));
    return bot;
  }

  private ended(record: MutableRun, status: BotExitStatus): void {
    record.endedAtMs = status.atMs;
    record.exit = {
      code: status.code,
      signal: status.signal,
      ...(record.planned === undefined ? {} : { planned: record.planned }),
      ...(record.forced === true ? { forced: true } : {}),
    };
  }

  /** SIGINT, then the bot's own graceful shutdown; SIGKILL if it has not ended in time. */
  private async stop(timeoutMs: number): Promise<void> {
    if (this.current === undefined || !this.current.bot.running) return;
    const { bot, record } = this.current;
    record.planned = 'stop';
    bot.signal('SIGINT');
    const timedOut = await Promise.race([bot.exited.then(() => false), this.o.clock.sleep(timeoutMs).then(() => true)]);
    if (timedOut) {
      record.forced = true;
      bot.signal('SIGKILL');
    }
    await bot.exited;
    this.progress.done();
  }

  private childEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.o.env))
      if (value !== undefined && !name.startsWith('PERPBOT_')) env[name] = value;
    return { ...env, ...this.account.env, [REST_URL_ENV]: this.sim.restUrl, [WS_URL_ENV]: this.sim.wsUrl };
  }

  private snapshot(t0: number, durationMs: number): ChaosProgress {
    const { exchange } = this.sim.context;
    const all = { page: 1, limit: Number.MAX_SAFE_INTEGER };
    const runs = this.runs;
    const current = runs[runs.length - 1];
    const lastMode = this.events.filter((e) => e.type === 'trading' && e.run === current?.run).pop();
    return {
      elapsedMs: Math.min(this.o.clock.now() - t0, durationMs),
      durationMs,
      run: current?.run ?? 0,
      ordersPlaced: exchange.history.orders(this.account.account, {}, all).items.length,
      fills: exchange.history.fills(this.account.account, all).items.length,
      reconnects: reconnectsOf(this.events, runs).length,
      degradedPeriods: degradedPeriodsOf(this.events, runs, this.o.clock.now()).length,
      degradedNow: lastMode?.type === 'trading' && lastMode.mode === 'degraded',
    };
  }
}

/** Long enough for the bot's own shutdown (drain, then cancel-all, each bounded by shutdown.timeout_ms) and a start-up wait for in-flight permits. */
function stopTimeoutMs(config: Config): number {
  return 2 * config.shutdown.timeout_ms + (config.auth.permit_deadline_seconds + 5) * 1000 + 15_000;
}

function abortOf(signal: AbortSignal): Promise<false> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(false);
    else signal.addEventListener('abort', () => resolve(false), { once: true });
  });
}
