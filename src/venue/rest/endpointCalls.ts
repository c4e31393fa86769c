import type { z } from 'zod';
import { checkedQuery } from './checkedQuery.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { checkTradingAuth } from './tradingAuth.js';

/**
 * The three shapes every endpoint of the spec takes, so that each endpoint function names only
 * its path and schemas. The label in errors and logs is the method and the path.
 */

/** A response schema whose payload sits under `data` (spec "Resources and their fields"). */
type DataResponse = z.ZodType<{ readonly data: unknown }>;
type Query = Readonly<Record<string, string | number | readonly string[] | undefined>>;

export async function getData<S extends DataResponse>(
  transport: RestTransport,
  path: string,
  responseSchema: S,
  options: RestCallOptions | undefined,
  query?: { readonly schema: z.ZodType; readonly values: Query },
): Promise<z.output<S>['data']> {
  const endpoint = `GET ${path}`;
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path,
    ...(query === undefined ? {} : { query: checkedQuery(endpoint, query.schema, query.values) }),
    responseSchema,
    options,
  });
  return answer.data;
}

export async function postData<S extends DataResponse>(
  transport: RestTransport,
  path: string,
  requestSchema: z.ZodType,
  responseSchema: S,
  body: unknown,
  options: RestCallOptions | undefined,
): Promise<z.output<S>['data']> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: `POST ${path}`,
    path,
    body,
    requestSchema,
    responseSchema,
    options,
  });
  return answer.data;
}

/**
 * A trading action: authorised by exactly one of its permit or a JWT bearer, checked before sending
 * (a refusal rejects). Not an async function: that would wrap `postData`'s promise in one more, on
 * every order's way to the socket.
 */
export function postTradingAction<S extends DataResponse>(
  transport: RestTransport,
  path: string,
  requestSchema: z.ZodType,
  responseSchema: S,
  body: unknown,
  permit: unknown,
  options: RestCallOptions | undefined,
): Promise<z.output<S>['data']> {
  try {
    checkTradingAuth(`POST ${path}`, permit, options);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return postData(transport, path, requestSchema, responseSchema, body, options);
}
