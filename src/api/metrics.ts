/**
 * Prometheus text exposition, hand-rolled: one counter and one histogram of HTTP requests and
 * gauges filled at scrape time. A client library would add a dependency for ~80 lines.
 */
import type { StatusCounts } from '../domain/batch.js';

/** Upper bounds in seconds; the status endpoint's p99 target is 5 ms, so the low end is fine-grained. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Request metrics of one process. */
export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Series>();
  private readonly documents = new Map<string, number>();

  /** Records one answered request; `route` is the route pattern, never the raw URL (bounded labels). */
  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method}\u0000${route}\u0000${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const lkey = `${method}\u0000${route}`;
    let s = this.latency.get(lkey);
    if (!s) {
      s = { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
      this.latency.set(lkey, s);
    }
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) s.buckets[i]++;
  }

  /** Counts a document outcome written by this process's workers. */
  documentProcessed(status: string): void {
    this.documents.set(status, (this.documents.get(status) ?? 0) + 1);
  }

  /** The exposition text; `gauges` are read from the store at scrape time. */
  render(gauges: { documentsByStatus: StatusCounts | null; queueDepth: number | null }): string {
    const out: string[] = [];
    out.push('# HELP tablemill_http_requests_total HTTP requests answered, by route and status.');
    out.push('# TYPE tablemill_http_requests_total counter');
    for (const [key, n] of this.requests) {
      const [method, route, status] = key.split('\u0000');
      out.push(`tablemill_http_requests_total{method="${method}",route="${label(route)}",status="${status}"} ${n}`);
    }
    out.push('# HELP tablemill_http_request_duration_seconds Time to answer, by route.');
    out.push('# TYPE tablemill_http_request_duration_seconds histogram');
    for (const [key, s] of this.latency) {
      const [method, route] = key.split('\u0000');
      const l = `method="${method}",route="${label(route)}"`;
      BUCKETS.forEach((b, i) => out.push(`tablemill_http_request_duration_seconds_bucket{${l},le="${b}"} ${s.buckets[i]}`));
      out.push(`tablemill_http_request_duration_seconds_bucket{${l},le="+Inf"} ${s.count}`);
      out.push(`tablemill_http_request_duration_seconds_sum{${l}} ${s.sum}`);
      out.push(`tablemill_http_request_duration_seconds_count{${l}} ${s.count}`);
    }
    out.push('# HELP tablemill_documents_processed_total Document outcomes written by this process.');
    out.push('# TYPE tablemill_documents_processed_total counter');
    for (const [status, n] of this.documents) out.push(`tablemill_documents_processed_total{status="${status}"} ${n}`);
    if (gauges.documentsByStatus) {
      out.push('# HELP tablemill_documents Documents by public status, all accounts.');
      out.push('# TYPE tablemill_documents gauge');
      for (const [status, n] of Object.entries(gauges.documentsByStatus)) out.push(`tablemill_documents{status="${status}"} ${n}`);
    }
    if (gauges.queueDepth !== null) {
      out.push('# HELP tablemill_queue_depth Documents submitted and waiting for a worker.');
      out.push('# TYPE tablemill_queue_depth gauge');
      out.push(`tablemill_queue_depth ${gauges.queueDepth}`);
    }
    return out.join('\n') + '\n';
  }
}
