/**
 * Writes packages/client/src/types.ts: the API's shapes as plain TypeScript, generated from the
 * contract's TypeBox schemas (src/contract/), so the SDK package carries the server's one
 * definition of each shape without depending on TypeBox or on the server.
 *
 *   node bin/run-ts.js scripts/client-types.ts          # rewrite the file
 *   node bin/run-ts.js scripts/client-types.ts --check  # exit 1 if it is out of date
 *
 * packages/client/test/types.test.ts fails when the file differs from what this prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientTypes } from './client-types-gen.js';

const OUT = join(import.meta.dirname, '../packages/client/src/types.ts');
const text = clientTypes();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing: out of date
  }
  if (current !== text) {
    console.error('packages/client/src/types.ts is out of date: run `node bin/run-ts.js scripts/client-types.ts`');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT}`);
}
