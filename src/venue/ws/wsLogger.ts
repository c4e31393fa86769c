/** The slice of a pino logger the WS client uses; a pino instance or child satisfies it. */
export interface WsLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const silentWsLogger: WsLogger = {
  debug: () => undefined,
  warn: () => undefined,
};
