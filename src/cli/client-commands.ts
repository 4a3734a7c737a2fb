/**
 * The client commands (API.md §8): they talk to a running server through the SDK
 * (`@tablemill/client`, packages/client/), with the server from --url / TABLEMILL_URL and the key from --key /
 * TABLEMILL_API_KEY.
 */
import type { Command } from 'commander';
import { remoteClient, type RemoteFlags } from './remote.js';

type Opts = RemoteFlags & Record<string, unknown>;

/** `--ignore-embedded` as the process option (API.md §4c). */
export const embeddedOf = (opts: Record<string, unknown>): 'use' | 'ignore' => (opts.ignoreEmbedded === true ? 'ignore' : 'use');

function remote(cmd: Command): Command {
  return cmd.option('--url <url>', 'the server (default: TABLEMILL_URL, else http://127.0.0.1:8080)').option('--key <key>', 'the API key (default: TABLEMILL_API_KEY)');
}

/** Registers upload, process, status, results, correct and convert; `exits` records each exit code. */
export function registerClientCommands(program: Command, exits: <A extends unknown[]>(fn: (...args: A) => Promise<number>) => (...args: A) => Promise<void>): void {
  remote(program.command('upload').description('upload files and folders (recursively) to a batch; safe to re-run (no duplicates)'))
    .argument('<batch>', 'the batch name (created if new)')
    .argument('<path...>', 'files, and folders whose PDF and image files are sent')
    .addHelpText('after', '\nPrints ID<TAB>PATH per document on stdout; a progress bar (files, bytes) on stderr when it is a terminal.')
    .action(exits(async (batch: string, paths: string[], opts: Opts) => (await import('./upload.js')).run(remoteClient(opts), batch, paths)));

  remote(program.command('process').description('submit every uploaded, not yet submitted document of the batch'))
    .argument('<batch>', 'the batch name')
    .option('--ignore-embedded', 'read the pages alone, not e-invoice XML, payment codes or form fields')
    .action(exits(async (batch: string, opts: Opts) => (await import('./status.js')).submit(remoteClient(opts), batch, embeddedOf(opts))));

  remote(program.command('status').description("the batch's status as JSON on stdout"))
    .argument('<batch>', 'the batch name')
    .option('--watch', 'live progress on stderr until all documents are done (long-poll, honours Retry-After)')
    .action(exits(async (batch: string, opts: Opts) => (await import('./status.js')).status(remoteClient(opts), batch, opts.watch === true)));

  remote(program.command('results').description("download the batch's results"))
    .argument('<batch>', 'the batch name')
    .option('--format <format>', 'json, csv, xlsx, ndjson or zip', 'json')
    .option('--out <file>', 'write to FILE instead of stdout')
    .action(exits(async (batch: string, opts: Opts) => (await import('./results.js')).run(remoteClient(opts), batch, opts as { format: string; out?: string })));

  remote(program.command('correct').description("correct a succeeded document's fields; the correction teaches the vendor's memory"))
    .argument('<document_id>', 'the document id (doc_…)')
    .option('--field <name=value>', 'a corrected field (repeatable): total=123.45, issue_date=2026-11-30, custom.po_number=PO-1; empty value: none', (v: string, all: string[] = []) => [...all, v])
    .option('--clear', "remove the document's corrections")
    .action(exits(async (id: string, opts: Opts) => (await import('./correct.js')).run(remoteClient(opts), id, opts as { field?: string[]; clear?: boolean })));

  remote(program.command('convert').description('upload, process, wait and download in one step'))
    .argument('<path...>', 'files, and folders whose PDF and image files are sent')
    .requiredOption('--out <file>', 'the output; its extension picks the format: .xlsx, .csv, .json, .ndjson or .zip')
    .option('--batch <name>', 'the batch name (default: convert-<time>-<random>)')
    .option('--ignore-embedded', 'read the pages alone, not e-invoice XML, payment codes or form fields')
    .addHelpText('after', '\nExit code 1, naming the failed files on stderr, when any document failed (FILE is written either way).')
    .action(exits(async (paths: string[], opts: Opts) => (await import('./convert.js')).run(remoteClient(opts), paths, { ...(opts as { out: string; batch?: string }), embedded: embeddedOf(opts) })));
}
