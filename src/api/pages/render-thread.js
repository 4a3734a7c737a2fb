// The page-rendering thread's entry. Compiled (dist/), it loads render.js; from the TypeScript
// sources (tests, `bin/run-ts.js`) it registers tsx itself, since threads do not inherit the
// main thread's loader hooks, and loads render.ts. It answers `{id, bytes, page, width, limits}`
// messages with `{id, page}` (the PNG's buffer transferred) or `{id, error: {code, message}}`.
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const compiled = existsSync(new URL('../../extract/render.js', import.meta.url));
if (!compiled) (await import('tsx/esm/api')).register();
const { renderPage } = await import(compiled ? '../../extract/render.js' : '../../extract/render.ts');

parentPort.on('message', async (msg) => {
  try {
    const page = await renderPage(msg.bytes, msg.page, msg.width, msg.limits);
    const png = new Uint8Array(page.png.buffer, page.png.byteOffset, page.png.byteLength);
    parentPort.postMessage({ id: msg.id, page: { ...page, png } }, [png.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: { code: err?.name === 'ExtractError' ? err.code : 'extraction_failed', message: err?.message ?? String(err) } });
  }
});
parentPort.postMessage({ ready: true });
