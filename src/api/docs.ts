// GET /docs: the human API reference, Swagger UI from the installed swagger-ui-dist package (no CDN: the
// machine may be offline), reading /openapi.json; "Try it out" calls this server (file uploads included).
// swagger-ui-dist rather than Scalar's @scalar/api-reference: one package with no dependencies (Scalar pulls
// ~300 packages, ~240 MB) and the same try-it with multipart uploads and API-key auth.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { reply, type RouteDef } from '../server/types.js';

const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const CSP = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sejong API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/docs/assets/favicon-32x32.png"><link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`;

// the API key typed into "Authorize" is kept for the session only (persistAuthorization is off)
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  validatorUrl: null, displayRequestDuration: true, filter: true,
});
`;

const cache = new Map<string, Buffer>();
function asset(name: string): Buffer {
  let b = cache.get(name);
  if (!b) cache.set(name, (b = fs.readFileSync(path.join(dist, name))));
  return b;
}

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '/docs', auth: 'none', tags: ['System'], noRequestLog: true,
    summary: 'API reference page (Swagger UI over /openapi.json, try-it against this server)',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: () => reply.make({ status: 200, body: PAGE, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': CSP, 'x-frame-options': 'DENY' } }),
  },
  {
    method: 'GET', path: '/docs/assets/:file', auth: 'none', tags: ['System'], noRequestLog: true,
    query: z.object({}).passthrough(),
    summary: 'Static files of the API reference page',
    responses: { 200: { description: 'CSS, JavaScript or an icon', contentType: 'application/octet-stream' } },
    handler: (ctx) => {
      const file = ctx.params.file!;
      if (file === 'init.js') return reply.make({ status: 200, body: INIT, contentType: 'text/javascript; charset=utf-8', headers: { 'cache-control': 'no-cache' } });
      const type = ASSETS[file];
      if (!type) throw new ApiError('NOT_FOUND', `No asset ${file}; the page uses ${['init.js', ...Object.keys(ASSETS)].join(', ')}`);
      return reply.binary(asset(file), type, 200, { 'cache-control': 'public, max-age=86400' });
    },
  },
];
