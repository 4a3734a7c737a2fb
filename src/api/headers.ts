/**
 * Response headers every answer of a kind carries: HTML pages cannot be framed by another site
 * (clickjacking), and the /v1 answers, which carry an account's data, are never stored by a
 * browser or a proxy.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Appends `frame-ancestors 'none'` to a page's policy unless it names its own. */
export function withFrameAncestors(csp: string | undefined): string {
  if (!csp || csp.trim() === '') return "frame-ancestors 'none'";
  return /(^|;)\s*frame-ancestors\b/i.test(csp) ? csp : `${csp.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
}

/** Root onSend hook: every HTML answer gets `X-Frame-Options: DENY` and `frame-ancestors 'none'`. */
export function registerPageHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!/^text\/html\b/i.test(type)) return payload;
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', withFrameAncestors(reply.getHeader('content-security-policy') as string | undefined));
    return payload;
  });
}

/**
 * The /v1 onRequest hook, first of all: `Cache-Control: no-store` on every answer, errors and
 * 304s included. Status answers keep their ETag: the SDK and the web app send If-None-Match
 * themselves, so revalidation needs no browser cache.
 */
export function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}
