/**
 * The process's Prometheus metrics on prom-client, one registry per process (per app in tests):
 * HTTP requests, document outcomes, extraction time by kind, queue wait, OCR time, webhook
 * attempts, and the RSS of the process and of its extraction children. The API answers them on
 * `/metrics`; a `tablemill worker` on `TABLEMILL_METRICS_PORT` (`server.ts` here).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StatusCounts } from '../domain/batch.js';

/** Upper bounds in seconds; the status endpoint's p99 target is 5 ms, so the low end is fine-grained. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A digital page takes ~0.05–0.5 s, an OCR'd page 1–5 s, a document up to the 120 s limit. */
const WORK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** From a busy worker's next claim (ms) to a backlog of hours. */
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14400];

/** What a finished extraction reports for its document. */
export interface ExtractionObservation {
  /** `pdf` or `image`, from the stored content type. */
  kind: string;
  /** `succeeded`, or the `processing_error` code. */
  outcome: string;
  seconds: number;
  /** OCR engine that read pages (`addon`, `program`, `js`), or null when no page was OCR'd. */
  ocrEngine: string | null;
  ocrSeconds: number;
}

/** Metrics of one process. */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({ name: 'tablemill_http_requests_total', help: 'HTTP requests answered, by route and status.', labelNames: ['method', 'route', 'status'] as const, registers: [this.registry] });
  private readonly httpDuration = new Histogram({ name: 'tablemill_http_request_duration_seconds', help: 'Time to answer, by route.', labelNames: ['method', 'route'] as const, buckets: HTTP_BUCKETS, registers: [this.registry] });
  private readonly documentsProcessed = new Counter({ name: 'tablemill_documents_processed_total', help: 'Document outcomes written by this process.', labelNames: ['status'] as const, registers: [this.registry] });
  private readonly extraction = new Histogram({ name: 'tablemill_extraction_duration_seconds', help: 'Extraction time of a document, by kind (pdf, image) and outcome.', labelNames: ['kind', 'outcome'] as const, buckets: WORK_BUCKETS, registers: [this.registry] });
  private readonly ocr = new Histogram({ name: 'tablemill_ocr_duration_seconds', help: 'OCR time of a document whose pages were OCR-read, by engine.', labelNames: ['engine'] as const, buckets: WORK_BUCKETS, registers: [this.registry] });
  private readonly queueWait = new Histogram({ name: 'tablemill_queue_wait_seconds', help: 'Time from a document entering the queue to its claim.', buckets: WAIT_BUCKETS, registers: [this.registry] });
  private readonly webhookAttempts = new Histogram({ name: 'tablemill_webhook_attempt_duration_seconds', help: 'Webhook delivery attempts by outcome (delivered, retry, failed, disabled).', labelNames: ['outcome'] as const, buckets: HTTP_BUCKETS, registers: [this.registry] });
  private readonly storeFaults = new Counter({ name: 'tablemill_store_faults_total', help: 'Operations refused because the disk or blob store was full (storage_full) or the database could not be reached (unavailable), by component (api, worker).', labelNames: ['fault', 'component'] as const, registers: [this.registry] });
  private readonly documents = new Gauge({ name: 'tablemill_documents', help: 'Documents by public status, all accounts.', labelNames: ['status'] as const, registers: [this.registry] });
  private readonly queueDepth = new Gauge({ name: 'tablemill_queue_depth', help: 'Documents submitted and waiting for a worker.', registers: [this.registry] });
  private readonly childRss = new Gauge({ name: 'tablemill_extraction_child_resident_memory_bytes', help: 'RSS of each extraction child process, by slot.', labelNames: ['slot'] as const, registers: [this.registry] });
  private childMemory: (() => Array<{ rssMb: number } | null>) | null = null;

  constructor() {
    // process_resident_memory_bytes, heap, event-loop lag, … of this process.
    collectDefaultMetrics({ register: this.registry });
  }

  /** Records one answered request; `route` is the route pattern, never the raw URL (bounded labels). */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  /** Counts a document outcome written by this process's workers. */
  documentProcessed(status: string): void {
    this.documentsProcessed.inc({ status });
  }

  /** Records one document's extraction. */
  extracted(o: ExtractionObservation): void {
    this.extraction.observe({ kind: o.kind, outcome: o.outcome }, o.seconds);
    if (o.ocrEngine) this.ocr.observe({ engine: o.ocrEngine }, o.ocrSeconds);
  }

  /** Records the wait of a claimed document. */
  queueWaited(seconds: number): void {
    this.queueWait.observe(Math.max(0, seconds));
  }

  /** Records one webhook delivery attempt. */
  webhookAttempt(outcome: string, seconds: number): void {
    this.webhookAttempts.observe({ outcome }, seconds);
  }

  /** When this process last met a full disk or blob store, and last stored something after it (ms). */
  readonly storage = { fullAt: 0, okAt: 0 };

  /** Counts an operation refused for a full disk or an unreachable database. */
  storeFault(fault: 'storage_full' | 'unavailable', component: 'api' | 'worker', at = Date.now()): void {
    this.storeFaults.inc({ fault, component });
    if (fault === 'storage_full') this.storage.fullAt = at;
  }

  /** Whether a write met a full disk or blob store within `withinMs` and nothing was stored since. */
  storageFullRecently(now = Date.now(), withinMs = 60_000): boolean {
    const { fullAt, okAt } = this.storage;
    return fullAt > okAt && now - fullAt < withinMs;
  }

  /** Notes a write that went through (an upload stored, an outcome written): space is back. */
  stored(at = Date.now()): void {
    this.storage.okAt = at;
  }

  /** Reads the extraction children's memory at every scrape. */
  watchExtractionChildren(memory: () => Array<{ rssMb: number } | null>): void {
    this.childMemory = memory;
  }

  /** The exposition text; `gauges` are read from the store at scrape time. */
  async render(gauges: { documentsByStatus: StatusCounts | null; queueDepth: number | null } = { documentsByStatus: null, queueDepth: null }): Promise<string> {
    this.documents.reset();
    if (gauges.documentsByStatus) for (const [status, n] of Object.entries(gauges.documentsByStatus)) this.documents.set({ status }, n);
    this.queueDepth.reset();
    if (gauges.queueDepth !== null) this.queueDepth.set(gauges.queueDepth);
    this.childRss.reset();
    this.childMemory?.().forEach((m, slot) => {
      if (m) this.childRss.set({ slot: String(slot) }, Math.round(m.rssMb * 1024 * 1024));
    });
    return this.registry.metrics();
  }

  /** The exposition's content type. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
