/**
 * What the HTTP app is built from. Plugins of other features (webhooks, rate limits, exports)
 * receive the same object, so each registers from app.ts with one line.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../blobs/types.js';
import type { Config } from '../config.js';
import type { StatusCounts } from '../domain/batch.js';
import type { Account, BatchRow, DocumentResultRow, Store } from '../store/types.js';
import type { Metrics } from '../metrics/index.js';

/** Serves `?format=<name>` of the results routes (csv, xlsx, ndjson). */
export interface ResultExporter {
  /** A batch's results; the exporter pages through `store.listBatchResults` itself. */
  batch(ctx: { deps: AppDeps; account: Account; batch: BatchRow; request: FastifyRequest; reply: FastifyReply }): Promise<unknown>;
  /** One document's results. */
  document(ctx: { deps: AppDeps; account: Account; row: DocumentResultRow; request: FastifyRequest; reply: FastifyReply }): Promise<unknown>;
}

export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  metrics: Metrics;
  /** Exporters by format name; `json` is built in. */
  exporters: Partial<Record<'csv' | 'xlsx' | 'ndjson' | 'zip', ResultExporter>>;
  /** Store-wide gauges for /metrics, when the store can count them. */
  stats?: () => Promise<{ documentsByStatus: StatusCounts; queueDepth: number }>;
  /** The clock, ms since the epoch. */
  now: () => number;
  /** Aborted when the process starts to stop: readiness fails and page renders end at once. */
  stopping?: AbortSignal;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Set on the two status endpoints (API.md §3): their rate-limit class and the resource that
     * ETag / long-poll watch. Other /v1 routes leave it unset (the default class).
     */
    statusResource?: 'batch' | 'document';
  }
}
