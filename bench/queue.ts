/**
 * Queue throughput: documents/s through claim → complete with a no-op extraction, on SQLite
 * (target ≥ 2,000/s) and on PostgreSQL when `TABLEMILL_TEST_DATABASE_URL` or `DATABASE_URL`
 * is set. Median of 3 runs, each on a fresh database. Each is measured again with `--finished`
 * (default 100,000) finished batches present, as a long-lived instance has them: the claim's
 * candidate query must not slow down with history (target ≥ 0.9× the empty database's rate).
 * `npm run bench -- queue [--docs N] [--finished N]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresStore } from '../src/store/postgres/store.js';
import { SqliteStore } from '../src/store/sqlite/store.js';
import type { Store } from '../src/store/types.js';
import { seedBatch } from './seed.js';

const TARGET = 2000;
const RESULT = JSON.stringify({ page_count: 1, tables: [], line_items: [], totals: null });

interface Setup {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

/** `n` finished batches (one succeeded document each, as counters) written straight in SQL, then ANALYZE. */
async function seedFinished(store: Store, n: number): Promise<void> {
  if (n === 0) return;
  const acc = await store.getOrCreateAccount('history', 1);
  const cols = 'id, account_id, name, succeeded, document_count, created_at, min_started_at, max_completed_at, run';
  if (store instanceof SqliteStore) {
    store.db.prepare(`INSERT INTO batches (${cols}) WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
      SELECT 'bat_done_' || i, ?, 'done-' || i, 1, 1, i, i, i, 1 FROM c`).run(n, acc.id);
    store.db.exec('ANALYZE');
  } else if (store instanceof PostgresStore) {
    await store.pool.query(`INSERT INTO batches (${cols}) SELECT 'bat_done_' || i, $2, 'done-' || i, 1, 1, i, i, i, 1 FROM generate_series(1, $1::int) i`, [n, acc.id]);
    await store.pool.query('ANALYZE');
  }
}

/** `setup` with `n` finished batches seeded into each fresh database. */
function withFinished(setup: Setup, n: number): Setup {
  return {
    async open() {
      const s = await setup.open();
      await seedFinished(s, n);
      return s;
    },
    cleanup: () => setup.cleanup(),
  };
}

/** Drains `count` documents with `workers` loops each claiming up to `claimBatch`; returns docs/s. */
async function drain(store: Store, count: number, workers: number, claimBatch: number): Promise<number> {
  const acc = await store.getOrCreateAccount('bench', Date.now());
  await seedBatch(store, { accountId: acc.id, batchName: 'queue', count, submit: true });
  let done = 0;
  const t0 = performance.now();
  const loop = async () => {
    for (;;) {
      const got = await store.claimDocuments(claimBatch, 60_000, Date.now());
      if (!got.length) return;
      // As the worker does: a claimed group's documents run, and complete, concurrently.
      const written = await Promise.all(got.map((d) => store.completeDocument(d.id, d.attempt, { status: 'succeeded', page_count: 1, result_json: RESULT }, Date.now())));
      done += written.filter(Boolean).length;
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  const secs = (performance.now() - t0) / 1000;
  const b = await store.getBatch(acc.id, 'queue');
  if (done !== count || b?.counts.succeeded !== count) throw new Error(`drained ${done}/${count}, batch says ${JSON.stringify(b?.counts)}`);
  return count / secs;
}

async function measure(label: string, setup: Setup, count: number, workers: number, claimBatch: number): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const store = await setup.open();
    try {
      runs.push(await drain(store, count, workers, claimBatch));
    } finally {
      await store.close();
    }
  }
  await setup.cleanup();
  runs.sort((a, b) => a - b);
  const median = runs[1];
  console.log(`${label.padEnd(44)} ${median.toFixed(0).padStart(7)} docs/s  (runs ${runs.map((r) => r.toFixed(0)).join(', ')}; ${count} docs)`);
  return median;
}

function sqliteSetup(): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'tablemill-bench-queue-'));
  let n = 0;
  return {
    async open() {
      const s = new SqliteStore(join(dir, `q${n++}.db`));
      await s.migrate();
      return s;
    },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresSetup(url: string): Setup {
  const schemas: string[] = [];
  return {
    async open() {
      schemas.push(`bench_queue_${process.pid}_${schemas.length}`);
      const s = await PostgresStore.open(url, schemas[schemas.length - 1], { max: 8 });
      await s.migrate();
      return s;
    },
    async cleanup() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await c.end();
    },
  };
}

/** Runs the benchmark and prints medians and ratios. */
export async function run(args: string[]): Promise<void> {
  const i = args.indexOf('--docs');
  const count = i >= 0 ? Number(args[i + 1]) : 5000;
  const f = args.indexOf('--finished');
  const finished = f >= 0 ? Number(args[f + 1]) : 100_000;
  const url = process.env.TABLEMILL_TEST_DATABASE_URL || process.env.DATABASE_URL || null;
  const sqlite = await measure('sqlite: 1 loop, claim 16', sqliteSetup(), count, 1, 16);
  const sqlite1 = await measure('sqlite: 1 loop, claim 1', sqliteSetup(), count, 1, 1);
  console.log(`sqlite vs target ${TARGET}/s: ${(sqlite / TARGET).toFixed(2)}×  ${sqlite >= TARGET ? 'OK' : 'BELOW TARGET'}; claim 16 vs claim 1: ${(sqlite / sqlite1).toFixed(2)}×`);
  const sqliteHist = await measure(`sqlite: 1 loop, claim 16, ${finished} finished batches`, withFinished(sqliteSetup(), finished), count, 1, 16);
  console.log(`sqlite with ${finished} finished batches vs empty: ${(sqliteHist / sqlite).toFixed(2)}× (target ≥ 0.9)`);
  if (!url) {
    console.log('postgres: skipped (set TABLEMILL_TEST_DATABASE_URL or DATABASE_URL)');
    return;
  }
  try {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    await probe.end();
  } catch (err) {
    console.log(`postgres: skipped (${(err as Error).message})`);
    return;
  }
  const pg4 = await measure('postgres: 4 loops, claim 16', postgresSetup(url), count, 4, 16);
  const pg1 = await measure('postgres: 1 loop, claim 16', postgresSetup(url), count, 1, 16);
  console.log(`postgres 4 loops vs 1 loop: ${(pg4 / pg1).toFixed(2)}×; postgres (4 loops) vs sqlite: ${(pg4 / sqlite).toFixed(2)}×`);
  const pgHist = await measure(`postgres: 4 loops, claim 16, ${finished} finished batches`, withFinished(postgresSetup(url), finished), count, 4, 16);
  console.log(`postgres with ${finished} finished batches vs empty: ${(pgHist / pg4).toFixed(2)}× (target ≥ 0.9)`);
}
