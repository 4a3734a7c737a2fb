/** The `?format=csv|xlsx|ndjson|zip` exporters of the results routes (API.md §3). */
import type { AppDeps, ResultExporter } from '../deps.js';
import { csvExporter } from './csv.js';
import { ndjsonExporter } from './ndjson.js';
import { zipExporter } from './zip.js';

/**
 * exceljs and what it pulls in (jszip, archiver, unzipper, es-abstract: about 400 modules) are
 * loaded on the first XLSX request, not at start: they were most of `serve`'s time to /healthz.
 */
const xlsxOnDemand: ResultExporter = {
  batch: async (ctx) => (await import('./xlsx.js')).xlsxExporter.batch(ctx),
  document: async (ctx) => (await import('./xlsx.js')).xlsxExporter.document(ctx),
};

/** Fills in the exporters the caller did not provide (called once from buildApp). */
export function registerExporters(deps: AppDeps): void {
  deps.exporters.csv ??= csvExporter;
  deps.exporters.xlsx ??= xlsxOnDemand;
  deps.exporters.ndjson ??= ndjsonExporter;
  deps.exporters.zip ??= zipExporter;
}
