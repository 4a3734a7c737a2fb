/** The SDK's errors: every failed call throws one of these, with the server's request id. */

/** A non-2xx answer, with the API's error envelope (API.md §5). */
export class TablemillApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The server's `request_id` (or `x-request-id`): quote it when reporting a problem. */
    readonly requestId: string | null,
    readonly details?: Record<string, unknown>,
    /** Seconds from `Retry-After` (429, 503), when the server sent one. */
    readonly retryAfterS: number | null = null,
  ) {
    super(`${status} ${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = 'TablemillApiError';
  }
}

/** `waitUntilDone` ran out of time before the batch was `all_done`. */
export class TablemillTimeoutError extends Error {
  constructor(
    message: string,
    /** The last status seen. */
    readonly last: unknown,
  ) {
    super(message);
    this.name = 'TablemillTimeoutError';
  }
}

/** `Retry-After` in seconds (a number or an HTTP date), or null. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error a non-2xx response stands for. */
export async function apiError(res: Response): Promise<TablemillApiError> {
  const text = await res.text();
  let e: { code?: string; message?: string; request_id?: string; details?: Record<string, unknown> } = {};
  try {
    e = (JSON.parse(text) as { error?: typeof e }).error ?? {};
  } catch {
    // Not the envelope (a proxy's page): the text is the message.
  }
  return new TablemillApiError(res.status, e.code ?? 'unknown', e.message ?? (text.slice(0, 200) || res.statusText), e.request_id ?? res.headers.get('x-request-id'), e.details, retryAfterSeconds(res.headers.get('retry-after')));
}
