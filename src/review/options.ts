/** The options a processing run stores on the documents it submits (`POST …/process` body). */
import type { CustomFieldSpec } from '../extract/types.js';

export interface RunOptions {
  custom_fields?: CustomFieldSpec[];
  /** `ignore`: read the page alone, not what the document carries (API.md §4c); absent: use it. */
  embedded?: 'use' | 'ignore';
}

export function parseRunOptions(json: string | null): RunOptions {
  return json ? (JSON.parse(json) as RunOptions) : {};
}
