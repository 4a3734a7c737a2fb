/**
 * The web app of API.md §9 at `/`: `web/app/index.html` and the app's own modules under `/app/`,
 * with Preact, its hooks, htm and the SDK's browser entry served under `/app/vendor/` (no bundler, no CDN, works
 * offline). Every file is read once at start into memory; only those names are served,
 * so no request path ever reaches the file system.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from '../long-poll.js';

const APP_DIR = new URL('../../../web/app/', import.meta.url);

/**
 * The bare module names the app imports, the files that serve them, and where those are: Preact,
 * its hooks and htm, and the SDK's browser entry `@tablemill/client/core` (packages/client,
 * built by `npm run build`), whose own imports are served beside it (sdkModules).
 */
const VENDOR: Record<string, { file: string; url: () => URL }> = {
  preact: { file: 'preact.mjs', url: () => new URL(import.meta.resolve('preact')) },
  'preact/hooks': { file: 'preact-hooks.mjs', url: () => new URL(import.meta.resolve('preact/hooks')) },
  htm: { file: 'htm.mjs', url: () => new URL(import.meta.resolve('htm')) },
  '@tablemill/client/core': { file: 'tablemill-client/core.js', url: () => new URL(import.meta.resolve('@tablemill/client/core')) },
};

/**
 * The SDK's browser entry and the modules it imports, transitively (relative imports only: the
 * entry imports nothing else), by file name; the Node-only modules are not among them.
 */
function sdkModules(entry: URL): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const visit = (url: URL) => {
    const name = url.pathname.split('/').at(-1)!;
    if (out.has(name)) return;
    const body = readFileSync(fileURLToPath(url));
    out.set(name, body);
    for (const m of body.toString('utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.\/[\w.-]+\.js)'/gm)) visit(new URL(m[1], url));
  };
  visit(entry);
  return out;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

function file(body: Buffer, name: string): StaticFile {
  return { body, type: TYPES[extname(name)] ?? 'application/octet-stream', etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** The import map that lets the app's modules import `preact`, `preact/hooks`, `htm` and the SDK by name. */
export const IMPORT_MAP = JSON.stringify({ imports: Object.fromEntries(Object.entries(VENDOR).map(([name, v]) => [name, `/app/vendor/${v.file}`])) });

/**
 * The page's Content-Security-Policy: scripts only from this server plus the one inline import
 * map (by its hash), images from here and the `blob:` URLs of fetched page images, and nothing
 * framed, posted elsewhere or loaded from another origin.
 */
export function appCsp(): string {
  const mapHash = createHash('sha256').update(IMPORT_MAP).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${mapHash}'`,
    "style-src 'self'",
    "img-src 'self' blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The app's files by URL path. */
function loadFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(APP_DIR)) {
    if (name === 'index.html' || !TYPES[extname(name)]) continue;
    files.set(`/app/${name}`, file(readFileSync(new URL(name, APP_DIR)), name));
  }
  for (const v of Object.values(VENDOR)) files.set(`/app/vendor/${v.file}`, file(readFileSync(fileURLToPath(v.url())), v.file));
  for (const [name, body] of sdkModules(VENDOR['@tablemill/client/core'].url())) files.set(`/app/vendor/tablemill-client/${name}`, file(body, name));
  const html = readFileSync(new URL('index.html', APP_DIR), 'utf8').replace('{{IMPORT_MAP}}', IMPORT_MAP);
  files.set('/', file(Buffer.from(html), 'index.html'));
  return files;
}

/** Registers `/` and `/app/*`. */
export function webappRoutes(): FastifyPluginAsync {
  const files = loadFiles();
  const csp = appCsp();
  return async (app) => {
    const send = (f: StaticFile, request: FastifyRequest, reply: FastifyReply) => {
      reply
        .header('content-type', f.type)
        .header('etag', f.etag)
        // Revalidated on every load (a 304 costs a round trip, no bytes), so an upgrade shows at once.
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');
      if (f.type.startsWith('text/html')) reply.header('content-security-policy', csp);
      if (ifNoneMatchHits(request.headers['if-none-match'], f.etag)) return reply.code(304).send();
      return reply.send(f.body);
    };
    app.get('/', { schema: { hide: true } }, (request, reply) => send(files.get('/')!, request, reply));
    app.get('/app/*', { schema: { hide: true } }, (request, reply) => {
      const f = files.get(request.url.split('?')[0]);
      if (!f) return reply.callNotFound();
      return send(f, request, reply);
    });
  };
}
