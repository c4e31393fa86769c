import { Writable } from 'node:stream';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { REDACTED, redactText, redactValue } from '../../../core/redactor.js';
import { terminalStream } from '../terminal/terminalLines.js';
import { secretRedactionPaths } from './redactionPaths.js';

export type { Logger };

export interface LoggerOptions {
  readonly level: Level | 'silent';
  /** 'auto': one readable line per event on a TTY, JSON lines otherwise (what log collectors want). */
  readonly pretty: 'auto' | boolean;
  /** Where lines go; stdout when absent. 'auto' looks at this stream's `isTTY`. */
  readonly destination?: DestinationStream | NodeJS.WritableStream;
}

/**
 * The project's logger. Three layers of the one redactor (core/redactor.ts) keep secrets out:
 * pino redaction paths for the secret field names at the depths we log, a formatter that copies
 * every logged object and error with secret-named fields and held secret values redacted, and a
 * final pass over each serialised line that catches what reached the message text. Identifiers
 * (order ids, tx hashes, addresses) stay readable. Pass it in; never import a global one.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const usePretty = options.pretty === 'auto' ? isTty(destination) : options.pretty;
  const stream: DestinationStream = usePretty
    ? terminalStream(asWritable(destination), { colorize: isTty(destination) })
    : destination;
  return pino(
    {
      level: options.level,
      redact: { paths: secretRedactionPaths(), censor: REDACTED },
      formatters: { log: (object) => asRecord(redactValue(object)) },
      // The formatter already made errors plain objects; pino's own serializer would rename their type.
      serializers: { err: redactValue },
      hooks: { streamWrite: redactText },
    },
    stream,
  );
}

/** A logger that writes nothing, for tests and library defaults. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}

function isTty(stream: DestinationStream | NodeJS.WritableStream): boolean {
  return 'isTTY' in stream && stream.isTTY === true;
}

function asWritable(stream: DestinationStream | NodeJS.WritableStream): NodeJS.WritableStream {
  if (stream instanceof Writable || 'end' in stream) return stream;
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      stream.write(chunk.toString());
      callback();
    },
  });
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : { value };
}
