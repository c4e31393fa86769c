import type { BodyResult } from './readJsonBody.js';

/** One HTTP request as the simulator takes it, whatever carried it (node:http, or a caller in the same process). */
export interface SimHttpRequest {
  readonly method: string;
  /** The request target: path and query. */
  readonly url: string;
  /** The client's IP, for the per-IP rate limit. */
  readonly ip: string;
  readonly authorization: string | undefined;
  /** Reads the body, refusing one over `limit` bytes (called for a POST only). */
  readBody(limit: number): Promise<BodyResult>;
  /** Discards a body that will not be read. */
  discardBody(): Promise<void>;
}
