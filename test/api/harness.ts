/** An in-process app over a real SQLite file and blob folder in a temp dir, driven with `app.inject()`. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { createKey } from '../../src/api/auth.js';
import type { AppDeps } from '../../src/api/deps.js';
import { Metrics } from '../../src/metrics/index.js';
import { loadConfig } from '../../src/config.js';
import { openStorage } from '../../src/server.js';

export interface ApiHarness {
  app: FastifyInstance;
  deps: AppDeps;
  dir: string;
  key(account: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens the app; `env` overrides the config (rate limits are off unless set). */
export async function openApi(env: Record<string, string> = {}, logger: FastifyServerOptions['logger'] = false): Promise<ApiHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-api-'));
  const config = loadConfig({ TABLEMILL_DATA_DIR: dir, TABLEMILL_RATE_LIMITS: '0', ...env });
  const { store, blobs } = await openStorage(config);
  const deps: AppDeps = { config, store, blobs, metrics: new Metrics(), exporters: {}, stats: () => store.documentStats(), now: Date.now };
  const app = await buildApp(deps, { logger });
  await app.ready();
  return {
    app,
    deps,
    dir,
    key: async (account) => (await createKey(store, account, Date.now())).key,
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart body as the platform's FormData encodes it, for `inject`. */
export async function multipart(files: { name: string; bytes: Uint8Array; field?: string; type?: string }[]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const f of files) form.append(f.field ?? 'file', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), headers: { 'content-type': req.headers.get('content-type')! } };
}
