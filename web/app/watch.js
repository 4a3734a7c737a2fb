// Live status by long-poll (`?wait=` with If-None-Match): one request waits on the server
// until the batch changes, so the page follows progress without a polling loop.
// Status endpoints: `/v1/batches/NAME` and `/v1/documents/ID`.
import { useEffect, useRef } from 'preact/hooks';

const WAIT_S = 25;
// Between two answers: a batch that changes every few milliseconds still costs at most
// two status requests a second (the status endpoints allow 120 a minute per key).
const MIN_GAP_MS = 500;
const sleep = (ms, signal) => new Promise((r) => {
  const t = setTimeout(r, ms);
  signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
});

/**
 * Calls `onChange(body)` with the resource at `path` now and on every change, until the component
 * unmounts or `path` changes; null `path` watches nothing. Returns a function that stops it.
 */
export function useWatch(api, path, onChange, onError) {
  const latest = useRef({ onChange, onError });
  latest.current = { onChange, onError };
  const current = useRef(null);
  useEffect(() => {
    if (!path) return undefined;
    const ctl = new AbortController();
    current.current = ctl;
    (async () => {
      let etag = null;
      while (!ctl.signal.aborted) {
        const started = Date.now();
        try {
          const r = await api.watch(path, etag, etag ? WAIT_S : 0, ctl.signal);
          if (r.changed) {
            etag = r.etag;
            latest.current.onChange(r.body);
          }
        } catch (err) {
          if (ctl.signal.aborted) return;
          latest.current.onError?.(err);
          if (err.status === 404) return;
          // A refused (429, 503) or failed request: try again when the server says, else in 5 s.
          await sleep((err.retryAfterS ?? 5) * 1000, ctl.signal);
        }
        await sleep(Math.max(0, MIN_GAP_MS - (Date.now() - started)), ctl.signal);
      }
    })();
    return () => ctl.abort();
  }, [api, path]);
  // Stops watching, e.g. before deleting the resource (a waiting request would answer 404).
  return () => current.current?.abort();
}
