import { parseArgs } from 'node:util';
import { InvalidValueError } from '../core/invalidValueError.js';
import { SELECTOR_PROFILES, type SelectorProfile } from '../protocol/selectors.js';
import type { SimFaults } from './simContext.js';
import { DEFAULT_SIM_OPTIONS, type StartSimOptions } from './simOptions.js';
import { checkWireDepartures, WIRE_DEPARTURES } from './ws/wireDepartures.js';

export const SIM_CLI_HELP = `Usage: npm run sim -- [options]

Runs the local venue simulator: REST and WebSocket on one port. The first line printed holds
both URLs. Stops cleanly on SIGINT or SIGTERM.

Options:
  --host <addr>                 listen address (default ${DEFAULT_SIM_OPTIONS.host})
  --port <n>                    port, 0 for a free one (default ${DEFAULT_SIM_OPTIONS.port})
  --seed <n>                    seed of addresses, hashes, oracle and makers (default ${DEFAULT_SIM_OPTIONS.seed})
  --deterministic-ids           number orders, fills and trades from 1 every run (default: from random
                                bases, unique across runs like the venue's ids)
  --block-ms <n>                block interval in ms, 0 for no automatic blocks (default ${DEFAULT_SIM_OPTIONS.blockMs})
  --registration-lag-ms <n>     deposit-to-registered lag in ms (default ${DEFAULT_SIM_OPTIONS.registrationLagMs})
  --chain-id <n>                EIP-712 chain id (default ${DEFAULT_SIM_OPTIONS.chainId})
  --selectors <spec|rise>       action selector strings (default spec)
  --latency-ms <n>              added latency per REST request (default 0)
  --jitter-ms <n>               extra random latency 0..n per request (default 0)
  --error-rate <0..1>           share of REST requests answered with a 5xx (default 0)
  --error-after-share <0..1>    share of those 5xx given after the action ran (default 0.5)
  --ws-drop-every-ms <n>        drop every WebSocket connection about every n ms, seeded (default 0: never)
  --ws-stall-every-ms <n>       stall every WebSocket stream about every n ms, seeded (default 0: never)
  --ws-stall-for-ms <n>         how long each stall lasts (default 1000)
  --rest-requests-per-10s <n>   per-IP REST limit, 0 for none (default ${DEFAULT_SIM_OPTIONS.restRequestsPer10s})
  --wire-departure <name>       send one part of the wire in a departed shape, to test drift detection;
                                repeatable; ${WIRE_DEPARTURES.join(', ')} (default none)
  --tpsl-lag-ms <n>             time from a TP/SL's trigger to its execution (default ${DEFAULT_SIM_OPTIONS.tpslLagMs})
  --admin                       serve the test controls to loopback clients: POST /_sim/mark
                                {"market_id":1,"price":"64000"} sets a market's mark (default off)
  --refuse-tpsl                 refuse every TP/SL placement, as the venue's page says it may
                                ("blocked pending signature verification") (default off)
  -h, --help                    this text
`;

export type SimCliCommand = { readonly help: true } | { readonly help: false; readonly options: StartSimOptions };

/** Parses the CLI flags into startSim options; unknown flags and bad numbers throw. */
export function parseSimCliArgs(argv: readonly string[]): SimCliCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'deterministic-ids': { type: 'boolean' },
      'block-ms': { type: 'string' },
      'registration-lag-ms': { type: 'string' },
      'chain-id': { type: 'string' },
      selectors: { type: 'string' },
      'latency-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      'error-rate': { type: 'string' },
      'error-after-share': { type: 'string' },
      'ws-drop-every-ms': { type: 'string' },
      'ws-stall-every-ms': { type: 'string' },
      'ws-stall-for-ms': { type: 'string' },
      'rest-requests-per-10s': { type: 'string' },
      'wire-departure': { type: 'string', multiple: true },
      'tpsl-lag-ms': { type: 'string' },
      admin: { type: 'boolean' },
      'refuse-tpsl': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return { help: true };
  return { help: false, options: { ...simOptionsOf(values), faults: faultsOf(values) } };
}

type CliValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

function text(values: CliValues, flag: string): string | undefined {
  const value = values[flag];
  return typeof value === 'string' ? value : undefined;
}

/** The fault flags; unset ones keep the simulator's defaults. */
function faultsOf(values: CliValues): Partial<SimFaults> {
  const faults: { -readonly [K in keyof SimFaults]?: SimFaults[K] } = {};
  const wholes: readonly [keyof SimFaults, string][] = [
    ['latencyMs', 'latency-ms'],
    ['jitterMs', 'jitter-ms'],
    ['wsDropEveryMs', 'ws-drop-every-ms'],
    ['wsStallEveryMs', 'ws-stall-every-ms'],
    ['wsStallForMs', 'ws-stall-for-ms'],
  ];
  for (const [key, flag] of wholes) {
    const value = text(values, flag);
    if (value !== undefined) faults[key] = integer(value, `--${flag}`);
  }
  const errorRate = text(values, 'error-rate');
  if (errorRate !== undefined) faults.errorRate = share(errorRate, '--error-rate');
  const afterShare = text(values, 'error-after-share');
  if (afterShare !== undefined) faults.errorAfterActionShare = share(afterShare, '--error-after-share');
  return faults;
}

/** Every other flag. */
function simOptionsOf(values: CliValues): StartSimOptions {
  const options: { -readonly [K in keyof StartSimOptions]: StartSimOptions[K] } = {};
  const wholes: readonly [
    'port' | 'seed' | 'blockMs' | 'registrationLagMs' | 'restRequestsPer10s' | 'chainId' | 'tpslLagMs',
    string,
  ][] = [
    ['port', 'port'],
    ['seed', 'seed'],
    ['blockMs', 'block-ms'],
    ['registrationLagMs', 'registration-lag-ms'],
    ['restRequestsPer10s', 'rest-requests-per-10s'],
    ['chainId', 'chain-id'],
    ['tpslLagMs', 'tpsl-lag-ms'],
  ];
  for (const [key, flag] of wholes) {
    const value = text(values, flag);
    if (value !== undefined) options[key] = integer(value, `--${flag}`);
  }
  const host = text(values, 'host');
  if (host !== undefined) options.host = host;
  if (values['deterministic-ids'] === true) options.deterministicIds = true;
  if (values['admin'] === true) options.admin = true;
  if (values['refuse-tpsl'] === true) options.refuseTpsl = true;
  const departures = values['wire-departure'];
  if (Array.isArray(departures)) options.wireDepartures = checkWireDepartures(departures, '--wire-departure');
  const selectors = text(values, 'selectors');
  if (selectors !== undefined) {
    if (!(selectors in SELECTOR_PROFILES)) throw new InvalidValueError('--selectors', selectors, 'spec or rise');
    options.selectors = SELECTOR_PROFILES[selectors as SelectorProfile];
  }
  return options;
}

function integer(text: string, flag: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new InvalidValueError(flag, text, 'a non-negative integer');
  return Number(text);
}

function share(text: string, flag: string): number {
  const value = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || value > 1) throw new InvalidValueError(flag, text, 'a number from 0 to 1');
  return value;
}
