// SEJONG_VALIDATE_RESPONSES: every JSON 2xx answer is checked against the zod schema its route declares (the same
// schema /openapi.json is generated from), so the document cannot drift from what the handlers send.
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import type { RouteDef } from './types.js';

const isJsonType = (ct: string) => /^application\/(?:[\w.+-]+\+)?json\b/.test(ct);

/**
 * Throws INTERNAL_ERROR (and logs the zod issues) when a JSON 2xx body does not match the route's declared schema,
 * or when the route declares no JSON schema for that status. Non-JSON and non-2xx answers pass.
 */
export function checkResponse(route: RouteDef, status: number, contentType: string, body: Buffer | string, log: Logger): void {
  if (status < 200 || status > 299 || !isJsonType(contentType)) return;
  if (body.length === 0) return; // no content (202, 204)
  const declared = route.responses?.[status];
  const where = `${route.method} ${route.path} ${status}`;
  if (!declared?.schema) {
    log.error({ msg: 'undeclared response', route: where });
    throw new ApiError('INTERNAL_ERROR', `The answer of ${where} has no declared response schema`);
  }
  let value: unknown;
  try {
    // the bytes that go on the wire (undefined members dropped, dates as strings)
    value = JSON.parse(body.toString());
  } catch {
    throw new ApiError('INTERNAL_ERROR', `The answer of ${where} is not JSON`);
  }
  const r = declared.schema.safeParse(value);
  if (r.success) return;
  const issues = r.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), code: i.code, message: i.message }));
  log.error({ msg: 'response does not match its schema', route: where, issues });
  const first = issues[0]!;
  throw new ApiError('INTERNAL_ERROR', `The answer of ${where} does not match its declared schema at ${first.path || '(root)'}: ${first.message}`);
}
