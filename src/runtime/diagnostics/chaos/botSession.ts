import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import { PerpbotError } from '../../../core/perpbotError.js';
import { NO_FAULTS } from '../../../sim/simContext.js';
import type { RunningSim } from '../../../sim/startSim.js';
import type { TextSink } from '../../../core/textSink.js';
import type { Config } from '../../config/configSchema.js';
import { REST_URL_ENV, WS_URL_ENV } from '../../config/loadConfig.js';
import { reconnectsOf } from './audit/reconnectTime.js';
import { degradedPeriodsOf } from './audit/tradingPeriods.js';
import { BotProcess, type BotExitStatus } from './botProcess.js';
import type { BotEvent, BotExit, BotRun } from './botTimeline.js';
import type { ChaosAccount } from './chaosAccount.js';
import type { ChaosOptions } from './chaosOptions.js';
import { ProgressDisplay, type ChaosProgress } from './chaosProgress.js';
import { detach } from '../../../core/detach.js';

/** What the session reads of the chaos run's options. */
export interface BotSessionOptions {
  readonly config: Config;
  readonly chaos: ChaosOptions;
  /** The bot runs here (strategy modules are resolved from it). */
  readonly cwd: string;
  /** The environment the bot inherits (without any PERPBOT_ variable, which the run sets itself). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: TextSink;
  readonly tty: boolean;
  readonly clock: Clock;
  /** Aborting it ends the run early: the bot is stopped. */
  readonly signal: AbortSignal;
}

/** A bot process that ends by itself this many times in a row is not restarted again. */
const MAX_UNEXPECTED_RESTARTS = 5;
const TICK_MS = 250;
/** Longest wait at the end, faults off, for the bot to trade again before it is stopped. */
const SETTLE_MAX_MS = 60_000;

/** A chaos run that could not go on (a bot that would not start, a simulator that died). */
class ChaosError extends PerpbotError {}

interface MutableRun {
  run: number;
  startedAtMs: number;
  endedAtMs?: number;
  exit?: BotExit;
  /** Set before the chaos run signals the process, so its exit is judged against the plan. */
  planned?: 'crash' | 'stop';
  forced?: boolean;
}

/** Where the schedule is: when it started, when the crash and the end are due, the unexpected exits in a row. */
interface Schedule {
  readonly t0: number;
  readonly crashAt: number;
  readonly endAt: number;
  crashed: boolean;
  unexpectedInARow: number;
}

/** The bot's runs under chaos: the first start, the crash and restart, restarts after exits, the stop. */
export class BotSession {
  readonly events: BotEvent[] = [];
  private readonly mutableRuns: MutableRun[] = [];
  private current: { readonly bot: BotProcess; readonly record: MutableRun } | undefined;
  private readonly progress: ProgressDisplay;
  /** How long the settle phase took (faults off until trading again, or SETTLE_MAX_MS). */
  settledWithinMs = 0;

  constructor(
    private readonly o: BotSessionOptions,
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
    if (!(await this.startFirst())) {
      await this.stop(stopTimeoutMs(config));
      return 0;
    }
    const t0 = clock.now();
    await this.runSchedule(t0);
    const ranMs = clock.now() - t0;
    this.progress.tick(Number.MAX_SAFE_INTEGER, () => this.snapshot(t0, chaos.durationMs));
    if (!signal.aborted) await this.settle();
    this.progress.note(signal.aborted ? 'interrupted: stopping the bot' : 'stopping the bot (SIGINT)');
    await this.stop(stopTimeoutMs(config));
    return ranMs;
  }

  /** Starts run 1 and waits until it trades: false when the chaos run was aborted first, throws when it exited. */
  private async startFirst(): Promise<boolean> {
    const { signal } = this.o;
    const first = this.start();
    const ready = await Promise.race([first.ready, abortOf(signal)]);
    if (ready === true) return true;
    if (signal.aborted) return false;
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

  /** Until the duration is over (or the run aborted): the crash half-way, restarts after exits, progress. */
  private async runSchedule(t0: number): Promise<void> {
    const { chaos, clock, signal } = this.o;
    const schedule: Schedule = {
      t0,
      crashAt: t0 + Math.floor(chaos.durationMs / 2),
      endAt: t0 + chaos.durationMs,
      crashed: !chaos.crash,
      unexpectedInARow: 0,
    };
    this.progress.note(
      `bot running (run 1); ${chaos.crash ? 'crash with SIGKILL half-way, ' : ''}stop in ${Math.round(chaos.durationMs / 1000)} s`,
    );
    while (!signal.aborted && clock.now() < schedule.endAt) {
      if (!(await this.step(schedule))) break;
      this.progress.tick(clock.now(), () => this.snapshot(t0, chaos.durationMs));
      await clock.sleep(TICK_MS, signal).catch(() => undefined);
    }
  }

  /** One tick: the crash when it is due, or a restart after the bot exited by itself. False: stop restarting. */
  private async step(schedule: Schedule): Promise<boolean> {
    const bot = this.current?.bot;
    if (!schedule.crashed && this.o.clock.now() >= schedule.crashAt) {
      await this.crash(schedule);
    } else if (bot !== undefined && !bot.running) {
      return this.restartAfterExit(schedule, bot);
    } else if (bot !== undefined && schedule.unexpectedInARow > 0 && bot.isReady) {
      schedule.unexpectedInARow = 0;
    }
    return true;
  }

  /** SIGKILL (planned, so the audit expects it), then run the bot again. */
  private async crash(schedule: Schedule): Promise<void> {
    schedule.crashed = true;
    const current = this.current;
    if (current !== undefined && current.bot.running) {
      current.record.planned = 'crash';
      current.bot.signal('SIGKILL');
      await current.bot.exited;
    }
    const atSeconds = Math.round((this.o.clock.now() - schedule.t0) / 1000);
    this.progress.note(`crash: bot killed with SIGKILL at ${atSeconds} s; restarting`);
    this.start();
    schedule.unexpectedInARow = 0;
  }

  private async restartAfterExit(schedule: Schedule, bot: BotProcess): Promise<boolean> {
    const { clock, signal } = this.o;
    await bot.exited;
    schedule.unexpectedInARow += 1;
    if (schedule.unexpectedInARow > MAX_UNEXPECTED_RESTARTS) {
      this.progress.note(`the bot exited by itself ${schedule.unexpectedInARow} times in a row: not restarting it`);
      return false;
    }
    this.progress.note(`the bot exited by itself (run ${bot.run}); restarting`);
    await clock.sleep(1_000, signal).catch(() => undefined);
    if (!signal.aborted) this.start();
    return true;
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
    // `ended` only records; a throw there is a bug in the chaos run, which must not pass unseen.
    detach(
      bot.exited.then((status) => this.ended(record, status)),
      (error) => this.o.out.write(`chaos: recording bot ${record.run}'s exit failed: ${String(error)}\n`),
    );
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

/**
 * Long enough for the bot's own shutdown (drain, then cancel-all, each bounded by shutdown.timeout_ms)
 * and a start-up wait for in-flight permits.
 */
function stopTimeoutMs(config: Config): number {
  return 2 * config.shutdown.timeout_ms + (config.auth.permit_deadline_seconds + 5) * 1000 + 15_000;
}

function abortOf(signal: AbortSignal): Promise<false> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(false);
    else signal.addEventListener('abort', () => resolve(false), { once: true });
  });
}
