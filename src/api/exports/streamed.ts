/** An exporter whose file is written by an async writer into a stream (XLSX, ZIP). */
import { PassThrough } from 'node:stream';
import type { ResultExporter } from '../deps.js';
import { documentResultView, type DocumentResultView } from '../../contract/views.js';
import { attachment, baseName, batchResults } from './rows.js';

/** The documents an export reads; called once per pass, since a pass cannot be replayed. */
export type Docs = () => AsyncIterable<DocumentResultView> | Iterable<DocumentResultView>;

/**
 * An exporter of `type` that names its file `<batch or file>-<suffix>` and sends what `write`
 * puts into the stream; an error while writing ends the stream with that error.
 */
export function streamedExporter(type: string, suffix: string, write: (out: PassThrough, docs: Docs) => Promise<void>): ResultExporter {
  const start = (docs: Docs) => {
    const out = new PassThrough();
    write(out, docs).catch((err) => out.destroy(err as Error));
    return out;
  };
  return {
    async batch({ deps, account, batch, reply }) {
      reply.type(type).header('content-disposition', attachment(`${batch.name}-${suffix}`));
      return reply.send(start(() => batchResults(deps.store, account, batch)));
    },
    async document({ row, reply }) {
      const view = documentResultView(row);
      reply.type(type).header('content-disposition', attachment(`${baseName(row.filename)}-${suffix}`));
      return reply.send(start(() => [view]));
    },
  };
}
