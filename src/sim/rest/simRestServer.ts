import type { IncomingMessage, ServerResponse } from 'node:http';
import { detach } from '../../core/detach.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { isExchangeRefusal } from '../exchange/exchangeRefusal.js';
import { ADMIN_PREFIX, answerAdmin } from './adminRoutes.js';
import { isSimRefusal, SimRefusal } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { planFault, seededUniform, type FaultOutcome } from './faultPlan.js';
import { answerText, JSON_TYPE } from './answerText.js';
import { NodeSimHttpRequest } from './nodeSimHttpRequest.js';
import type { SimHttpRequest } from './simHttpRequest.js';
import { requestTarget } from './requestTarget.js';
import { noteRefusedAction } from './refusedActions.js';
import { findRoute } from './routeTable.js';
import type { SimRequest, SimResponse, SimRoute } from './simRoute.js';

function refusalBody(refusal: SimRefusal): SimResponse {
  return { status: refusal.httpStatus, body: { error: { code: refusal.status, message: refusal.text } } };
}

/** Any thrown value becomes the venue's envelope; unknown failures never leak a stack trace. */
export function errorResponse(error: unknown): SimResponse {
  if (isSimRefusal(error)) return refusalBody(error);
  if (isExchangeRefusal(error)) {
    return {
      status: error.status === 'Internal' ? 500 : 400,
      body: { error: { code: error.status, message: error.text } },
    };
  }
  if (error instanceof InvalidValueError) return refusalBody(new SimRefusal(400, 'InvalidArgument', error.message));
  return refusalBody(new SimRefusal(500, 'Internal', 'internal error'));
}

export interface SimAnswer {
  readonly response: SimResponse;
  /** The `request_id` the answer carries. */
  readonly requestId: string;
}

/** Answers requests against the runtime as the REST server does: one handler per server, shared by its requests. */
export type SimRequestAnswerer = (request: SimHttpRequest) => Promise<SimAnswer>;

/**
 * The simulator's REST side without the socket: routing, body limits, JSON parsing, rate limits,
 * injected faults and the venue's envelopes. The test kit calls it in-process; the node:http
 * listener below wraps it.
 */
export function createSimAnswerer(
  runtime: SimRuntime,
  onInternalError: (error: unknown) => void = () => {},
): SimRequestAnswerer {
  const handler = new SimRequestHandler(runtime, onInternalError);
  return (request) => handler.answer(request);
}

/**
 * The simulator's REST side as a plain node:http request listener. Handlers are synchronous
 * against the runtime, so every action is applied atomically between two blocks.
 */
export function createSimRequestListener(
  runtime: SimRuntime,
  onInternalError: (error: unknown) => void = () => {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = new SimRequestHandler(runtime, onInternalError);
  // The answerer turns every failure into an answer; a promise rejection here is a bug, reported as one.
  return (req, res) => {
    detach(
      handler.answer(new NodeSimHttpRequest(req)).then((answer) => send(res, answer)),
      onInternalError,
    );
  };
}

/** What a GET carries: no body to read. */
const NO_BODY = { ok: true, value: undefined } as const;

/**
 * One request from arrival to answer, in the venue's order: route, rate limit, injected fault,
 * body, handler, then the fault that loses the reply. A class so the per-server state (request
 * ids, the fault generator) is plain fields and each step a named method, not a closure.
 */
class SimRequestHandler {
  private requestCounter = 0;
  private readonly random: () => number;

  constructor(
    private readonly runtime: SimRuntime,
    private readonly onInternalError: (error: unknown) => void,
  ) {
    this.random = seededUniform(runtime.options.seed ^ 0x5eed);
  }

  async answer(req: SimHttpRequest): Promise<SimAnswer> {
    this.requestCounter += 1;
    const requestId = `sim-${this.runtime.options.seed}-${this.requestCounter}`;
    this.runtime.requestLog.note(req.method, req.url, this.runtime.clock.now());
    try {
      const response = await this.handle(req);
      noteRefusedAction(this.runtime, req.method, req.url, response);
      return { response, requestId };
    } catch (error) {
      this.onInternalError(error);
      return { response: errorResponse(error), requestId };
    }
  }

  private async handle(req: SimHttpRequest): Promise<SimResponse> {
    const { method } = req;
    const url = requestTarget(req.url);
    if (url.pathname.startsWith(ADMIN_PREFIX)) return this.admin(req, url.pathname);
    const matched = findRoute(method, url.pathname);
    if (matched === undefined || matched === 'wrong-method') {
      await req.discardBody();
      return unrouted(matched, method, url.pathname);
    }
    if (!this.admits(req)) {
      await req.discardBody();
      return this.rateLimited(req);
    }
    const plan = planFault(this.runtime.options.faults, this.random);
    const bodyResult = method === 'POST' ? await req.readBody(this.runtime.options.bodyLimitBytes) : NO_BODY;
    if (plan.delayMs > 0) await this.runtime.clock.sleep(plan.delayMs);
    if (plan.outcome === 'fail-before') {
      return refusalBody(new SimRefusal(503, 'Unavailable', 'simulated outage: the request was not processed'));
    }
    if (!bodyResult.ok) return refusalBody(bodyResult.error);
    const request: SimRequest = {
      method,
      path: url.pathname,
      params: matched.params,
      query: url.query,
      target: req.url,
      body: bodyResult.value,
      bearer: bearerToken(req.authorization),
    };
    return this.execute(matched.route, request, plan.outcome);
  }

  /** A test control (adminRoutes.ts): no rate limit, no injected fault; a refusal is an answer, not a failure. */
  private async admin(req: SimHttpRequest, path: string): Promise<SimResponse> {
    try {
      return await answerAdmin(this.runtime, {
        method: req.method,
        path,
        ip: req.ip,
        readBody: (limit) => req.readBody(limit),
        discardBody: () => req.discardBody(),
      });
    } catch (error) {
      if (!isSimRefusal(error) && !isExchangeRefusal(error) && !(error instanceof InvalidValueError)) throw error;
      return errorResponse(error);
    }
  }

  /** Counts the request against its IP's window (when the limit is on); false = over the limit. */
  private admits(req: SimHttpRequest): boolean {
    if (this.runtime.options.restRequestsPer10s <= 0) return true;
    return this.runtime.ipLimiter.take(req.ip, this.runtime.clock.now());
  }

  /** The 429, with the whole seconds until the IP's window ends (RFC 9110 Retry-After), at least 1. */
  private rateLimited(req: SimHttpRequest): SimResponse {
    const { runtime } = this;
    const refused = refusalBody(
      new SimRefusal(
        429,
        'ResourceExhausted',
        `rate limited: ${runtime.options.restRequestsPer10s} requests per 10 s per IP`,
      ),
    );
    const retryAfter = Math.max(1, Math.ceil(runtime.ipLimiter.msUntilReset(req.ip, runtime.clock.now()) / 1000));
    return { ...refused, headers: { 'retry-after': String(retryAfter) } };
  }

  /** Runs the route's handler; a planned `fail-after` then loses the reply of what was applied. */
  private execute(route: SimRoute, request: SimRequest, outcome: FaultOutcome): SimResponse {
    let response: SimResponse;
    try {
      response = route.handle(this.runtime, request);
    } catch (error) {
      if (!isSimRefusal(error) && !isExchangeRefusal(error) && !(error instanceof InvalidValueError))
        this.onInternalError(error);
      return errorResponse(error);
    }
    return outcome === 'fail-after' ? lostReply(route) : response;
  }
}

/** 405 when the path exists under another method, else 404. */
function unrouted(matched: 'wrong-method' | undefined, method: string, path: string): SimResponse {
  if (matched === 'wrong-method')
    return refusalBody(new SimRefusal(405, 'Unimplemented', `method ${method} not allowed on ${path}`));
  return refusalBody(new SimRefusal(404, 'NotFound', `no route for ${method} ${path}`));
}

/**
 * A 5xx given after the handler ran. A read has nothing to apply: its lost reply is the gateway's
 * 502, never the 500 the venue gives an account read with no on-chain state (venue-facts), which
 * a client must not retry.
 */
function lostReply(route: SimRoute): SimResponse {
  if (!route.mutates)
    return refusalBody(new SimRefusal(502, 'Unavailable', 'simulated gateway failure: the reply was lost'));
  return refusalBody(
    new SimRefusal(500, 'Internal', 'simulated failure after execution: the action was applied but the reply was lost'),
  );
}

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

function send(res: ServerResponse, answer: SimAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const { response } = answer;
  const text = answerText(response, answer.requestId);
  const length = Buffer.byteLength(text);
  res.writeHead(
    response.status,
    response.headers === undefined
      ? { 'content-type': JSON_TYPE, 'content-length': length }
      : { ...response.headers, 'content-type': JSON_TYPE, 'content-length': length },
  );
  res.end(text);
}
