/**
 * Child process of durability.test.ts: stores a blob and inserts its document, prints the ids
 * once both resolved (the moment a 201 would be sent), then waits to be killed with SIGKILL.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { newId } from '../../src/domain/names.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';

const dir = process.argv[2];
const store = new SqliteStore(join(dir, 'tablemill.db'));
await store.migrate();
const bytes = randomBytes(100_000);
const put = await store.blobs.put((async function* () { yield new Uint8Array(bytes); })());
const acc = await store.getOrCreateAccount('durable', Date.now());
const id = newId('doc');
await store.insertDocuments(acc.id, 'b', [{ id, filename: 'x.pdf', content_type: 'application/pdf', size_bytes: put.size, sha256: put.sha256, blob_key: put.key }], Date.now());
process.stdout.write(JSON.stringify({ account: acc.id, id, key: put.key, sha256: put.sha256 }) + '\n');
setInterval(() => {}, 1000); // stay alive until killed
