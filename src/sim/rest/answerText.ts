import type { SimResponse } from './simRoute.js';

/** The content type of every answer the server writes. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer's body as the server writes it: the envelope with its `request_id` last, the text
 * `JSON.stringify({ ...response.body, request_id })` gives. Written without that spread copy,
 * which every answer paid for: the body is serialised as it is and the id spliced in before its
 * closing brace. A body that names `request_id` itself, or serialises through a `toJSON` of its
 * own, takes the spread as before (a property test holds the two equal).
 */
export function answerText(response: SimResponse, requestId: string): string {
  const body = response.body;
  if (Object.hasOwn(body, 'request_id') || typeof body['toJSON'] === 'function')
    return JSON.stringify({ ...body, request_id: requestId });
  const text = JSON.stringify(body);
  const id = JSON.stringify(requestId);
  // `{}` takes no comma; any other object's text ends in its closing brace.
  return text.length === 2 ? `{"request_id":${id}}` : `${text.slice(0, -1)},"request_id":${id}}`;
}
