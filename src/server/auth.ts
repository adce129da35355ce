// Who is calling: API key (X-API-Key or Bearer), the admin key, or a job access key; then the per-key rate limit.
import crypto from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import type { Ctx, Principal, RouteDef } from './types.js';
import type { LimitResult } from '../auth/rate-limit.js';
import type { ApiKeyRecord } from '../auth/keys.js';
import { ANONYMOUS } from './request-ctx.js';
import { decimalText } from './decimal-text.js';

function presentedKey(ctx: Ctx): { key?: string; viaBearer: boolean } {
  const x = ctx.headers['x-api-key'];
  if (x) return { key: x.trim(), viaBearer: false };
  const a = ctx.headers['authorization'];
  if (a) {
    const m = /^Bearer\s+(.+)$/i.exec(a.trim());
    if (m) return { key: m[1]!.trim(), viaBearer: true };
  }
  return { viaBearer: false };
}

/**
 * The caller's principal, after its rate limit. Synchronous with local counters (embedded mode); a promise when the
 * counters are shared (Redis): the front end then awaits it before it reads the body.
 */
export function authenticate(ctx: Ctx, route: RouteDef, outHeaders: Record<string, string>): Principal | Promise<Principal> {
  if (route.auth === 'none') return ANONYMOUS;
  const { services } = ctx;
  const { key, viaBearer } = presentedKey(ctx);
  const rec = key ? services.keys.lookup(key) : undefined;
  // shared mode: a key created on another node a moment ago may not have reached this node's copy yet
  if (key && !rec && services.keys.lookupMiss) {
    return services.keys.lookupMiss(key).then((found) => decide(ctx, route, outHeaders, key, viaBearer, found));
  }
  return decide(ctx, route, outHeaders, key, viaBearer, rec);
}

function decide(ctx: Ctx, route: RouteDef, outHeaders: Record<string, string>, key: string | undefined, viaBearer: boolean, rec: ApiKeyRecord | undefined): Principal | Promise<Principal> {
  const { services } = ctx;

  if (route.auth === 'admin') {
    if (!key) throw new ApiError('INVALID_API_KEY', 'The admin key is required (X-API-Key or Authorization: Bearer)');
    if (!rec) throw new ApiError('INVALID_API_KEY', 'The key is missing, invalid or revoked');
    if (!rec.admin) throw new ApiError('FORBIDDEN', 'This endpoint needs the admin key');
    return { kind: 'admin', keyId: rec.id, keyName: rec.name };
  }

  if (!rec) {
    if (route.auth === 'job') {
      const q = route.accessKeyQuery ? ctx.rawQuery.get(route.accessKeyQuery) ?? undefined : undefined;
      const token = (viaBearer ? key : undefined) ?? q;
      if (token) {
        const tokenHash = crypto.createHash('sha256').update(token).digest('hex');
        const principal: Principal = { kind: 'token', token, tokenHash };
        const limited = limitToken(ctx, route, tokenHash, outHeaders);
        return limited ? limited.then(() => principal) : principal;
      }
      if (key) throw new ApiError('INVALID_API_KEY', 'The key is invalid or revoked');
      throw new ApiError('INVALID_API_KEY', 'An API key (X-API-Key) or the job\'s access key (Authorization: Bearer) is required');
    }
    throw new ApiError('INVALID_API_KEY', key ? 'The API key is invalid or revoked' : 'An API key is required (X-API-Key or Authorization: Bearer)');
  }

  const principal = keyPrincipal(rec);
  if (route.noRateLimit) return principal;
  const cfg = services.config;
  const r = services.limiter.hit(rec.id, rec.rateLimitPerMinute ?? cfg.rateLimitPerMinute, rec.rateLimitPerDay ?? cfg.rateLimitPerDay, services.clock.now());
  return r instanceof Promise ? r.then((r) => applyLimit(ctx, principal, outHeaders, r)) : applyLimit(ctx, principal, outHeaders, r);
}

/**
 * The principal of a key record: one object per record (principals are only read), not a new one per request.
 * Keyed by the record itself, so a key changed or reloaded (a new record) gets a new principal.
 */
const principals = new WeakMap<ApiKeyRecord, Principal>();
function keyPrincipal(rec: ApiKeyRecord): Principal {
  let p = principals.get(rec);
  if (p === undefined) principals.set(rec, (p = Object.freeze({ kind: rec.admin ? 'admin' : 'key', keyId: rec.id, keyName: rec.name } as const)));
  return p;
}

/** The RateLimit header's value (its numbers through decimalText: a new `remaining` per request, see there). */
function rateLimitHeader(r: LimitResult): string {
  return `"${r.window}";r=${decimalText(r.remaining)};t=${decimalText(r.resetSeconds)}`;
}

/** The key's rate-limit headers on the answer; over the limit, 429 (logged against the key). */
function applyLimit(ctx: Ctx, principal: Principal, outHeaders: Record<string, string>, r: LimitResult): Principal {
  outHeaders['ratelimit-policy'] = r.policy;
  outHeaders['ratelimit'] = rateLimitHeader(r);
  if (!r.allowed) {
    ctx.principal = principal; // so the rejection is logged against the key
    throw new ApiError('RATE_LIMITED', `Rate limit of ${r.limit} requests per ${r.window} exceeded; retry in ${r.retryAfter} s`, {
      headers: { 'retry-after': String(r.retryAfter) },
    });
  }
  return principal;
}

/**
 * Job access keys (principal 'token') are rate limited per token (its hash) and per client address, so that
 * polling and token guessing are bounded: SEJONG_TOKEN_RATE_PER_MINUTE per token, ten times that per address.
 */
function limitToken(ctx: Ctx, route: RouteDef, tokenHash: string, outHeaders: Record<string, string>): Promise<void> | undefined {
  if (route.noRateLimit) return undefined;
  const { services } = ctx;
  const perToken = services.config.tokenRatePerMinute;
  const now = services.clock.now();
  const hash = tokenHash.slice(0, 32);
  const apply = (r: LimitResult): void => {
    if (!r.allowed) {
      throw new ApiError('RATE_LIMITED', `Rate limit of ${r.limit} requests per ${r.window} for job access keys exceeded; retry in ${r.retryAfter} s`, {
        headers: { 'retry-after': String(r.retryAfter) },
      });
    }
    outHeaders['ratelimit-policy'] = r.policy;
    outHeaders['ratelimit'] = rateLimitHeader(r);
  };
  // the token first; the address is counted only when the token had room (a refused poll costs the address nothing)
  const byToken = services.limiter.hit(`tok.${hash}`, perToken, perToken * 1440, now);
  const byAddress = () => services.limiter.hit(`ip.${ctx.ip}`, perToken * 10, perToken * 10 * 1440, now);
  if (!(byToken instanceof Promise)) {
    apply(byToken);
    const r = byAddress();
    if (!(r instanceof Promise)) return void apply(r);
    return r.then(apply);
  }
  return byToken.then(async (r) => {
    apply(r);
    apply(await byAddress());
  });
}
