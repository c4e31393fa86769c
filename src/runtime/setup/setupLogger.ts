/** What setup needs from a logger: a pino logger fits; tests pass a silent one. */
export interface SetupLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}
