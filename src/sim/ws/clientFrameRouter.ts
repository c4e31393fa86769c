import type { RawData } from 'ws';
import { statusErrorFrame } from './controlFrames.js';
import { handleClientFrame } from './handleClientFrame.js';
import type { SimWsConnection } from './simWsConnection.js';
import type { SimWsContext } from './simWsContext.js';
import type { SimWsHub } from './simWsHub.js';
import { applySubscribeFault, type SubscribeFault } from './subscribeFault.js';

/**
 * Takes every client frame of every connection to the frame handler: binary frames are refused,
 * the subscribe-filter fault (when set) is applied on the way, and a bug in a handler costs that
 * frame only, never the server.
 */
export class ClientFrameRouter {
  /** The test fault applied to filtered subscribes; undefined = off. */
  subscribeFault: SubscribeFault | undefined;

  constructor(
    private readonly ctx: SimWsContext,
    private readonly hub: SimWsHub,
    private readonly onError: (error: unknown) => void,
  ) {}

  route(connection: SimWsConnection, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      connection.send(statusErrorFrame('InvalidArgument', 'malformed frame: binary frames are not accepted'));
      return;
    }
    try {
      handleClientFrame(this.ctx, this.hub, connection, applySubscribeFault(rawText(data), this.subscribeFault));
    } catch (error) {
      this.onError(error);
      connection.send(statusErrorFrame('Internal', 'internal error handling frame'));
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
