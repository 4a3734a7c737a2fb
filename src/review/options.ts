/** The options a processing run stores on the documents it submits (`POST …/process` body). */
import type { CustomFieldSpec } from '../extract/types.js';

export interface RunOptions {
  custom_fields?: CustomFieldSpec[];
}

export function parseRunOptions(json: string | null): RunOptions {
  return json ? (JSON.parse(json) as RunOptions) : {};
}
