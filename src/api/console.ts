// The web test console (spec: Cookie test_auth=<PASSWORD>, "test page only"): /console/login and /console.
import crypto from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { defineRoute, reply, type Ctx, type RouteDef } from '../server/types.js';
import { consolePage, loginPage } from '../console/pages.js';
import { CONSOLE_JS } from '../console/client.js';

const HTML = 'text/html; charset=utf-8';
const SECURITY = { 'content-security-policy': "default-src 'self'; img-src 'self' data: blob:; style-src 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'", 'x-frame-options': 'DENY', 'cache-control': 'no-store' };

function passwordOk(ctx: Ctx, given: string | undefined): boolean {
  const want = ctx.services.config.consolePassword;
  if (!want || given === undefined) return false;
  const a = crypto.createHash('sha256').update(want).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

function cookie(ctx: Ctx, name: string): string | undefined {
  for (const part of (ctx.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function enabled(ctx: Ctx): void {
  if (!ctx.services.config.consolePassword) throw new ApiError('NOT_FOUND', 'The test console is disabled; set SEJONG_CONSOLE_PASSWORD to enable it');
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/console/login', auth: 'none', tags: ['Console'], errors: ['NOT_FOUND'], summary: 'Test console sign-in page',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: (ctx) => {
      enabled(ctx);
      return reply.make({ status: 200, body: loginPage(), contentType: HTML, headers: SECURITY });
    },
  }),
  defineRoute({
    method: 'POST', path: '/console/login', auth: 'none', tags: ['Console'], errors: ['NOT_FOUND', 'INVALID_API_KEY', 'RATE_LIMITED'], summary: 'Sign in: sets the test_auth cookie',
    responses: { 204: { description: 'signed in: Set-Cookie test_auth (no body)' } },
    body: { kind: 'json', schema: z.object({ password: z.string().min(1).max(200) }).strict() },
    maxBodyBytes: 4096,
    handler: async (ctx) => {
      enabled(ctx);
      const { password } = ctx.body;
      const throttle = ctx.services.loginThrottle;
      const now = ctx.services.clock.now();
      await throttle.check(ctx.ip, now);
      if (!passwordOk(ctx, password)) {
        await throttle.failed(ctx.ip, now);
        throw new ApiError('INVALID_API_KEY', 'Wrong password');
      }
      await throttle.succeeded(ctx.ip);
      return reply.make({ status: 204, body: '', headers: { 'set-cookie': `test_auth=${encodeURIComponent(password)}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=28800` } });
    },
  }),
  defineRoute({
    method: 'POST', path: '/console/logout', auth: 'none', tags: ['Console'], errors: ['NOT_FOUND'], summary: 'Sign out: clears the cookie',
    responses: { 303: { description: 'cookie cleared; redirect to /console/login' } },
    handler: () => reply.make({ status: 303, body: '', headers: { location: '/console/login', 'set-cookie': 'test_auth=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0' } }),
  }),
  defineRoute({
    method: 'GET', path: '/console/app.js', auth: 'none', tags: ['Console'], errors: ['NOT_FOUND'], summary: 'The test console\'s browser code',
    responses: { 200: { description: 'JavaScript', contentType: 'text/javascript' } },
    handler: (ctx) => {
      enabled(ctx);
      return reply.make({ status: 200, body: CONSOLE_JS, contentType: 'text/javascript; charset=utf-8', headers: SECURITY });
    },
  }),
  defineRoute({
    method: 'GET', path: '/console', auth: 'none', tags: ['Console'], errors: ['NOT_FOUND'], summary: 'Test console (cookie test_auth)',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' }, 302: { description: 'no valid cookie: redirect to /console/login' } },
    handler: async (ctx) => {
      enabled(ctx);
      // a wrong cookie is a password guess too: same throttle as the sign-in
      const given = cookie(ctx, 'test_auth');
      const throttle = ctx.services.loginThrottle;
      const now = ctx.services.clock.now();
      if (given !== undefined) await throttle.check(ctx.ip, now);
      if (given !== undefined && !passwordOk(ctx, given)) await throttle.failed(ctx.ip, now);
      if (!passwordOk(ctx, given)) return reply.make({ status: 302, body: '', headers: { location: '/console/login', 'cache-control': 'no-store' } });
      return reply.make({ status: 200, body: consolePage('3.6.0'), contentType: HTML, headers: SECURITY });
    },
  }),
];
