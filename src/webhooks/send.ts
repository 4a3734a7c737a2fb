/**
 * One webhook attempt over node:http(s): signed headers, the guarded lookup as the socket's
 * resolver, no redirects (http.request never follows them; a 3xx is just a failed attempt), a
 * hard time limit on the whole exchange, and a response body read and dropped (capped at 64 KiB
 * so a receiver cannot hold us with an endless answer).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertLiteralAllowed, guardedLookup, parseCallbackUrl } from './address-guard.js';
import { signatureHeader } from './signing.js';

export interface SendInput {
  url: string;
  secret: string;
  /** The event id: the `webhook-id` header, stable across retries. */
  eventId: string;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Unix seconds for `webhook-timestamp`; fresh per attempt. Defaults to now. */
  timestampSec?: number;
}

/** What one attempt got: the HTTP status if an answer came, else the error text. */
export interface SendOutcome {
  status: number | null;
  error: string | null;
}

const MAX_DRAIN = 64 * 1024;

/** Performs one signed POST. Never throws: every failure is an outcome. */
export async function sendWebhook(input: SendInput): Promise<SendOutcome> {
  let url: URL;
  try {
    url = parseCallbackUrl(input.url);
    assertLiteralAllowed(url, input.allowPrivate);
  } catch (err) {
    return { status: null, error: (err as Error).message };
  }
  const ts = input.timestampSec ?? Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(input.body)),
    'user-agent': 'tablemill-webhooks/1',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(ts),
    'webhook-signature': signatureHeader(input.secret, input.eventId, ts, input.body),
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const done = (o: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = request(url, {
      method: 'POST',
      headers,
      lookup: guardedLookup(input.allowPrivate),
      // A fresh connection per attempt: a pooled socket would skip the lookup, hence the check.
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${input.timeoutMs} ms`));
    }, input.timeoutMs);
    req.on('response', (res: IncomingMessage) => {
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > MAX_DRAIN) res.destroy();
      });
      const finish = () => done({ status: res.statusCode ?? null, error: null });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', (err) => done({ status: null, error: err.message }));
    req.end(input.body);
  });
}
