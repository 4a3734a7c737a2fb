/** The queue pieces the worker loop uses that are not SQL (the SQL is in the store adapters). */
export { backoffMs, type BackoffOptions } from './backoff.js';
export { startLeaseRenewal, type LeaseRenewal, type LeaseRenewalOptions } from './lease.js';
export { startReaper, type Reaper, type ReaperOptions } from './reaper.js';
