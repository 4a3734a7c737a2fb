/** The `?format=csv|xlsx|ndjson|zip` exporters of the results routes (API.md §3). */
import type { AppDeps } from '../deps.js';
import { csvExporter } from './csv.js';
import { ndjsonExporter } from './ndjson.js';
import { xlsxExporter } from './xlsx.js';
import { zipExporter } from './zip.js';

/** Fills in the exporters the caller did not provide (called once from buildApp). */
export function registerExporters(deps: AppDeps): void {
  deps.exporters.csv ??= csvExporter;
  deps.exporters.xlsx ??= xlsxExporter;
  deps.exporters.ndjson ??= ndjsonExporter;
  deps.exporters.zip ??= zipExporter;
}
