/**
 * NDJSON: one `DocumentResult` per line, streamed page by page from the store with the
 * stream's backpressure, so a 10,000-document batch costs one page of memory.
 */
import { Readable } from 'node:stream';
import type { ResultExporter } from '../deps.js';
import { documentResultView, type DocumentResultView } from '../../contract/views.js';
import { attachment, baseName, batchResults, coalesce } from './rows.js';

async function* lines(docs: AsyncIterable<DocumentResultView>): AsyncGenerator<string> {
  for await (const doc of docs) yield JSON.stringify(doc) + '\n';
}

const TYPE = 'application/x-ndjson; charset=utf-8';

/** The `?format=ndjson` exporter. */
export const ndjsonExporter: ResultExporter = {
  async batch({ deps, account, batch, reply }) {
    reply.type(TYPE).header('content-disposition', attachment(`${batch.name}-results.ndjson`));
    return reply.send(Readable.from(coalesce(lines(batchResults(deps.store, account, batch)))));
  },
  async document({ row, reply }) {
    reply.type(TYPE).header('content-disposition', attachment(`${baseName(row.filename)}-results.ndjson`));
    return reply.send(JSON.stringify(documentResultView(row)) + '\n');
  },
};
