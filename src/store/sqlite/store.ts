/** The Store on one SQLite file (embedded mode). better-sqlite3 is synchronous; calls are serialised. */
import { EventEmitter } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import type { StatusCounts } from '../../domain/batch.js';
import { newId } from '../../domain/names.js';
import { LocalBlobStore } from '../../blobs/local.js';
import type { BlobStore } from '../../blobs/types.js';
import { FsyncGroup } from '../../blobs/fsync-group.js';
import { GroupCommit } from '../group-commit.js';
import { LocalChanges, nextEvent } from '../changes.js';
import { toClaimed } from '../rows.js';
import { batchPages, deletion, deltas, isFirstClaim, perBatch, resultPages, writesCompletedEvent } from '../rules.js';
import type { RateLimitCounters } from '../rate-limits.js';
import type { Account, ApiKeyRow, BatchEvent, BatchRecount, BatchRow, ClaimedDocument, DocumentOutcome, DocumentResultRow, DocumentRow, KeyAuth, NewDocument, Page, Store, SubmitOptions } from '../types.js';
import * as accounts from './accounts.js';
import * as batches from './batches.js';
import { BatchRowCache, batchWrites, watchBatchWrites } from './batch-cache.js';
import { migrateDatabase, openDatabase, type Db } from './db.js';
import * as documents from './documents.js';
import * as events from './events.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import * as queue from './queue.js';
import { sqliteRateLimits } from './rate-limits.js';
import { SqliteWebhookStore } from './webhooks.js';
import { SqliteRetentionStore } from './retention.js';
import { SqliteReviewStore } from './review.js';

/**
 * One work signal and one change stream per database file in this process, so a submit
 * through one connection (the API) wakes waiters on another (the workers). Other processes on
 * the file fall back to polling.
 */
const signals = new Map<string, { work: EventEmitter; changes: LocalChanges }>();
function signalsFor(path: string): { work: EventEmitter; changes: LocalChanges } {
  let s = signals.get(path);
  if (!s) {
    signals.set(path, (s = { work: new EventEmitter(), changes: new LocalChanges() }));
    s.work.setMaxListeners(0);
  }
  return s;
}

/** How long a read of `data_version` may be reused, at most: also never past its event-loop turn. */
const EPOCH_REUSE_MS = 1;

/**
 * `read`, reused by the later calls of the same event-loop turn for up to `EPOCH_REUSE_MS`. The
 * key cache asks for the epoch on every request, and each read of `data_version` is a read
 * transaction (its locks are system calls): as much CPU as the status endpoint's own row read.
 * Requests read from their sockets in one turn share a read; a request that arrives after
 * another process's commit (a revocation) is read in a later turn, which reads again (at worst,
 * bytes that land while a turn runs see a read at most 1 ms old).
 */
function turnMemo(read: () => number): () => number {
  let value = 0;
  let readAt = -Infinity;
  let fresh = false;
  return () => {
    const now = performance.now();
    if (fresh && now - readAt < EPOCH_REUSE_MS) return value;
    readAt = now;
    value = read();
    if (!fresh) {
      fresh = true;
      setImmediate(() => (fresh = false));
    }
    return value;
  };
}

/** One upload's rows, as `insertDocuments` takes them. */
interface Upload {
  accountId: string;
  batchName: string;
  docs: NewDocument[];
  now: number;
}

type Inserted = { batch: BatchRow; documents: DocumentRow[] };
type UploadResult = { value: Inserted } | { error: unknown };

/** Embedded-mode Store. `db` and `tx` are for sibling modules in src/store/sqlite/ only. */
export class SqliteStore implements Store {
  readonly db: Db;
  readonly webhooks: SqliteWebhookStore;
  readonly idempotency: SqliteIdempotencyStore;
  readonly rateLimits: RateLimitCounters;
  readonly retention: SqliteRetentionStore;
  readonly review: SqliteReviewStore;
  readonly blobs: BlobStore;
  readonly changes: LocalChanges;
  private readonly work: EventEmitter;
  /** The WAL's group fsync: commits made with synchronous=NORMAL become durable through it. */
  private readonly walSync: FsyncGroup;
  /**
   * `fn()` in a `BEGIN IMMEDIATE` transaction, and in a savepoint when already in one: wrappers
   * made once, where `db.transaction(fn)` builds four wrapper functions and their properties on
   * every call.
   */
  private readonly immediate: (fn: () => unknown) => unknown;
  private readonly nested: (fn: () => unknown) => unknown;
  /** Live batch rows as last read, while nothing has been written (`getBatch`). */
  private readonly batchRows: BatchRowCache;

  /**
   * The database file at `path`; uploads in `blobs` (an object store) or else in `blobDir`
   * (default: `blobs/` beside the file).
   */
  constructor(
    readonly path: string,
    opts: { blobDir?: string; blobs?: BlobStore } = {},
  ) {
    this.db = openDatabase(path);
    const run = this.db.transaction((fn: () => unknown) => fn());
    this.immediate = run.immediate;
    this.nested = run;
    this.walSync = new FsyncGroup(`${path}-wal`);
    const signals = signalsFor(resolve(path));
    this.work = signals.work;
    // data_version moves when another connection commits: a process that shares the file
    // (`tablemill keys revoke`) may have changed what this process's caches hold.
    const dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    this.changes = signals.changes.withEpoch(turnMemo(() => dataVersion.get() as number));
    this.batchRows = new BatchRowCache(this.changes.epoch, batchWrites(this.db));
    this.webhooks = new SqliteWebhookStore(this.db, this.changes);
    this.idempotency = new SqliteIdempotencyStore(this.db);
    this.rateLimits = sqliteRateLimits(this.db);
    this.retention = new SqliteRetentionStore(this.db, (fn) => this.tx(fn));
    this.review = new SqliteReviewStore(this.db);
    this.blobs = opts.blobs ?? new LocalBlobStore(opts.blobDir ?? join(dirname(path), 'blobs'));
  }

  /**
   * Runs `fn` in one `BEGIN IMMEDIATE` transaction (the write lock up front, so no transaction
   * fails on upgrading a read lock). `durable` fsyncs the WAL at commit (see `openDatabase`).
   */
  tx<T>(fn: () => T, opts: { durable?: boolean } = {}): T {
    if (!opts.durable) return this.immediate(fn) as T;
    this.db.pragma('synchronous = FULL');
    try {
      return this.immediate(fn) as T;
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  /**
   * `tx` for the calls that move documents: after the commit, `documents` is emitted when
   * `changed(out)`, and `webhooks` when the transaction wrote a batch event.
   */
  private write<T>(fn: () => T, changed: (out: T) => boolean, opts: { durable?: boolean } = {}): T {
    this.outboxWritten = false;
    const out = this.tx(fn, opts);
    if (changed(out)) this.changes.emit('documents');
    if (this.outboxWritten) this.changes.emit('webhooks');
    return out;
  }

  private outboxWritten = false;

  /** Wakes `waitForWork` callers in this process. */
  signalWork(): void {
    this.work.emit('work');
  }

  async migrate(): Promise<void> {
    migrateDatabase(this.db);
    watchBatchWrites(this.db);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.blobs.close();
    await this.walSync.close();
    if (this.db.open) this.db.close();
  }

  async getOrCreateAccount(name: string, now: number): Promise<Account> {
    return this.tx(() => {
      accounts.insertAccountIfMissing(this.db, { id: newId('acc'), name, created_at: now });
      return accounts.selectAccountByName(this.db, name) as Account;
    });
  }

  async createApiKey(accountId: string, keyHash: string, now: number): Promise<string> {
    const id = newId('key');
    this.tx(() => accounts.insertApiKey(this.db, { id, account_id: accountId, key_hash: keyHash, created_at: now }), { durable: true });
    return id;
  }

  async findAccountByKeyHash(keyHash: string): Promise<Account | null> {
    return accounts.selectKeyByHash(this.db, keyHash)?.account ?? null;
  }

  async findKey(keyHash: string): Promise<KeyAuth | null> {
    return accounts.selectKeyByHash(this.db, keyHash);
  }

  async touchApiKey(keyId: string, now: number): Promise<void> {
    this.tx(() => accounts.updateKeyLastUsed(this.db, keyId, now));
  }

  async listApiKeys(accountName?: string): Promise<ApiKeyRow[]> {
    return accounts.selectApiKeys(this.db, accountName ?? null);
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    const revoked = this.tx(() => accounts.updateKeyRevoked(this.db, keyId, now), { durable: true });
    if (revoked) this.changes.emit('keys');
    return revoked;
  }

  async insertDocuments(accountId: string, batchName: string, docs: NewDocument[], now: number): Promise<{ batch: BatchRow; documents: DocumentRow[] }> {
    const out = await this.uploads.add({ accountId, batchName, docs, now });
    if ('error' in out) throw out.error;
    return out.value;
  }

  /**
   * Uploads handed in while the last group waits for its WAL fsync go together in the next: one
   * transaction, each upload of a group of several in a savepoint of its own (one that fails is
   * rolled back and rejected alone), committed without an fsync and made durable by one WAL fsync shared with
   * concurrent writers (`FsyncGroup`). Each caller's 201 still follows its rows reaching the disk.
   */
  private readonly uploads = new GroupCommit<Upload, UploadResult>(async (group) => {
    const results = this.write(
      () =>
        // A group of one needs no savepoint: its failure rolls back the transaction and rejects it alone.
        group.length === 1
          ? [{ value: this.insertUpload(group[0]) }]
          : group.map((u): UploadResult => {
              try {
                return { value: this.nested(() => this.insertUpload(u)) as Inserted };
              } catch (error) {
                return { error };
              }
            }),
      (rs) => rs.some((r) => 'value' in r && r.value.documents.length > 0),
    );
    await this.walSync.sync();
    return results;
  });

  private insertUpload({ accountId, batchName, docs, now }: Upload): Inserted {
    const batch = batches.upsertLiveBatch(this.db, { id: newId('bat'), account_id: accountId, name: batchName, created_at: now }, deltas.uploaded(docs.length));
    for (const d of docs) documents.insertUploaded(this.db, accountId, batch.id, d, now);
    // The rows are what was just inserted: built here rather than read back (halves a 100k seed).
    const rows: DocumentRow[] = docs.map((d) => ({
      ...d,
      account_id: accountId,
      batch_id: batch.id,
      batch_name: batch.name,
      page_count: null,
      state: 'uploaded',
      attempts: 0,
      lease_until: null,
      created_at: now,
      started_at: null,
      completed_at: null,
      processing_error: null,
    }));
    return { batch, documents: rows };
  }

  async submitBatch(accountId: string, batchName: string, now: number, opts: SubmitOptions = {}): Promise<{ submitted: number; batch: BatchRow } | null> {
    const out = this.write(
      () => {
        const batch = batches.selectLiveBatch(this.db, accountId, batchName);
        if (!batch) return null;
        const submitted = documents.submitUploaded(this.db, batch.id, now, opts.options_json ?? null);
        return { submitted, batch: submitted ? batches.incrementRun(this.db, batch.id, submitted) : batch };
      },
      (out) => !!out?.submitted,
    );
    if (out?.submitted) this.signalWork();
    return out;
  }

  async getBatch(accountId: string, batchName: string): Promise<BatchRow | null> {
    return this.batchRows.get(accountId, batchName, () => batches.selectLiveBatch(this.db, accountId, batchName));
  }

  async getBatchById(accountId: string, batchId: string): Promise<BatchRow | null> {
    const b = batches.selectBatchById(this.db, batchId);
    return b && b.account_id === accountId ? b : null;
  }

  async listBatches(accountId: string, opts: { cursor: string | null; limit: number }): Promise<Page<BatchRow>> {
    return batchPages.page(batches.selectLiveBatchesPage(this.db, accountId, batchPages.after(opts.cursor), opts.limit + 1), opts.limit);
  }

  async deleteBatch(accountId: string, batchName: string, now: number): Promise<BatchRow | null> {
    return this.write(
      () => {
        const batch = batches.markBatchDeleted(this.db, accountId, batchName, now);
        if (!batch) return null;
        const n = documents.cancelNotStarted(this.db, batch.id, now);
        // A deleted batch sends no webhook (nobody can read it by name any more).
        return n ? batches.bumpBatch(this.db, batch.id, deltas.canceled(n, now)) : batch;
      },
      (out) => out !== null,
    );
  }

  async getDocument(accountId: string, id: string): Promise<DocumentRow | null> {
    return documents.selectDocument(this.db, accountId, id);
  }

  async getDocumentResult(accountId: string, id: string): Promise<DocumentResultRow | null> {
    return documents.selectDocumentResult(this.db, accountId, id);
  }

  async listBatchResults(accountId: string, batchId: string, opts: { cursor: string | null; limit: number }): Promise<Page<DocumentResultRow>> {
    const page = resultPages.page(documents.selectResultsPage(this.db, accountId, batchId, resultPages.after(opts.cursor) ?? 0, opts.limit + 1), opts.limit);
    return { items: page.items.map(({ seq: _seq, ...doc }) => doc), next_cursor: page.next_cursor };
  }

  async deleteDocument(accountId: string, id: string, now: number): Promise<{ outcome: 'canceled' | 'deleted' | 'conflict'; blob_key: string } | null> {
    return this.write(
      () => {
        const doc = documents.selectDocument(this.db, accountId, id);
        if (!doc) return null;
        const { action, status } = deletion(doc);
        if (action === 'cancel' && documents.cancelOne(this.db, id, now)) {
          this.afterTransition(batches.bumpBatch(this.db, doc.batch_id, deltas.canceled(1, now, doc.state === 'uploaded' ? 1 : 0)), now);
          return { outcome: 'canceled' as const, blob_key: doc.blob_key };
        }
        if (action === 'delete' && documents.deleteTerminal(this.db, id)) {
          batches.bumpBatch(this.db, doc.batch_id, deltas.removed(status));
          batches.recomputeSpan(this.db, doc.batch_id);
          return { outcome: 'deleted' as const, blob_key: doc.blob_key };
        }
        return { outcome: 'conflict' as const, blob_key: doc.blob_key };
      },
      (out) => out !== null && out.outcome !== 'conflict',
    );
  }

  async claimDocuments(limit: number, leaseMs: number, now: number): Promise<ClaimedDocument[]> {
    if (limit <= 0) return [];
    return this.write(() => {
      const rows = queue.claimPending(this.db, limit, now + leaseMs, now);
      for (const [batchId, n] of perBatch(rows, isFirstClaim)) batches.bumpBatch(this.db, batchId, deltas.firstClaimed(n, now));
      queue.markClaimed(this.db, new Set(rows.map((r) => r.batch_id as string)), now);
      return rows.map(toClaimed);
    }, (out) => out.length > 0);
  }

  async renewLease(id: string, attempt: number, leaseMs: number, now: number): Promise<boolean> {
    return queue.renewLeased(this.db, id, attempt, now + leaseMs);
  }

  async completeDocument(id: string, attempt: number, outcome: DocumentOutcome, now: number): Promise<boolean> {
    const out = this.write((): 'written' | 'held' | null => {
      const batchId = queue.completeLeased(this.db, id, attempt, outcome, now);
      if (!batchId) return queue.holdsOutcome(this.db, id, attempt, outcome) ? 'held' : null;
      if (outcome.status === 'succeeded') documents.insertResult(this.db, id, outcome.result_json);
      this.afterTransition(batches.bumpBatch(this.db, batchId, deltas.completed(outcome.status, now)), now);
      return 'written';
    }, (out) => out === 'written');
    return out !== null;
  }

  async releaseLease(id: string, attempt: number, now: number): Promise<boolean> {
    const released = this.write(() => queue.releaseLeased(this.db, id, attempt, now) !== null, (ok) => ok);
    if (released) this.signalWork();
    return released;
  }

  async reapExpiredLeases(maxAttempts: number, now: number): Promise<{ requeued: number; failed: number }> {
    const out = this.write(() => {
      const rows = queue.reapExpired(this.db, maxAttempts, now);
      let failed = 0;
      for (const [batchId, n] of perBatch(rows, (r) => r.state === 'failed')) {
        this.afterTransition(batches.bumpBatch(this.db, batchId, deltas.reapedFailed(n, now)), now);
        failed += n;
      }
      return { requeued: rows.length - failed, failed };
    }, (out) => out.requeued + out.failed > 0);
    if (out.requeued) this.signalWork();
    return out;
  }

  waitForWork(ms: number, signal?: AbortSignal): Promise<void> {
    return nextEvent(this.work, 'work', ms, signal);
  }

  async listBatchEvents(batchId: string): Promise<BatchEvent[]> {
    return events.selectBatchEvents(this.db, batchId);
  }

  async recountBatch(batchId: string): Promise<BatchRecount | null> {
    return batches.selectBatchById(this.db, batchId) ? batches.recountBatchRow(this.db, batchId) : null;
  }

  async documentStats(): Promise<{ documentsByStatus: StatusCounts; queueDepth: number }> {
    return batches.selectDocumentStats(this.db);
  }

  /** The outbox hook: `writesCompletedEvent` decides, and the flag says one was written. */
  private afterTransition(batch: BatchRow, now: number): void {
    if (writesCompletedEvent(batch)) this.outboxWritten = events.insertBatchCompleted(this.db, newId('evt'), batch, now) || this.outboxWritten;
  }
}
