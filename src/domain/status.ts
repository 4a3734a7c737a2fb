/**
 * Document states. The public set of API.md §1 is closed; the internal set may grow, but every
 * internal state maps onto exactly one public status and public status only ever moves forward.
 */
export const PUBLIC_STATUSES = ['queued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

/**
 * - `uploaded`: stored, not yet submitted by `POST …/process`.
 * - `pending`: submitted, waiting for a worker. Also the state of a document whose lease ran
 *   out (worker died) and that waits for another attempt: then `started_at` is set and it stays
 *   publicly `processing`.
 * - `leased`: a worker holds it until `lease_until`.
 * - terminal: `succeeded`, `failed`, `canceled`.
 */
export const INTERNAL_STATES = ['uploaded', 'pending', 'leased', 'succeeded', 'failed', 'canceled'] as const;
export type InternalState = (typeof INTERNAL_STATES)[number];

/** Maps an internal state onto the public status; `started` is whether `started_at` is set. */
export function publicStatus(state: InternalState, started: boolean): PublicStatus {
  switch (state) {
    case 'uploaded':
      return 'queued';
    case 'pending':
      return started ? 'processing' : 'queued';
    case 'leased':
      return 'processing';
    default:
      return state;
  }
}
