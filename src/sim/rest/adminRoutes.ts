import { z } from 'zod';
import { decimalStringSchema, marketIdLooseNumberSchema } from '../../venue/schemas/restPrimitives.js';
import { SimRefusal } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { parseInput } from './parseInput.js';
import type { BodyResult } from './readJsonBody.js';
import { ok, type SimResponse } from './simRoute.js';

/**
 * The simulator's test controls over HTTP, under `/_sim/`: what a test drives while the bot under
 * test is stopped (a position carried through its stop, with no bot alive to act). Not the venue's:
 * refused unless the simulator was started with `--admin` (`admin: true`), and then answered to
 * loopback clients only, so a simulator listening on another interface never lets the network move
 * its prices.
 */
export const ADMIN_PREFIX = '/_sim/';

/** A decimal string, as everywhere; a plain JSON number is taken too (a test control, typed by hand). */
const markBodySchema = z.object({
  market_id: marketIdLooseNumberSchema,
  price: z.union([decimalStringSchema, z.number().transform(String).pipe(decimalStringSchema)]),
});

export interface AdminRequest {
  readonly method: string;
  readonly path: string;
  readonly ip: string;
  readBody(limit: number): Promise<BodyResult>;
  discardBody(): Promise<void>;
}

export async function answerAdmin(runtime: SimRuntime, request: AdminRequest): Promise<SimResponse> {
  const refusal = adminRefusal(runtime, request);
  if (refusal !== undefined) {
    await request.discardBody();
    throw refusal;
  }
  const body = await request.readBody(runtime.options.bodyLimitBytes);
  if (!body.ok) throw body.error;
  const mark = parseInput(markBodySchema, body.value, 'body');
  // Mark and index jump now; the oracle channel carries them with the next block (and TP/SL
  // orders watching the mark are judged then).
  runtime.controls.setMark(mark.market_id, mark.price);
  return ok({ market_id: mark.market_id, mark_price: mark.price });
}

function adminRefusal(runtime: SimRuntime, request: AdminRequest): SimRefusal | undefined {
  if (!runtime.options.admin) {
    return new SimRefusal(
      403,
      'PermissionDenied',
      `the simulator's test controls are off: start it with --admin (perpbot sim --admin) to serve ${request.path}`,
    );
  }
  if (!isLoopback(request.ip))
    return new SimRefusal(403, 'PermissionDenied', `test controls answer loopback clients only, not ${request.ip}`);
  if (request.path !== `${ADMIN_PREFIX}mark`)
    return new SimRefusal(
      404,
      'NotFound',
      `no test control at ${request.path}; the one served is POST ${ADMIN_PREFIX}mark`,
    );
  if (request.method !== 'POST')
    return new SimRefusal(405, 'Unimplemented', `method ${request.method} not allowed on ${request.path}`);
  return undefined;
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}
