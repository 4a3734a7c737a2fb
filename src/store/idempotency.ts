/** Idempotency keys of the API's POST requests, as the Store keeps them (table of migration 101). */

/** What `beginIdempotent` found for a key; the caller compares `request_hash` (422 on a mismatch). */
export type IdempotencyBegin =
  | { state: 'started' }
  | { state: 'in_progress'; request_hash: string | null }
  | { state: 'done'; request_hash: string; status: number; headers: Record<string, string>; body: string };

export interface IdempotencyStore {
  /**
   * Takes the key for this request (scope = the API key's hash) or reports what holds it. A row
   * whose lock ran out (its process died mid-request) is taken over; expired rows start afresh.
   * `requestHash` may be null when it is only known after the request ran (multipart uploads).
   */
  beginIdempotent(scope: string, key: string, requestHash: string | null, now: number, lockMs: number, ttlMs: number): Promise<IdempotencyBegin>;
  /** Stores the response to replay, with the request's hash. */
  completeIdempotent(scope: string, key: string, requestHash: string, status: number, headers: Record<string, string>, body: string): Promise<void>;
  /** Frees the key (the request failed; nothing it did needs replaying). */
  releaseIdempotent(scope: string, key: string): Promise<void>;
  purgeIdempotent(now: number): Promise<number>;
}
