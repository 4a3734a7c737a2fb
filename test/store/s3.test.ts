// The whole Store contract (blobs and retention purges included) with originals in an
// S3-compatible bucket: SQLite rows + s3rver over real HTTP, and PostgreSQL + s3rver when
// TABLEMILL_TEST_DATABASE_URL is set.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import pg from 'pg';
import { S3BlobStore } from '../../src/blobs/s3.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { startS3rver, type S3Server } from '../blobs/s3rver.js';
import { storeContract } from './contract.js';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3.close();
});

const root = mkdtempSync(join(tmpdir(), 'tablemill-store-s3-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let current = '';
let prefix = '';

storeContract('sqlite + s3', {
  async fresh() {
    current = join(root, `db${n}`, 'tablemill.db');
    prefix = `sqlite-${n++}`;
    mkdirSync(dirname(current));
    const s = new SqliteStore(current, { blobs: S3BlobStore.fromConfig(s3.config(prefix)) });
    await s.migrate();
    return s;
  },
  async another() {
    return new SqliteStore(current, { blobs: S3BlobStore.fromConfig(s3.config(prefix)) });
  },
  blobLeftovers: () => s3.count(prefix),
});

const url = process.env.TABLEMILL_TEST_DATABASE_URL;
if (!url) {
  describe.skip('Store contract: postgres + s3 (TABLEMILL_TEST_DATABASE_URL unset)', () => it('skipped', () => {}));
} else {
  const schemas: string[] = [];
  const base = `t_store_s3_${process.pid}_${Date.now().toString(36)}`;
  afterAll(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await c.end();
  });
  storeContract('postgres + s3', {
    async fresh() {
      schemas.push(`${base}_${schemas.length}`);
      prefix = schemas[schemas.length - 1];
      const s = await PostgresStore.open(url, prefix, { max: 4, blobs: S3BlobStore.fromConfig(s3.config(prefix)) });
      await s.migrate();
      return s;
    },
    async another() {
      return PostgresStore.open(url, prefix, { max: 4, blobs: S3BlobStore.fromConfig(s3.config(prefix)) });
    },
    blobLeftovers: () => s3.count(prefix),
  });
}
