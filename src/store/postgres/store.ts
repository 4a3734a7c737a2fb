/** The Store on PostgreSQL (cluster mode): a `pg` Pool, one transaction per transition. */
import type pg from 'pg';
import type { StatusCounts } from '../../domain/batch.js';
import { newId } from '../../domain/names.js';
import { toClaimed } from '../rows.js';
import { batchPages, deletion, deltas, perBatch, resultPages, writesCompletedEvent } from '../rules.js';
import type { ChangeStream } from '../changes.js';
import type { RateLimitCounters } from '../rate-limits.js';
import type { Account, ApiKeyRow, BatchEvent, BatchRecount, BatchRow, ClaimedDocument, DocumentOutcome, DocumentResultRow, DocumentRow, KeyAuth, NewDocument, Page, Store, SubmitOptions } from '../types.js';
import * as accounts from './accounts.js';
import * as batches from './batches.js';
import * as documents from './documents.js';
import * as events from './events.js';
import { PostgresBlobStore } from '../../blobs/postgres.js';
import type { BlobStore } from '../../blobs/types.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { Listener } from './listener.js';
import { migratePostgres } from './migrate.js';
import { notifyChange, notifyWork } from './notify.js';
import { clientConfig, openPool, queryRetrying, transaction, type Q } from './pool.js';
import { GroupCommit } from '../group-commit.js';
import * as queue from './queue.js';
import { postgresRateLimits } from './rate-limits.js';
import { PostgresWebhookStore } from './webhooks.js';
import { PostgresRetentionStore } from './retention.js';
import { PostgresReviewStore } from './review.js';

/** Cluster-mode Store. `pool` and `tx` are for sibling modules in src/store/postgres/. */
export class PostgresStore implements Store {
  readonly webhooks: PostgresWebhookStore;
  readonly idempotency: PostgresIdempotencyStore;
  readonly rateLimits: RateLimitCounters;
  readonly retention: PostgresRetentionStore;
  readonly review: PostgresReviewStore;
  /** Uploads in the database too (unless an object store is given), so hosts need no shared disk. */
  readonly blobs: BlobStore;
  private readonly listener: Listener;

  private constructor(
    readonly pool: pg.Pool,
    readonly schema: string | null,
    url: string,
    blobs: BlobStore | undefined,
  ) {
    this.listener = new Listener(clientConfig(url, schema));
    this.webhooks = new PostgresWebhookStore(pool);
    this.idempotency = new PostgresIdempotencyStore(pool);
    this.rateLimits = postgresRateLimits(pool, schema);
    this.retention = new PostgresRetentionStore(pool);
    this.review = new PostgresReviewStore(pool);
    this.blobs = blobs ?? new PostgresBlobStore(pool);
  }

  /** LISTEN/NOTIFY: changes committed by any process on this database. */
  get changes(): ChangeStream {
    return this.listener;
  }

  /** Opens the pool on `url`, with every table in `schema` (created if missing); uploads in `blobs` if given. */
  static async open(url: string, schema: string | null, opts: { max?: number; blobs?: BlobStore } = {}): Promise<PostgresStore> {
    return new PostgresStore(await openPool(url, schema, opts.max), schema, url, opts.blobs);
  }

  /** The pool, with single statements retried on deadlock. */
  private readonly queryable: Q = { query: ((sql: string, values: unknown[]) => queryRetrying(this.pool, sql, values)) as Q['query'] };

  /** Concurrent completions share one statement and one commit (`queue.completeGroup`). */
  private readonly completions = new GroupCommit<queue.Completion & { now: number }, boolean>(async (group) => {
    const written = await queue.completeGroup(this.queryable, group, Math.max(...group.map((c) => c.now)));
    return group.map((c) => written.has(c.id));
  });

  /** Runs `fn` in one transaction on one client (retried on deadlock). */
  tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return transaction(this.pool, fn);
  }

  async migrate(): Promise<void> {
    await migratePostgres(this.pool, this.schema);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.listener.close();
    await this.blobs.close();
    await this.pool.end();
  }

  async getOrCreateAccount(name: string, now: number): Promise<Account> {
    return accounts.upsertAccount(this.pool, { id: newId('acc'), name, created_at: now });
  }

  async createApiKey(accountId: string, keyHash: string, now: number): Promise<string> {
    const id = newId('key');
    await accounts.insertApiKey(this.pool, { id, account_id: accountId, key_hash: keyHash, created_at: now });
    return id;
  }

  async findAccountByKeyHash(keyHash: string): Promise<Account | null> {
    return (await accounts.selectKeyByHash(this.pool, keyHash))?.account ?? null;
  }

  async findKey(keyHash: string): Promise<KeyAuth | null> {
    return accounts.selectKeyByHash(this.pool, keyHash);
  }

  async touchApiKey(keyId: string, now: number): Promise<void> {
    await accounts.updateKeyLastUsed(this.pool, keyId, now);
  }

  async listApiKeys(accountName?: string): Promise<ApiKeyRow[]> {
    return accounts.selectApiKeys(this.pool, accountName ?? null);
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    // The NOTIFY goes out with the commit: every API process drops its cached keys.
    return this.tx(async (c) => {
      const revoked = await accounts.updateKeyRevoked(c, keyId, now);
      if (revoked) await notifyChange(c, 'keys');
      return revoked;
    });
  }

  async insertDocuments(accountId: string, batchName: string, docs: NewDocument[], now: number): Promise<{ batch: BatchRow; documents: DocumentRow[] }> {
    return this.tx(async (c) => {
      // The batch row lock (the upsert's) orders this upload against deleteBatch/submitBatch of the same name.
      const batch = await batches.upsertLiveBatch(c, { id: newId('bat'), account_id: accountId, name: batchName, created_at: now }, deltas.uploaded(docs.length));
      const rows = await documents.insertUploaded(c, accountId, batch.id, batch.name, docs, now);
      if (docs.length) await notifyChange(c, 'documents');
      return { batch, documents: rows };
    });
  }

  async submitBatch(accountId: string, batchName: string, now: number, opts: SubmitOptions = {}): Promise<{ submitted: number; batch: BatchRow } | null> {
    const out = await this.tx(async (c) => {
      const batch = await batches.selectLiveBatch(c, accountId, batchName, true);
      if (!batch) return null;
      const submitted = await documents.submitUploaded(c, batch.id, now, opts.options_json ?? null);
      if (!submitted) return { submitted, batch };
      await notifyWork(c);
      await notifyChange(c, 'documents');
      return { submitted, batch: await batches.incrementRun(c, batch.id, submitted) };
    });
    if (out?.submitted) this.listener.wake();
    return out;
  }

  async getBatch(accountId: string, batchName: string): Promise<BatchRow | null> {
    return batches.selectLiveBatch(this.pool, accountId, batchName);
  }

  async getBatchById(accountId: string, batchId: string): Promise<BatchRow | null> {
    const b = await batches.selectBatchById(this.pool, batchId);
    return b && b.account_id === accountId ? b : null;
  }

  async listBatches(accountId: string, opts: { cursor: string | null; limit: number }): Promise<Page<BatchRow>> {
    return batchPages.page(await batches.selectLiveBatchesPage(this.pool, accountId, batchPages.after(opts.cursor), opts.limit + 1), opts.limit);
  }

  async deleteBatch(accountId: string, batchName: string, now: number): Promise<BatchRow | null> {
    return this.tx(async (c) => {
      const batch = await batches.markBatchDeleted(c, accountId, batchName, now);
      if (!batch) return null;
      await notifyChange(c, 'documents');
      const n = await documents.cancelNotStarted(c, batch.id, now);
      // A deleted batch sends no webhook (nobody can read it by name any more).
      return n ? batches.bumpBatch(c, batch.id, deltas.canceled(n, now)) : batch;
    });
  }

  async getDocument(accountId: string, id: string): Promise<DocumentRow | null> {
    return documents.selectDocument(this.pool, accountId, id);
  }

  async getDocumentResult(accountId: string, id: string): Promise<DocumentResultRow | null> {
    return documents.selectDocumentResult(this.pool, accountId, id);
  }

  async listBatchResults(accountId: string, batchId: string, opts: { cursor: string | null; limit: number }): Promise<Page<DocumentResultRow>> {
    const page = resultPages.page(await documents.selectResultsPage(this.pool, accountId, batchId, resultPages.after(opts.cursor) ?? 0, opts.limit + 1), opts.limit);
    return { items: page.items.map(({ seq: _seq, ...doc }) => doc), next_cursor: page.next_cursor };
  }

  async deleteDocument(accountId: string, id: string, now: number): Promise<{ outcome: 'canceled' | 'deleted' | 'conflict'; blob_key: string } | null> {
    return this.tx(async (c) => {
      const doc = await documents.selectDocument(c, accountId, id, true);
      if (!doc) return null;
      const { action, status } = deletion(doc);
      if (action === 'cancel' && (await documents.cancelOne(c, id, now))) {
        await notifyChange(c, 'documents');
        await this.afterTransition(c, await batches.bumpBatch(c, doc.batch_id, deltas.canceled(1, now, doc.state === 'uploaded' ? 1 : 0)), now);
        return { outcome: 'canceled' as const, blob_key: doc.blob_key };
      }
      if (action === 'delete' && (await documents.deleteTerminal(c, id))) {
        await batches.bumpBatch(c, doc.batch_id, deltas.removed(status));
        await batches.recomputeSpan(c, doc.batch_id);
        await notifyChange(c, 'documents');
        return { outcome: 'deleted' as const, blob_key: doc.blob_key };
      }
      return { outcome: 'conflict' as const, blob_key: doc.blob_key };
    });
  }

  async claimDocuments(limit: number, leaseMs: number, now: number): Promise<ClaimedDocument[]> {
    if (limit <= 0) return [];
    return (await queue.claimPending(this.queryable, limit, now + leaseMs, now)).map(toClaimed);
  }

  async renewLease(id: string, attempt: number, leaseMs: number, now: number): Promise<boolean> {
    return queue.renewLeased(this.pool, id, attempt, now + leaseMs);
  }

  async completeDocument(id: string, attempt: number, outcome: DocumentOutcome, now: number): Promise<boolean> {
    return this.completions.add({ id, attempt, outcome, eventId: newId('evt'), now });
  }

  async releaseLease(id: string, attempt: number, now: number): Promise<boolean> {
    const released = await this.tx(async (c) => {
      if ((await queue.releaseLeased(c, id, attempt, now)) === null) return false;
      await notifyChange(c, 'documents');
      await notifyWork(c);
      return true;
    });
    if (released) this.listener.wake();
    return released;
  }

  /** Under a transaction-scoped advisory lock: when several processes reap, one does the work. */
  async reapExpiredLeases(maxAttempts: number, now: number): Promise<{ requeued: number; failed: number }> {
    const out = await this.tx(async (c) => {
      if (!(await queue.tryReaperLock(c, this.schema))) return { requeued: 0, failed: 0 };
      const rows = await queue.reapExpired(c, maxAttempts, now);
      if (rows.length) await notifyChange(c, 'documents');
      let failed = 0;
      for (const [batchId, n] of perBatch(rows, (r) => r.state === 'failed')) {
        await this.afterTransition(c, await batches.bumpBatch(c, batchId, deltas.reapedFailed(n, now)), now);
        failed += n;
      }
      if (rows.length > failed) await notifyWork(c);
      return { requeued: rows.length - failed, failed };
    });
    if (out.requeued) this.listener.wake();
    return out;
  }

  waitForWork(ms: number, signal?: AbortSignal): Promise<void> {
    return this.listener.wait(ms, signal);
  }

  async listBatchEvents(batchId: string): Promise<BatchEvent[]> {
    return events.selectBatchEvents(this.pool, batchId);
  }

  async recountBatch(batchId: string): Promise<BatchRecount | null> {
    return (await batches.selectBatchById(this.pool, batchId)) ? batches.recountBatchRow(this.pool, batchId) : null;
  }

  async documentStats(): Promise<{ documentsByStatus: StatusCounts; queueDepth: number }> {
    return batches.selectDocumentStats(this.pool);
  }

  /** The outbox hook: `writesCompletedEvent` decides; a written event is announced on `webhooks`. */
  private async afterTransition(q: Q, batch: BatchRow, now: number): Promise<void> {
    if (writesCompletedEvent(batch) && (await events.insertBatchCompleted(q, newId('evt'), batch, now))) await notifyChange(q, 'webhooks');
  }
}
