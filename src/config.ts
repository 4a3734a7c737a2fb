/**
 * The one configuration object: parsed and validated once from the environment,
 * then flags, and passed down. No other module reads `process.env`.
 */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { OCR_ENGINES, type ExtractOptions, type OcrEngine } from './extract/types.js';
import type { S3BlobsConfig } from './blobs/types.js';

export type { S3BlobsConfig };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A `postgres://` URL selects cluster mode; null means embedded SQLite under `dataDir`. */
  databaseUrl: string | null;
  /** PostgreSQL schema holding every table (tests isolate themselves with it); null: the default. */
  dbSchema: string | null;
  /** Where originals live: null is the store's own (files under `dataDir`, or PostgreSQL tables). */
  blobs: S3BlobsConfig | null;
  limits: {
    maxFileBytes: number;
    maxFilesPerRequest: number;
    maxPages: number;
    maxMegapixels: number;
    /** Bytes that a PDF's non-image streams may inflate to, all together (resource_limit). */
    maxInflatedBytes: number;
  };
  worker: {
    /** Extraction slots (child processes) per process. */
    concurrency: number;
    /** Per-document time limit. */
    timeoutMs: number;
    /** V8 heap limit of one extraction child process. */
    maxHeapMb: number;
    /** RSS above which a child is killed and its document fails `resource_limit`. */
    maxRssMb: number;
    /** Documents after which a child is replaced by a fresh one. */
    recycleAfter: number;
    /** RSS above which an idle child is replaced (gives the memory back to the system). */
    recycleRssMb: number;
    leaseMs: number;
    maxAttempts: number;
    /** How long a stopping worker lets its documents finish before giving their leases back. */
    shutdownGraceMs: number;
    /** Idle polling interval when no wake-up arrives. */
    pollMs: number;
  };
  /** Page images for viewers (`GET /v1/documents/{id}/pages/{n}.png`). */
  pages: {
    /** Child processes rendering at once in an API process. */
    processes: number;
    /** Time limit of one page render. */
    timeoutMs: number;
  };
  /** Upload bodies: the idle timeout and the uploads in flight per client address. */
  uploads: {
    /** A body that sends nothing this long is cut with 408; 0: never. */
    idleTimeoutMs: number;
    /** Uploads one client address may run at once in an API process (429 beyond); 0: no cap. */
    maxPerAddress: number;
  };
  ocr: { langs: string; engine: OcrEngine };
  webhooks: { allowPrivate: boolean; retryScheduleMs: number[]; timeoutMs: number };
  rateLimits: {
    enabled: boolean;
    statusPerMinute: number;
    defaultPerMinute: number;
    /** Failed authentications a client address may make a minute (429 beyond); 0: no limit. Independent of `enabled`. */
    authFailuresPerMinute: number;
  };
  /**
   * Peers whose `X-Forwarded-For` is believed (addresses and CIDR ranges): from them the client is
   * the right-most untrusted address of the header. Empty: the peer is the client.
   */
  trustedProxies: string[];
  logLevel: string;
  /** Where `tablemill worker` answers `/metrics` (on `host`); null: nowhere. */
  metricsPort: number | null;
  /** Terminal documents older than this many days are purged; null: kept for ever. */
  retentionDays: number | null;
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`invalid configuration: ${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

const MiB = 1024 * 1024;

/** Maps flag names (`--port`) to the environment variable they override. */
export const FLAG_TO_ENV: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  'data-dir': 'TABLEMILL_DATA_DIR',
  'database-url': 'DATABASE_URL',
  concurrency: 'TABLEMILL_WORKER_CONCURRENCY',
  'max-file-mb': 'TABLEMILL_MAX_FILE_MB',
  'max-files': 'TABLEMILL_MAX_FILES',
  'max-pages': 'TABLEMILL_MAX_PAGES',
  'max-megapixels': 'TABLEMILL_MAX_MEGAPIXELS',
  'timeout-ms': 'TABLEMILL_DOCUMENT_TIMEOUT_MS',
  'lease-ms': 'TABLEMILL_LEASE_MS',
  'max-attempts': 'TABLEMILL_MAX_ATTEMPTS',
  'shutdown-grace-ms': 'TABLEMILL_SHUTDOWN_GRACE_MS',
  'ocr-langs': 'TABLEMILL_OCR_LANGS',
  'ocr-engine': 'TABLEMILL_OCR_ENGINE',
  'log-level': 'TABLEMILL_LOG_LEVEL',
  'metrics-port': 'TABLEMILL_METRICS_PORT',
};

function int(env: Record<string, string | undefined>, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Record<string, string | undefined>, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `expected a boolean (1/0, true/false), got ${JSON.stringify(raw)}`);
}

/** `TABLEMILL_TRUSTED_PROXIES`: comma-separated IPv4/IPv6 addresses and CIDR ranges. */
export function trustedProxies(e: Record<string, string | undefined>): string[] {
  const name = 'TABLEMILL_TRUSTED_PROXIES';
  const raw = (e[name] ?? '').trim();
  if (raw === '') return [];
  return raw.split(',').map((part) => {
    const entry = part.trim();
    const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry);
    const family = m ? isIP(m[1]) : 0;
    if (!m || family === 0) throw new ConfigError(name, `expected addresses or CIDR ranges (10.0.0.0/8, fd00::/8), got ${JSON.stringify(entry)}`);
    if (m[2] !== undefined && Number(m[2]) > (family === 4 ? 32 : 128)) throw new ConfigError(name, `prefix length out of range in ${JSON.stringify(entry)}`);
    return entry;
  });
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function isOcrEngine(s: string): s is OcrEngine {
  return (OCR_ENGINES as readonly string[]).includes(s);
}

/** Parses `5s,5m,30m,2h` into milliseconds. */
export function parseDurations(setting: string, raw: string): number[] {
  return raw.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!m) throw new ConfigError(setting, `expected durations like 5s,5m,2h; got ${JSON.stringify(part)}`);
    return Number(m[1]) * UNIT_MS[m[2]];
  });
}

/** `TABLEMILL_BLOBS` and the AWS SDK's standard variables; null when unset. */
function blobsConfig(e: Record<string, string | undefined>): S3BlobsConfig | null {
  const raw = (e.TABLEMILL_BLOBS ?? '').trim();
  if (raw === '') return null;
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
  if (!m) throw new ConfigError('TABLEMILL_BLOBS', `expected s3://BUCKET/PREFIX, got ${JSON.stringify(raw)}`);
  const bucket = m[1];
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError('TABLEMILL_BLOBS', `not a valid bucket name: ${JSON.stringify(bucket)}`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(prefix)) throw new ConfigError('TABLEMILL_BLOBS', 'the prefix has control characters');
  const endpointRaw = (e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL ?? '').trim();
  let endpoint: string | null = null;
  if (endpointRaw !== '') {
    try {
      const u = new URL(endpointRaw);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
      endpoint = endpointRaw;
    } catch {
      throw new ConfigError('AWS_ENDPOINT_URL', `expected an http(s) URL, got ${JSON.stringify(endpointRaw)}`);
    }
  }
  const region = (e.AWS_REGION ?? e.AWS_DEFAULT_REGION ?? '').trim() || 'us-east-1';
  const id = (e.AWS_ACCESS_KEY_ID ?? '').trim();
  const secret = (e.AWS_SECRET_ACCESS_KEY ?? '').trim();
  if ((id === '') !== (secret === '')) throw new ConfigError('AWS_ACCESS_KEY_ID', 'set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither');
  const token = (e.AWS_SESSION_TOKEN ?? '').trim();
  const credentials = id === '' ? null : { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
  return { bucket, prefix, endpoint, region, credentials };
}

/** Builds the config from an environment and `--flag value` / `--flag=value` overrides. */
export function loadConfig(env: Record<string, string | undefined> = process.env, flags: Record<string, string> = {}): Config {
  const e: Record<string, string | undefined> = { ...env };
  for (const [flag, value] of Object.entries(flags)) {
    const name = FLAG_TO_ENV[flag];
    if (name) e[name] = value;
  }
  const databaseUrl = e.DATABASE_URL && e.DATABASE_URL.trim() !== '' ? e.DATABASE_URL.trim() : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'only postgres:// URLs are supported (leave it unset for embedded SQLite)');
  }
  const dbSchema = e.TABLEMILL_DB_SCHEMA && e.TABLEMILL_DB_SCHEMA.trim() !== '' ? e.TABLEMILL_DB_SCHEMA.trim() : null;
  if (dbSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(dbSchema)) throw new ConfigError('TABLEMILL_DB_SCHEMA', 'expected a lower-case SQL identifier');
  const host = (e.HOST ?? '127.0.0.1').trim();
  if (host === '') throw new ConfigError('HOST', 'must not be empty');
  const engine = (e.TABLEMILL_OCR_ENGINE ?? 'auto').trim();
  if (!isOcrEngine(engine)) {
    throw new ConfigError('TABLEMILL_OCR_ENGINE', `expected ${OCR_ENGINES.join(', ')}, got ${JSON.stringify(engine)}`);
  }
  const langs = (e.TABLEMILL_OCR_LANGS ?? 'eng').trim();
  if (!/^[a-z_]{3,}(\+[a-z_]{3,})*$/.test(langs)) throw new ConfigError('TABLEMILL_OCR_LANGS', `expected e.g. eng or eng+deu, got ${JSON.stringify(langs)}`);
  const retry = e.TABLEMILL_WEBHOOK_RETRY_SCHEDULE ?? '5s,5m,30m,2h,5h,10h,10h';
  return {
    port: int(e, 'PORT', 8080, 0, 65535),
    host,
    dataDir: resolve(e.TABLEMILL_DATA_DIR && e.TABLEMILL_DATA_DIR !== '' ? e.TABLEMILL_DATA_DIR : './data'),
    databaseUrl,
    dbSchema,
    blobs: blobsConfig(e),
    limits: {
      maxFileBytes: int(e, 'TABLEMILL_MAX_FILE_MB', 25, 1, 4096) * MiB,
      maxFilesPerRequest: int(e, 'TABLEMILL_MAX_FILES', 100, 1, 10_000),
      maxPages: int(e, 'TABLEMILL_MAX_PAGES', 100, 1, 100_000),
      maxMegapixels: int(e, 'TABLEMILL_MAX_MEGAPIXELS', 50, 1, 1000),
      maxInflatedBytes: int(e, 'TABLEMILL_MAX_INFLATED_MB', 256, 1, 65_536) * MiB,
    },
    worker: {
      concurrency: int(e, 'TABLEMILL_WORKER_CONCURRENCY', availableParallelism(), 0, 256),
      timeoutMs: int(e, 'TABLEMILL_DOCUMENT_TIMEOUT_MS', 120_000, 100, 86_400_000),
      maxHeapMb: int(e, 'TABLEMILL_WORKER_HEAP_MB', 1024, 64, 65_536),
      maxRssMb: int(e, 'TABLEMILL_WORKER_MAX_RSS_MB', 1536, 64, 1_048_576),
      recycleAfter: int(e, 'TABLEMILL_WORKER_RECYCLE_AFTER', 200, 1, 1_000_000),
      recycleRssMb: int(e, 'TABLEMILL_WORKER_RECYCLE_RSS_MB', 300, 32, 1_048_576),
      leaseMs: int(e, 'TABLEMILL_LEASE_MS', 30_000, 100, 86_400_000),
      maxAttempts: int(e, 'TABLEMILL_MAX_ATTEMPTS', 3, 1, 100),
      shutdownGraceMs: int(e, 'TABLEMILL_SHUTDOWN_GRACE_MS', 30_000, 0, 3_600_000),
      pollMs: int(e, 'TABLEMILL_POLL_MS', 1000, 10, 60_000),
    },
    pages: {
      processes: int(e, 'TABLEMILL_RENDER_PROCESSES', 2, 1, 64),
      timeoutMs: int(e, 'TABLEMILL_RENDER_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    ocr: { langs, engine },
    uploads: {
      idleTimeoutMs: int(e, 'TABLEMILL_UPLOAD_IDLE_TIMEOUT_MS', 30_000, 0, 3_600_000),
      maxPerAddress: int(e, 'TABLEMILL_UPLOADS_PER_ADDRESS', 32, 0, 100_000),
    },
    webhooks: {
      allowPrivate: bool(e, 'TABLEMILL_WEBHOOK_ALLOW_PRIVATE', false),
      retryScheduleMs: parseDurations('TABLEMILL_WEBHOOK_RETRY_SCHEDULE', retry),
      timeoutMs: int(e, 'TABLEMILL_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    },
    rateLimits: {
      enabled: bool(e, 'TABLEMILL_RATE_LIMITS', true),
      statusPerMinute: int(e, 'TABLEMILL_RATE_LIMIT_STATUS', 120, 1, 1_000_000),
      defaultPerMinute: int(e, 'TABLEMILL_RATE_LIMIT_DEFAULT', 600, 1, 1_000_000),
      authFailuresPerMinute: int(e, 'TABLEMILL_RATE_LIMIT_AUTH_FAILURES', 30, 0, 1_000_000),
    },
    trustedProxies: trustedProxies(e),
    logLevel: (e.TABLEMILL_LOG_LEVEL ?? 'info').trim(),
    metricsPort: e.TABLEMILL_METRICS_PORT ? int(e, 'TABLEMILL_METRICS_PORT', 0, 0, 65535) : null,
    retentionDays: e.TABLEMILL_RETENTION_DAYS ? int(e, 'TABLEMILL_RETENTION_DAYS', 0, 1, 36_500) : null,
  };
}

/** The engine's bounds and OCR settings as the configuration gives them (service and scripts alike). */
export function extractOptions(config: Config): ExtractOptions {
  return {
    maxPages: config.limits.maxPages,
    maxMegapixels: config.limits.maxMegapixels,
    maxInflatedBytes: config.limits.maxInflatedBytes,
    ocrLangs: config.ocr.langs,
    ocrEngine: config.ocr.engine,
  };
}
