/**
 * The server a client command talks to: `--url` / TABLEMILL_URL (default http://127.0.0.1:8080)
 * and `--key` / TABLEMILL_API_KEY, read here once (the client side's counterpart of config.ts).
 */
import { ConfigError } from '../config.js';
import { TablemillClient } from '@tablemill/client';

export interface RemoteFlags {
  url?: string;
  key?: string;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/** No server answers at the URL: the command names the URL, where it came from, and how to give another. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** Network errors that mean nothing listens there (or the name does not resolve), as Node's fetch gives them in `cause.code`. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The global fetch, its "nothing answers" failures said as an UnreachableError; other failures (a reset mid-upload) stay retryable TypeErrors. */
function fetchFor(url: string, from: string): typeof fetch {
  return async (input, init) => {
    try {
      return await globalThis.fetch(input, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      if (!cause?.code || !UNREACHABLE.has(cause.code)) throw err;
      throw new UnreachableError(
        `no Tablemill server answers at ${url} (${from}; ${cause.message ?? cause.code}).\n` +
          'Start one with `tablemill serve` (or `npm start`), or give the address of yours: set TABLEMILL_URL or pass --url, e.g. --url http://127.0.0.1:9000',
      );
    }
  };
}

/** A client for the configured server; a missing key or a bad URL is a ConfigError (exit 78). */
export function remoteClient(flags: RemoteFlags, env: NodeJS.ProcessEnv = process.env): TablemillClient {
  const url = flags.url ?? env.TABLEMILL_URL ?? DEFAULT_URL;
  const from = flags.url ? 'from --url' : env.TABLEMILL_URL ? 'from TABLEMILL_URL' : 'the default; TABLEMILL_URL is not set';
  if (!/^https?:\/\/[^/]+/.test(url)) throw new ConfigError('TABLEMILL_URL', `expected an http(s):// URL, got ${JSON.stringify(url)}`);
  const key = flags.key ?? env.TABLEMILL_API_KEY;
  if (!key) throw new ConfigError('TABLEMILL_API_KEY', 'an API key is needed (`tablemill keys create --account NAME` makes one); set TABLEMILL_API_KEY or pass --key');
  return new TablemillClient(url, key, { fetch: fetchFor(url, from) });
}
