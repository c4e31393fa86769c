import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../core/clock.js';
import { answerParseFailure } from './rest/parseFailureAnswer.js';
import { createSimRequestListener } from './rest/simRestServer.js';
import type { SimContext, SimControls } from './simContext.js';
import { createSimControls } from './simControls.js';
import { resolveSimOptions, type StartSimOptions } from './simOptions.js';
import { SimRuntime, type ExchangeTuning } from './simRuntime.js';
import { attachSimWebSocket, type SimWebSocket } from './ws/attachSimWebSocket.js';
import { WsFaultSchedule } from './ws/wsFaultSchedule.js';
import { detach } from '../core/detach.js';

export interface StartSimConfig extends StartSimOptions {
  /** Where unexpected internal failures go (the REST answer is a plain 500 either way). */
  readonly onError?: (error: unknown) => void;
  /** Defaults to the system clock; blocks, deadlines and lags all read it. */
  readonly clock?: Clock;
  /** The exchange core beyond the options: paper trading turns the synthetic makers and the oracle walk off. */
  readonly exchange?: ExchangeTuning;
  /**
   * The WebSocket's own timers: pings, stalls and the automatic drops and stalls. Defaults to the
   * system clock (real time, apart from the simulated `clock`); a test passes a manual clock to
   * drive the fault schedule in virtual time.
   */
  readonly wsTimers?: Clock;
}

export interface RunningSim {
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly controls: SimControls;
  /** The whole simulator context (for the WebSocket part and for assertions). */
  readonly context: SimContext;
  /** The same object as `context`, with what drives the market from outside (`DrivenMarket`). */
  readonly runtime: SimRuntime;
  /** Stops blocks, closes every WebSocket and the HTTP server. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the local venue: REST at `http://host:port`, WebSocket at `ws://host:port/ws`, one
 * block every `blockMs`. Port 0 picks a free port; the URLs carry the real one.
 */
export async function startSim(config: StartSimConfig = {}): Promise<RunningSim> {
  const options = resolveSimOptions(config);
  const clock = config.clock ?? systemClock;
  const onError = config.onError ?? (() => {});
  const runtime = new SimRuntime(options, clock, config.exchange);
  const server: Server = createServer(createSimRequestListener(runtime, onError));
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerParseFailure);
  // Nothing reads the controls before the server listens, so they may be attached after this.
  const wsTimers = config.wsTimers ?? systemClock;
  const webSocket: SimWebSocket = attachSimWebSocket(server, runtime, {
    path: '/ws',
    timers: wsTimers,
    wireDepartures: options.wireDepartures,
  });
  // Automatic drops and stalls (faults wsDropEveryMs, wsStallEveryMs): on the timers of the server's own stalls.
  const wsFaults = new WsFaultSchedule({
    timers: wsTimers,
    seed: options.seed,
    targets: { dropAll: () => webSocket.dropAll(), stall: (ms) => webSocket.stall(ms) },
    onError,
  });
  runtime.attachControls(
    createSimControls(runtime, () => webSocket, { faultsChanged: (faults) => wsFaults.apply(faults) }),
  );
  try {
    await listen(server, options.host, options.port);
  } catch (error) {
    await webSocket.close();
    runtime.complete();
    throw error;
  }
  wsFaults.apply(options.faults);
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;

  const blocks = new AbortController();
  if (options.blockMs > 0) detach(produceBlocks(runtime, options.blockMs, blocks.signal, onError), onError);

  let closing: Promise<void> | undefined;
  return {
    restUrl: `http://${hostInUrl}:${port}`,
    wsUrl: `ws://${hostInUrl}:${port}/ws`,
    port,
    controls: runtime.controls,
    context: runtime,
    runtime,
    close: () => {
      closing ??= (async () => {
        blocks.abort();
        wsFaults.close();
        await webSocket.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        runtime.complete();
      })();
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** One block per interval until aborted; a failing block is reported and the chain goes on. */
async function produceBlocks(
  runtime: SimRuntime,
  blockMs: number,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): Promise<void> {
  for (;;) {
    try {
      await runtime.clock.sleep(blockMs, signal);
    } catch {
      return;
    }
    try {
      runtime.mineBlock();
    } catch (error) {
      onError(error);
    }
  }
}
