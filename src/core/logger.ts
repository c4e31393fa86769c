/**
 * What the project's code needs from a logger: pino's calling convention, an object of fields
 * then a short message. A pino logger or child satisfies it (the runtime passes one in; nothing
 * imports a global logger), and tests pass a silent one.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops everything: the default of library code that was given none. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
