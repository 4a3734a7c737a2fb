// The upload route's multipart reader (src/api/multipart.ts): delimiters split across chunks at
// every offset, line-ending and padding variants, cut-off bodies, limits, and a 25 MB file
// streamed over HTTP and read back byte for byte (over connections of their own: a kept-alive
// one of fetch's held the app's close for a minute).
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { PassThrough } from 'node:stream';
import { MultipartError, MultipartReader, boundaryOf, isFormData, parseParams, pullChunks } from '../../src/api/multipart.js';
import { openApi, type ApiHarness } from './harness.js';

interface Read {
  name: string | undefined;
  filename: string | undefined;
  isFile: boolean;
  bytes: string;
}

/** The parts of `body` read from the given chunks (each part's bytes as latin1). */
async function readAll(chunks: Buffer[], boundary: string, limits = { files: 10, fields: 10 }): Promise<Read[]> {
  let i = 0;
  const reader = new MultipartReader(async () => chunks[i++] ?? null, boundary, limits);
  const out: Read[] = [];
  for await (const part of reader.parts()) {
    const bytes: Buffer[] = [];
    for await (const c of part.body) bytes.push(c);
    out.push({ name: part.name, filename: part.filename, isFile: part.isFile, bytes: Buffer.concat(bytes).toString('latin1') });
  }
  return out;
}

/** `body` cut at each of `offsets`. */
function cut(body: Buffer, offsets: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let from = 0;
  for (const at of offsets) {
    chunks.push(body.subarray(from, at));
    from = at;
  }
  chunks.push(body.subarray(from));
  return chunks.filter((c) => c.length > 0);
}

const B = 'XyZ0123';
/** Data that holds near-misses of the delimiter: CRLF, "--", the boundary less its last character. */
const TRICKY = `%PDF-1.7\r\n--XyZ012\r\n-\r--XyZ0123x\n\r\r\n--XyZ\r\n`;
const BODY = Buffer.from(
  `preamble to ignore\r\n--${B}\r\n` +
    `Content-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
    `--${B}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${TRICKY}\r\n` +
    `--${B}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="empty.pdf"\r\n\r\n\r\n` +
    `--${B}--\r\nepilogue to ignore`,
  'latin1',
);
const EXPECTED: Read[] = [
  { name: 'note', filename: undefined, isFile: false, bytes: 'hello' },
  { name: 'file', filename: 'a.pdf', isFile: true, bytes: TRICKY },
  { name: 'file', filename: 'empty.pdf', isFile: true, bytes: '' },
];

describe('multipart reader', () => {
  it('reads the same parts whatever the chunks: cut once at every offset, twice at every pair near the delimiters, one byte at a time', async () => {
    expect(await readAll([BODY], B)).toEqual(EXPECTED);
    for (let at = 1; at < BODY.length; at++) expect(await readAll(cut(BODY, [at]), B), `cut at ${at}`).toEqual(EXPECTED);
    const delimiterAt = BODY.indexOf(`\r\n--${B}\r\nContent-Disposition: form-data; name="file"; filename="empty`);
    for (let a = delimiterAt - 12; a < delimiterAt + 14; a++) {
      for (let b = a + 1; b < delimiterAt + 16; b++) expect(await readAll(cut(BODY, [a, b]), B), `cut at ${a}, ${b}`).toEqual(EXPECTED);
    }
    expect(await readAll(cut(BODY, Array.from({ length: BODY.length - 1 }, (_, i) => i + 1)), B)).toEqual(EXPECTED);
  });

  it('a body starting with the delimiter, padding after it, a part without headers, an unquoted boundary or one in quotes', async () => {
    const body = Buffer.from(`--${B} \t\r\nContent-Disposition: form-data; name=file; filename=x.png\r\n\r\nab\r\n--${B}\r\n\r\nno headers\r\n--${B}--`);
    expect(await readAll([body], B)).toEqual([{ name: 'file', filename: 'x.png', isFile: true, bytes: 'ab' }]);
    expect(boundaryOf(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(boundaryOf(`multipart/form-data; charset=utf-8; boundary="a b:c"`)).toBe('a b:c');
    expect(() => boundaryOf('multipart/form-data')).toThrow(MultipartError);
    expect(isFormData('Multipart/Form-Data; boundary=x')).toBe(true);
    expect(isFormData('multipart/form-datax')).toBe(false);
  });

  it('refuses bodies that are not multipart: LF line endings, no closing delimiter, cut inside headers, junk after a delimiter', async () => {
    const lf = Buffer.from(`--${B}\nContent-Disposition: form-data; name="file"; filename="a"\n\nab\n--${B}--\n`);
    await expect(readAll([lf], B)).rejects.toThrow(MultipartError);
    const noEnd = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab`);
    await expect(readAll([noEnd], B)).rejects.toThrow(/no closing delimiter/);
    const lastDelimiterOnly = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab\r\n--${B}`);
    await expect(readAll([lastDelimiterOnly], B)).rejects.toThrow(MultipartError);
    await expect(readAll([Buffer.from(`--${B}\r\nContent-Disposition: form-da`)], B)).rejects.toThrow(/header/);
    await expect(readAll([Buffer.from(`--${B}junk\r\n\r\n\r\n--${B}--`)], B)).rejects.toThrow(/CRLF/);
    await expect(readAll([Buffer.from('no delimiter at all')], B)).rejects.toThrow(MultipartError);
  });

  it('counts fields and file parts against their limits', async () => {
    const part = (name: string, filename?: string) =>
      `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\nx\r\n`;
    const fields = Buffer.from(part('a') + part('b') + part('c') + `--${B}--`);
    await expect(readAll([fields], B, { files: 5, fields: 2 })).rejects.toMatchObject({ status: 413, code: 'payload_too_large' });
    const files = Buffer.from(part('file', 'a') + part('other', 'b') + part('file', 'c') + `--${B}--`);
    const err = await readAll([files], B, { files: 2, fields: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 413, code: 'too_many_files' });
    expect(await readAll([files], B, { files: 3, fields: 0 })).toHaveLength(3);
  });

  it('parses dispositions: quoted escapes, filename* in UTF-8 before filename, parameters in any case', () => {
    const [type, p] = parseParams(`form-data; NAME="fi\\"le"; filename="fall back.pdf"; filename*=UTF-8''%E2%82%AC%20rates.pdf`);
    expect(type).toBe('form-data');
    expect(p.get('name')).toBe('fi"le');
    expect(p.get('filename')).toBe('fall back.pdf');
    expect(p.get('filename*')).toBe('€ rates.pdf');
    expect(parseParams('attachment')[0]).toBe('attachment');
  });
});

describe('uploads through the reader', () => {
  let h: ApiHarness;
  let auth: Record<string, string>;
  const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
  beforeAll(async () => {
    h = await openApi({ TABLEMILL_MAX_FILE_MB: '1' });
    auth = { authorization: `Bearer ${await h.key('acme')}` };
  });
  afterAll(async () => h?.close());

  const post = (batch: string, payload: Buffer, boundary = B) =>
    h.app.inject({ method: 'POST', url: `/v1/batches/${batch}/documents`, payload, headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` } });
  const part = (name: string, bytes: Buffer | string, filename?: string) =>
    Buffer.concat([Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n`), Buffer.from(bytes), Buffer.from('\r\n')]);
  const end = Buffer.from(`--${B}--\r\n`);

  it('stores only the parts named file; fields and other files are skipped', async () => {
    const body = Buffer.concat([part('note', 'x'.repeat(70_000)), part('other', PDF, 'o.pdf'), part('file', PDF, 'a.pdf'), part('file', 'not a file field'), end]);
    const res = await post('extra', body);
    expect(res.statusCode).toBe(201);
    expect(res.json().documents.map((d: { filename: string; size_bytes: number }) => [d.filename, d.size_bytes])).toEqual([['a.pdf', PDF.length]]);
  });

  it('an empty file is 415; a file over the limit is 413 file_too_large; neither stores a batch', async () => {
    const empty = await post('limits', Buffer.concat([part('file', '', 'empty.pdf'), end]));
    expect(empty.statusCode).toBe(415);
    expect(empty.json().error.code).toBe('unsupported_media_type');
    const big = await post('limits', Buffer.concat([part('file', Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]), 'big.pdf'), end]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('file_too_large');
    expect((await h.app.inject({ url: '/v1/batches/limits', headers: auth })).statusCode).toBe(404);
  });

  it('a body without its closing delimiter is 400 malformed and stores nothing', async () => {
    const res = await post('cut', Buffer.concat([part('file', PDF, 'a.pdf')]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('malformed multipart body');
    expect((await h.app.inject({ url: '/v1/batches/cut', headers: auth })).statusCode).toBe(404);
  });
});

describe('a 25 MB upload over HTTP', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await openApi();
  });
  afterAll(async () => h?.close());

  it('streams in 64 KiB writes and reads back byte for byte', async () => {
    const key = await h.key('big');
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const size = 25 * 1000 * 1000;
    // Bytes from a counter, made as they are sent: the test never holds the file either.
    const chunkOf = (i: number, n: number) => {
      const c = Buffer.alloc(n);
      for (let j = 0; j < n; j += 4) c.writeUInt32LE((i * 16384 + j / 4) >>> 0, j);
      if (i === 0) c.write('%PDF-1.7\n');
      return c;
    };
    const sent = createHash('sha256');
    const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/v1/batches/big/documents', headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${B}` }, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => resolve({ code: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n`);
      let i = 0;
      const pump = () => {
        while (i * 65536 < size) {
          const c = chunkOf(i, Math.min(65536, size - i * 65536));
          sent.update(c);
          i++;
          if (!req.write(c)) return void req.once('drain', pump);
        }
        req.end(`\r\n--${B}--\r\n`);
      };
      pump();
    });
    expect(status.code).toBe(201);
    const doc = JSON.parse(status.body).documents[0];
    const digest = sent.digest('hex');
    expect(doc).toMatchObject({ size_bytes: size, sha256: digest });
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ port, host: '127.0.0.1', path: `/v1/documents/${doc.id}/file`, headers: { authorization: `Bearer ${key}` }, agent: false }, resolve).on('error', reject).end(),
    );
    const got = createHash('sha256');
    let n = 0;
    for await (const c of res as AsyncIterable<Buffer>) {
      got.update(c);
      n += c.length;
    }
    expect(n).toBe(size);
    expect(got.digest('hex')).toBe(digest);
  }, 60_000);
});

describe('pullChunks', () => {
  it('hands a chunk to a waiting pull without pausing; a chunk nobody waits for pauses the request until pulled', async () => {
    const raw = new PassThrough();
    const body = pullChunks(raw);
    const waiting = body.pull();
    raw.write(Buffer.from('a'));
    expect((await waiting)?.toString()).toBe('a');
    expect(raw.isPaused()).toBe(false);
    // No pull waits: the request holds still while the chunk is queued.
    raw.write(Buffer.from('b'));
    await new Promise((r) => setImmediate(r));
    expect(raw.isPaused()).toBe(true);
    expect((await body.pull())?.toString()).toBe('b');
    expect(raw.isPaused()).toBe(false);
    raw.end();
    expect(await body.pull()).toBeNull();
    body.release();
    expect(raw.isPaused()).toBe(true);
  });
});
