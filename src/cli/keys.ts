/**
 * `tablemill keys create|list|revoke`: API keys, straight on the configured database. A key is
 * shown once, at creation (the last line of stdout); only its hash is stored.
 */
import { createKey } from '../api/auth.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import { EXIT, UsageError } from './exit.js';

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

async function withStore<T>(flags: Record<string, string>, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig(process.env, flags));
  try {
    await store.migrate();
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** `keys create --account NAME`. */
export async function create(flags: Record<string, string>, accountName: string): Promise<number> {
  if (!ACCOUNT_NAME.test(accountName)) throw new UsageError('--account needs a name of letters, digits and . _ @ - (at most 128)');
  return withStore(flags, async (store) => {
    const { key, keyId, account } = await createKey(store, accountName, Date.now());
    process.stdout.write(`created key ${keyId} for account ${account.name} (${account.id}); it is shown once:\n${key}\n`);
    return EXIT.ok;
  });
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** `keys list [--account NAME] [--json]`: ids and dates, never a key or its hash. */
export async function list(flags: Record<string, string>, opts: { account?: string; json?: boolean }): Promise<number> {
  return withStore(flags, async (store) => {
    const keys = await store.listApiKeys(opts.account);
    if (opts.json) {
      process.stdout.write(JSON.stringify(keys) + '\n');
      return EXIT.ok;
    }
    const rows = [['id', 'account', 'created', 'last used', 'revoked'], ...keys.map((k) => [k.id, k.account_name, iso(k.created_at), iso(k.last_used_at), iso(k.revoked_at)])];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) process.stdout.write(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd() + '\n');
    return EXIT.ok;
  });
}

/** `keys revoke KEY_ID`: from the next request on, the key answers 401 on every API process. */
export async function revoke(flags: Record<string, string>, keyId: string): Promise<number> {
  return withStore(flags, async (store) => {
    if (!(await store.revokeApiKey(keyId, Date.now()))) {
      process.stderr.write(`tablemill keys revoke: no active key ${keyId} (see tablemill keys list)\n`);
      return EXIT.failure;
    }
    process.stdout.write(`revoked ${keyId}\n`);
    return EXIT.ok;
  });
}
