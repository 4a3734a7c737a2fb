/** `tablemill keys create --account NAME`: a new API key; the key alone is the last line of stdout. */
import { createKey } from '../api/auth.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store/index.js';
import type { ParsedArgs } from './args.js';

const USAGE = 'usage: tablemill keys create --account NAME';

/** The exit code: 0 with the key printed, 2 on bad usage. */
export async function run(args: ParsedArgs): Promise<number> {
  const [sub] = args.positionals;
  const { account: name, ...rest } = args.flags;
  if (sub !== 'create' || args.positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/.test(name)) {
    process.stderr.write(`tablemill keys: --account needs a name of letters, digits and . _ @ - (at most 128)\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(process.env, rest);
  const store = await openStore(config);
  try {
    await store.migrate();
    const { key, account } = await createKey(store, name, Date.now());
    process.stdout.write(`created a key for account ${account.name} (${account.id}); it is shown once:\n${key}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
