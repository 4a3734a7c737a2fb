// The page-rendering thread's entry. Threads do not inherit the main thread's loader hooks, so
// this file registers tsx itself, then answers `{id, bytes, page, width, limits}` messages with
// `{id, page}` (the PNG's buffer transferred) or `{id, error: {code, message}}`.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { renderPage } = await import('../../extract/render.ts');

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
