/**
 * `POST /v1/batches/{batch_name}/documents` (API.md §3, §5): multipart parts named `file` stream
 * straight into the blob store (never buffered whole), the type is sniffed from the bytes, and
 * the request is atomic — a refused part deletes the blobs already written and stores no row.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { BlobTooLargeError, type PutResult } from '../../blobs/types.js';
import { ApiError, invalidRequest } from '../../domain/errors.js';
import { newId } from '../../domain/names.js';
import { sniffFormat } from '../../extract/carried/sniff.js';
import { storeFault } from '../../store/faults.js';
import type { NewDocument, Store } from '../../store/types.js';
import type { AppDeps } from '../deps.js';
import { UploadIdleError, UploadSlots, uploadIdleApiError, watchUploadIdle } from '../upload-guard.js';
import { MultipartReader, boundaryOf, isFormData, pullChunks } from '../multipart.js';
import { BatchNameParams, ErrorSchema, UploadResponseSchema, errorResponses } from '../../contract/schemas.js';
import { documentView } from '../../contract/views.js';

/**
 * What a file name must not hold: C0 and C1 controls and DEL, line and paragraph separators, and
 * the bidirectional marks, embeddings, overrides and isolates (`a\u202Egnp.pdf` reads
 * "afdp.png"), so a name shows as the characters it has wherever a person reads it.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** A stored, printable file name: no path, no control or direction characters, at most 255 characters. */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // By code point, so the cut never splits a surrogate pair.
  const clean = Array.from(base.replace(UNPRINTABLE, '').trim()).slice(0, 255).join('');
  return clean === '' ? 'upload' : clean;
}

/** Parts other than files a request may have. */
export const MAX_FIELDS = 100;

/**
 * After a refusal other than 413 the client may still be sending; reading (and discarding) the
 * rest lets it see the 4xx instead of a reset. Bounded at 8 s so a slow sender cannot hold the
 * socket.
 */
async function drainRequest(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 8000);
    function done() {
      clearTimeout(timer);
      raw.off('end', done).off('error', done).off('close', done);
      resolve();
    }
    raw.on('end', done).on('error', done).on('close', done);
    raw.resume();
  });
}

/** Registers the upload route. */
export function uploadRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const { store, blobs, config } = deps;
  const { maxFileBytes, maxFilesPerRequest } = config.limits;
  const slots = new UploadSlots(config.uploads.maxPerAddress);
  return async (app) => {
    app.post(
      '/batches/:batch_name/documents',
      {
        schema: {
          tags: ['batches'],
          summary: 'Upload one or more files (multipart parts named `file`); creates the batch; does not start processing',
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          params: BatchNameParams,
          response: { 201: UploadResponseSchema, 408: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        if (!isFormData(request.headers['content-type'])) throw new ApiError(415, 'unsupported_media_type', 'expected multipart/form-data with parts named "file"');
        const { batch_name } = request.params;
        let release: () => void;
        try {
          release = slots.take(request.ip);
        } catch (err) {
          // Refused before reading: the body is not worth reading either.
          reply.header('connection', 'close');
          throw err;
        }
        const written: PutResult[] = [];
        const docs: NewDocument[] = [];
        let reading = true;
        let inserting = false;
        let idle: ReturnType<typeof watchUploadIdle> | null = null;
        let body: ReturnType<typeof pullChunks> | null = null;
        try {
          const boundary = boundaryOf(request.headers['content-type']);
          body = pullChunks(request.raw);
          // After pullChunks: the reader is listening for the request's errors (and its data
          // listener comes first).
          idle = watchUploadIdle(request.raw, config.uploads.idleTimeoutMs);
          // The file parts' limit sits one above ours so that our check, with its details, fires first.
          const reader = new MultipartReader(body.pull, boundary, { files: maxFilesPerRequest + 1, fields: MAX_FIELDS });
          for await (const part of reader.parts()) {
            if (!part.isFile || part.name !== 'file') continue;
            const filename = cleanFilename(part.filename);
            if (docs.length >= maxFilesPerRequest) {
              throw new ApiError(413, 'too_many_files', `at most ${maxFilesPerRequest} files a request`, { limit: maxFilesPerRequest });
            }
            let put: PutResult;
            try {
              put = await blobs.put(part.body, { maxBytes: maxFileBytes });
            } catch (err) {
              if (err instanceof BlobTooLargeError) {
                throw new ApiError(413, 'file_too_large', `${filename} exceeds ${maxFileBytes} bytes`, { filename, limit: maxFileBytes });
              }
              throw err;
            }
            written.push(put);
            const type = sniffFormat(put.head);
            if (!type) {
              throw new ApiError(415, 'unsupported_media_type', `${filename} is not a PDF, PNG, JPEG, TIFF, WebP or invoice XML (CII, UBL) file`, { filename });
            }
            docs.push({ id: newId('doc'), filename, content_type: type, size_bytes: put.size, sha256: put.sha256, blob_key: put.key });
          }
          reading = false;
          idle.stop();
          body.release();
          if (docs.length === 0) throw invalidRequest('no file: send multipart/form-data with one or more parts named "file"');
          inserting = true;
          const res = await store.insertDocuments(request.account.id, batch_name, docs, deps.now());
          deps.metrics.stored();
          return reply.code(201).send({ batch_name, documents: res.documents.map(documentView) });
        } catch (err) {
          idle?.stop();
          body?.release();
          if (!inserting || (await rowsAbsent(store, request.account.id, docs))) await Promise.allSettled(written.map((w) => blobs.delete(w.key)));
          // A silent body is cut: 408 and the connection closed, nothing more read from it.
          if (err instanceof UploadIdleError || idle?.fired()) {
            reply.header('connection', 'close');
            throw uploadIdleApiError(config.uploads.idleTimeoutMs);
          }
          // Over a limit or out of space, the answer goes out at once and the connection closes:
          // reading the rest of a 200 MB body first would cost the server the upload it refuses.
          if ((err instanceof ApiError && err.status === 413) || storeFault(err) === 'storage_full') {
            reply.header('connection', 'close');
            throw err;
          }
          await drainRequest(request);
          // While reading the body, anything but our own refusals is the client's malformed
          // multipart (no boundary, cut off mid-part): 400, not 500.
          if (reading && !(err instanceof ApiError) && !(err as { statusCode?: number }).statusCode && !(err as NodeJS.ErrnoException).syscall) {
            throw invalidRequest(`malformed multipart body: ${(err as Error).message}`);
          }
          throw err;
        } finally {
          release();
        }
      },
    );
  };
}

/**
 * Whether a failed insert left none of the upload's rows. An insert can fail after its commit
 * (the WAL fsync, a connection cut during COMMIT): the rows then name the files, which must stay.
 * When the store cannot tell, the files stay too: an unnamed file costs space, a named one lost
 * costs the document.
 */
async function rowsAbsent(store: Store, accountId: string, docs: NewDocument[]): Promise<boolean> {
  try {
    return (await store.getDocument(accountId, docs[0].id)) === null;
  } catch {
    return false;
  }
}
