/**
 * The webhook address guard. A callback URL is checked twice: at registration (a literal
 * forbidden address or `localhost` is a 400) and at every send, where the host is resolved
 * (`dns.lookup`, all addresses), every address is checked, and the socket connects to the
 * address that was checked — the guard *is* the socket's `lookup`, so a DNS answer that changes
 * between check and connect (rebinding) never reaches a private address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { forbiddenReason, isIpLiteral } from './ip-ranges.js';

/** A URL or address the guard refused; `reason` names the range ('loopback', 'metadata', …). */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`webhook address ${host} refused: ${reason}`);
    this.name = 'ForbiddenAddressError';
  }
}

/** Parses a callback URL: http/https only, no credentials, at most 2048 characters. Throws a plain Error. */
export function parseCallbackUrl(raw: string): URL {
  if (raw.length > 2048) throw new Error('url is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('url is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('url must be http or https');
  if (url.username || url.password) throw new Error('url must not carry credentials');
  if (!url.hostname) throw new Error('url has no host');
  return url;
}

/** The host without IPv6 brackets or the trailing root dot (`localhost.` is `localhost`). */
function bare(host: string): string {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return h.replace(/\.+$/, '');
}

/**
 * Registration-time check: the reason a URL's host is refused when it is a literal address (or
 * a `localhost` name, which RFC 6761 pins to loopback), else null. Names are checked at send.
 */
export function literalHostReason(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = bare(url.hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (isIpLiteral(host)) return forbiddenReason(host);
  return null;
}

/**
 * A `lookup` for `http.request` / `net.connect` that resolves every address of the host, refuses
 * the connection if any is forbidden (one bad answer poisons the name: a round-robin with a
 * private member is how rebinding is usually staged), and hands the socket only checked ones.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length) return callback(new Error(`no address for ${hostname}`), '', 0);
      if (!allowPrivate) {
        for (const a of addresses) {
          const reason = forbiddenReason(a.address);
          if (reason) return callback(new ForbiddenAddressError(`${hostname} (${a.address})`, reason), '', 0);
        }
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Send-time check of a literal-address host (sockets skip `lookup` for IP literals, so the
 * guarded lookup never sees them). Throws `ForbiddenAddressError`.
 */
export function assertLiteralAllowed(url: URL, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = bare(url.hostname).toLowerCase();
  if (isIpLiteral(host)) {
    const reason = forbiddenReason(host);
    if (reason) throw new ForbiddenAddressError(host, reason);
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    throw new ForbiddenAddressError(host, 'loopback');
  }
}
