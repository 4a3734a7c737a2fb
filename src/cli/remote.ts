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

/** A client for the configured server; a missing key or a bad URL is a ConfigError (exit 78). */
export function remoteClient(flags: RemoteFlags, env: NodeJS.ProcessEnv = process.env): TablemillClient {
  const url = flags.url ?? env.TABLEMILL_URL ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^/]+/.test(url)) throw new ConfigError('TABLEMILL_URL', `expected an http(s):// URL, got ${JSON.stringify(url)}`);
  const key = flags.key ?? env.TABLEMILL_API_KEY;
  if (!key) throw new ConfigError('TABLEMILL_API_KEY', 'an API key is needed (`tablemill keys create --account NAME` makes one); set TABLEMILL_API_KEY or pass --key');
  return new TablemillClient(url, key);
}
