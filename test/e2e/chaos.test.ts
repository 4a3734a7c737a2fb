// Chaos on PostgreSQL: 2 API processes and 2 worker processes on one schema, 500 documents, and
// a random process killed with SIGKILL every 2 s and started again. At the end every document is
// terminal with one result, each batch's counters equal a recount of its documents, every file is
// there byte for byte, and each batch announced `batch.completed` exactly once (one event id,
// however often it was delivered). Run twice: originals in PostgreSQL, then (smaller, 200
// documents, to keep the suite's time) in an S3 bucket served by s3rver (TABLEMILL_BLOBS=s3://…).
// Skipped without TABLEMILL_TEST_DATABASE_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { TablemillClient } from '@tablemill/client';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { hashApiKey } from '../../src/api/auth.js';
import { startReceiver } from '../webhooks/receiver.js';
import { BIN, childEnv, createKeyCli, serve, type ServeProcess } from './server.js';
import { startS3rver, type S3Server } from '../blobs/s3rver.js';

const url = process.env.TABLEMILL_TEST_DATABASE_URL;
const schemaBase = `e2e_chaos_${randomBytes(5).toString('hex')}`;
const PER_BATCH = 100;

/** A one-page digital PDF with a small table whose numbers make every document's bytes unique. */
async function smallPdf(n: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const rows = [['Item', 'Qty', 'Amount'], [`Part ${n}`, String(n % 7 + 1), `${n}.50`], ['Service', '2', '19.00']];
  rows.forEach((row, r) => row.forEach((text, c) => page.drawText(text, { x: 60 + c * 150, y: 760 - r * 22, size: 11, font })));
  return Buffer.from(await doc.save());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Proc {
  kind: 'api' | 'worker';
  kill9(): Promise<void>;
}

function startWorker(env: Record<string, string>): Proc {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'worker'], { env: childEnv(env), stdio: ['ignore', 'ignore', 'ignore'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    kind: 'worker',
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function apiProc(s: ServeProcess): Proc {
  return { kind: 'api', kill9: () => s.kill9() };
}

if (!url) {
  describe.skip('chaos (postgresql)', () => it('needs TABLEMILL_TEST_DATABASE_URL', () => {}));
} else {
  let s3: S3Server | null = null;
  afterAll(async () => {
    await s3?.close();
  });
  chaos('originals in PostgreSQL', 5, async () => ({}), 'pg');
  chaos('originals in S3 (s3rver)', 2, async () => (s3 ??= await startS3rver()).env('chaos'), 's3');
}

/** The chaos run on `batches` batches of PER_BATCH documents, with `blobEnv` added to every process. */
function chaos(label: string, batches: number, blobEnv: () => Promise<Record<string, string>>, tag: string): void {
  const schema = `${schemaBase}_${tag}`;
  describe(`chaos: SIGKILL of API and worker processes on PostgreSQL, ${label}`, () => {
    const procs: Proc[] = [];
    // The kill-and-restart loop, stopped before the processes are killed (also after a timeout).
    let stop = false;
    let chaosLoop: Promise<void> = Promise.resolve();
    afterAll(async () => {
      stop = true;
      await chaosLoop;
      for (const p of procs) await p.kill9();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    });

    it(`${batches * PER_BATCH} documents end terminal with one result each, counters, files and one batch.completed per batch`, async () => {
      const rx = await startReceiver();
      const env = {
        ...(await blobEnv()),
        DATABASE_URL: url!,
        TABLEMILL_DB_SCHEMA: schema,
        TABLEMILL_WORKER_CONCURRENCY: '1',
        TABLEMILL_LEASE_MS: '2000',
        TABLEMILL_POLL_MS: '200',
        TABLEMILL_WEBHOOK_ALLOW_PRIVATE: '1',
        TABLEMILL_WEBHOOK_RETRY_SCHEDULE: '1s',
        TABLEMILL_MAX_ATTEMPTS: '10',
      };
      const key = createKeyCli(env, 'chaos');
      const ports = [await freePort(), await freePort()];
      const apis = [await serve({ ...env, PORT: String(ports[0]) }, ['--no-workers']), await serve({ ...env, PORT: String(ports[1]) }, ['--no-workers'])];
      procs.push(apiProc(apis[0]), apiProc(apis[1]), startWorker(env), startWorker(env));
      const clients = ports.map((p) => new TablemillClient(`http://127.0.0.1:${p}`, key));
      /** Runs `fn` on the API processes in turn until one answers (one may be down). */
      let turn = 0;
      async function anyApi<T>(fn: (c: TablemillClient) => Promise<T>): Promise<T> {
        for (let tries = 0; ; tries++) {
          try {
            return await fn(clients[turn++ % clients.length]);
          } catch (err) {
            if (tries > 200) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }

      // Uploads first, with no process killed: an upload cut off by a kill is the client's to retry.
      const sha = new Map<string, string>();
      for (let b = 0; b < batches; b++) {
        for (let chunk = 0; chunk < PER_BATCH; chunk += 25) {
          const files = await Promise.all(Array.from({ length: 25 }, async (_, i) => ({ filename: `doc-${b}-${chunk + i}.pdf`, data: await smallPdf(b * PER_BATCH + chunk + i) })));
          const up = await clients[chunk % 2].upload(`chaos-${b}`, files);
          for (const d of up.documents) sha.set(d.id, d.sha256);
        }
        await clients[b % 2].setWebhook(`chaos-${b}`, { url: `${rx.base}/hook/${b}` });
      }
      expect(sha.size).toBe(batches * PER_BATCH);
      for (let b = 0; b < batches; b++) await clients[b % 2].process(`chaos-${b}`);

      // Chaos: every 2 s a random process is killed and a new one of its kind started.
      const t0 = Date.now();
      let kills = 0;
      chaosLoop = (async () => {
        while (!stop) {
          await new Promise((r) => setTimeout(r, 2000));
          if (stop) break;
          const i = Math.floor(Math.random() * procs.length);
          await procs[i].kill9();
          kills++;
          if (procs[i].kind === 'worker') procs[i] = startWorker(env);
          else {
            // procs[0] and procs[1] are the API processes, on ports[0] and ports[1].
            apis[i] = await serve({ ...env, PORT: String(ports[i]) }, ['--no-workers']);
            procs[i] = apiProc(apis[i]);
          }
        }
      })();

      const deadline = Date.now() + 240_000;
      try {
        for (let b = 0; b < batches; b++) {
          for (;;) {
            const batch = await anyApi((c) => c.getBatch(`chaos-${b}`));
            if (batch.all_done) break;
            expect(Date.now(), JSON.stringify(batch.counts)).toBeLessThan(deadline);
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      } finally {
        stop = true;
        await chaosLoop;
      }
      const seconds = (Date.now() - t0) / 1000;

      // Every document terminal with exactly one result, and its file byte for byte.
      let succeeded = 0;
      for (let b = 0; b < batches; b++) {
        const results = await anyApi((c) => c.results(`chaos-${b}`));
        const ids = results.map((r) => r.id);
        expect(new Set(ids).size).toBe(PER_BATCH);
        expect(ids.length).toBe(PER_BATCH);
        for (const r of results) {
          expect(['succeeded', 'failed', 'canceled']).toContain(r.status);
          if (r.status === 'succeeded') succeeded++;
        }
      }
      let filesChecked = 0;
      for (const [id, digest] of sha) {
        if (filesChecked++ % 10 !== 0) continue; // one in ten over HTTP; the store check below covers all
        const file = await anyApi((c) => c.documentFile(id));
        expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(digest);
      }

      // Counters equal a recount, and every blob is present, straight from the store.
      const store = await openStore(loadConfig(childEnv(env)));
      try {
        const account = await store.findAccountByKeyHash(hashApiKey(key));
        for (let b = 0; b < batches; b++) {
          const row = (await store.getBatch(account!.id, `chaos-${b}`))!;
          const re = (await store.recountBatch(row.id))!;
          expect(row.counts).toEqual(re.counts);
          expect(row.document_count).toBe(re.document_count);
        }
        for (const [id] of sha) {
          const doc = (await store.getDocument(account!.id, id))!;
          const bytes = await store.blobs.get(doc.blob_key);
          expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha.get(id));
        }
      } finally {
        await store.close();
      }

      // Exactly one batch.completed event per batch (deliveries of one event share its id).
      const hookDeadline = Date.now() + 60_000;
      for (let b = 0; b < batches; b++) {
        while (rx.on(`/hook/${b}`).length === 0) {
          expect(Date.now()).toBeLessThan(hookDeadline);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      await new Promise((r) => setTimeout(r, 3000)); // late duplicates, if any, would arrive by now
      for (let b = 0; b < batches; b++) {
        const events = new Set(rx.on(`/hook/${b}`).map((m) => JSON.parse(m.body)).filter((e) => e.type === 'batch.completed').map((e) => e.id));
        expect(events.size, `batch ${b}`).toBe(1);
      }
      await rx.close();
      console.log(JSON.stringify({ label, documents: sha.size, succeeded, kills, seconds }));
    }, 360_000);
  });
}
