import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/api/auth.js';
import { api, open, pgSchema, PDF, removeDir, upload, type Harness } from '../webhooks/harness.js';

const OTHER_PDF = Buffer.concat([PDF, Buffer.from('\n% a different file\n')]);

function suite(name: string, env: () => Record<string, string> | null, cleanup: () => Promise<void> = async () => {}) {
  describe.skipIf(env() === null)(name, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await open({ TABLEMILL_RATE_LIMITS: '0', ...env()! });
    });
    afterAll(async () => {
      await h?.close();
      if (h) removeDir(h.dir);
      await cleanup();
    });

    it('same key + same files replays the first 201; nothing is stored twice', async () => {
      const a = await upload(h, 'idem', 2, { 'idempotency-key': 'up-1' });
      expect(a.status).toBe(201);
      const first = await a.json();
      const b = await upload(h, 'idem', 2, { 'idempotency-key': 'up-1' });
      expect(b.status).toBe(201);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(await b.json()).toEqual(first);
      const batch = await (await api(h, 'GET', '/v1/batches/idem')).json();
      expect(batch.document_count).toBe(2);
    });

    it('same key + different files (or batch) → 422, and nothing is stored', async () => {
      const c = await upload(h, 'idem', 2, { 'idempotency-key': 'up-1' }, OTHER_PDF);
      expect(c.status).toBe(422);
      expect((await c.json()).error.code).toBe('unprocessable');
      expect((await upload(h, 'idem', 1, { 'idempotency-key': 'up-1' })).status).toBe(422);
      expect((await upload(h, 'idem-other', 2, { 'idempotency-key': 'up-1' })).status).toBe(422);
      expect((await (await api(h, 'GET', '/v1/batches/idem')).json()).document_count).toBe(2);
      expect((await api(h, 'GET', '/v1/batches/idem-other')).status).toBe(404);
    });

    it('process: replays 202 with the same body; a different path with the key → 422', async () => {
      const p1 = await api(h, 'POST', '/v1/batches/idem/process', undefined, { 'idempotency-key': 'pr-1' });
      expect(p1.status).toBe(202);
      const body1 = await p1.json();
      expect(body1.submitted).toBe(2);
      const p2 = await api(h, 'POST', '/v1/batches/idem/process', undefined, { 'idempotency-key': 'pr-1' });
      expect(p2.status).toBe(202);
      expect(await p2.json()).toEqual(body1); // not {submitted: 0}: the first answer
      // Without a key the call runs again (and submits nothing new).
      expect((await (await api(h, 'POST', '/v1/batches/idem/process')).json()).submitted).toBe(0);
      await upload(h, 'idem2', 1);
      expect((await api(h, 'POST', '/v1/batches/idem2/process', undefined, { 'idempotency-key': 'pr-1' })).status).toBe(422);
    });

    it('a concurrent duplicate still in progress → 409', async () => {
      // Hold the first request open: send the multipart body slowly, by hand.
      const boundary = 'xBOUNDARYx';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      let push!: (b: Buffer | null) => void;
      const stream = new ReadableStream<Uint8Array>({
        start(ctrl) {
          push = (b) => (b ? ctrl.enqueue(new Uint8Array(b)) : ctrl.close());
        },
      });
      const slow = fetch(`${h.url}/v1/batches/idem3/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': 'slow-1' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      push(Buffer.concat([head, PDF.subarray(0, 1000)]));
      await new Promise((r) => setTimeout(r, 300));
      const dup = await upload(h, 'idem3', 1, { 'idempotency-key': 'slow-1' }, PDF.subarray(0, 10));
      expect(dup.status).toBe(409);
      expect((await dup.json()).error.code).toBe('conflict');
      push(Buffer.concat([PDF.subarray(1000), tail]));
      push(null);
      const res = await slow;
      expect(res.status).toBe(201);
      const again = await fetch(`${h.url}/v1/batches/idem3/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': 'slow-1' },
        body: Buffer.concat([head, PDF, tail]),
      });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('keys are scoped per API key; a failed request frees its key', async () => {
      const other = (await createKey(h.store, 'acme', Date.now())).key; // same account, another key
      const res = await fetch(`${h.url}/v1/batches/idem/process`, { method: 'POST', headers: { authorization: `Bearer ${other}`, 'idempotency-key': 'pr-1' } });
      expect(res.status).toBe(202);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(((await res.json()) as any).submitted).toBe(0);
      // 404 is not recorded: once the batch exists, the same key runs.
      expect((await api(h, 'POST', '/v1/batches/later/process', undefined, { 'idempotency-key': 'pr-later' })).status).toBe(404);
      await upload(h, 'later', 1);
      const ok = await api(h, 'POST', '/v1/batches/later/process', undefined, { 'idempotency-key': 'pr-later' });
      expect(ok.status).toBe(202);
      expect((await ok.json()).submitted).toBe(1);
      expect((await api(h, 'POST', '/v1/batches/later/process', undefined, { 'idempotency-key': 'bad key with spaces' })).status).toBe(400);
    });
  });
}

suite('Idempotency-Key on SQLite', () => ({}));
const pgs = pgSchema('tm_idem');
suite('Idempotency-Key on PostgreSQL', () => (pgs ? { DATABASE_URL: pgs.url, TABLEMILL_DB_SCHEMA: pgs.schema } : null), async () => pgs?.drop());
