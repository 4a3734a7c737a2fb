/**
 * `tablemill COMMAND …` (API.md §8), on commander: subcommands, `--help` for each (printed
 * without running anything), `--version`, and one mapping of failures to exit codes (exit.ts).
 * Each command's module is imported only when it runs, so `--help` loads nothing else.
 */
import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { ConfigError } from '../config.js';
import { TablemillApiError } from '@tablemill/client';
import { registerClientCommands } from './client-commands.js';
import { UnreachableError } from './remote.js';
import { addConfigOptions, configFlags } from './config-options.js';
import { EXIT, EXIT_HELP, UsageError } from './exit.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

type Opts = Record<string, unknown>;

/** Runs a command's action and records its exit code. */
function exits<A extends unknown[]>(fn: (...args: A) => Promise<number>) {
  return async (...args: A) => {
    process.exitCode = await fn(...args);
  };
}

/** The server-side commands: they read the configuration and open the database or the engine. */
function registerServerCommands(program: Command): void {
  addConfigOptions(program.command('serve').description('the API and, by default, the workers; what `npm start` runs'))
    .option('--no-workers', 'API only: queue documents for `tablemill worker` processes')
    .action(exits(async (opts: Opts) => (await import('./serve.js')).run(configFlags(opts), opts.workers !== false)));

  addConfigOptions(program.command('worker').description('extraction workers only, against the configured database'))
    .action(exits(async (opts: Opts) => (await import('./worker.js')).run(configFlags(opts))));

  addConfigOptions(program.command('migrate').description('apply pending migrations and exit'), ['data-dir', 'database-url'])
    .action(exits(async (opts: Opts) => (await import('./migrate.js')).run(configFlags(opts))));

  addConfigOptions(program.command('backup').description('copy an embedded instance (database snapshot, then its blobs) while it serves, and check the copy'), ['data-dir'])
    .option('--out <dir>', 'a new or empty folder; `serve --data-dir DIR` serves the copy')
    .option('--verify <dir>', 'only check a copy (or any data folder): the database\'s integrity, every document\'s file, size and sha256')
    .action(
      exits(async (opts: Opts) => {
        const backup = await import('./backup.js');
        if ((opts.out === undefined) === (opts.verify === undefined)) throw new UsageError('backup needs --out DIR (make a copy) or --verify DIR (check one)');
        return opts.verify !== undefined ? backup.verify(configFlags(opts), String(opts.verify)) : backup.run(configFlags(opts), String(opts.out));
      }),
    );

  const keys = program.command('keys').description('create, list and revoke API keys (on the configured database)');
  addConfigOptions(keys.command('create').description('create an API key; the key alone is the last line of stdout'), ['data-dir', 'database-url'])
    .requiredOption('--account <name>', 'the account the key belongs to (created if new)')
    .action(exits(async (opts: Opts) => (await import('./keys.js')).create(configFlags(opts), String(opts.account))));
  addConfigOptions(keys.command('list').description("list keys: ids, account, created, last used, revoked (never the key)"), ['data-dir', 'database-url'])
    .option('--account <name>', "only this account's keys")
    .option('--json', 'one JSON array on stdout')
    .action(exits(async (opts: Opts) => (await import('./keys.js')).list(configFlags(opts), opts as { account?: string; json?: boolean })));
  addConfigOptions(keys.command('revoke').description('revoke a key: it answers 401 from the next request on'), ['data-dir', 'database-url'])
    .argument('<key_id>', 'the key id (key_…) from `keys list` or `keys create`')
    .action(exits(async (keyId: string, opts: Opts) => (await import('./keys.js')).revoke(configFlags(opts), keyId)));

  addConfigOptions(program.command('extract').description('run the engine without a server, bounded like the service'), ['max-pages', 'max-megapixels', 'timeout-ms', 'ocr-langs', 'ocr-engine'])
    .argument('<path...>', 'PDF, PNG, JPEG, TIFF, WebP and invoice XML files, and folders of them (recursively)')
    .option('--out <dir>', 'write DIR/NAME.json for each input NAME.ext (needed for several files)')
    .option('--ignore-embedded', 'read the pages alone, not e-invoice XML, payment codes or form fields')
    .option('--pretty', 'indent the JSON')
    .option('--jobs <n>', 'documents extracted at once (default: TABLEMILL_WORKER_CONCURRENCY, the cores)')
    .addHelpText('after', '\nOne file without --out prints its result JSON ({page_count, document_type, fields, tables, line_items, totals}) on stdout.\nA file that cannot be extracted gets {"processing_error": {"code", "message"}} instead, and the exit code is 1.')
    .action(exits(async (files: string[], opts: Opts) => (await import('./extract.js')).run(files, opts, configFlags(opts))));
}

/** The whole command tree. */
export function buildProgram(): Command {
  const program = new Command('tablemill')
    .description('Tablemill: tables and line items from PDFs and images, as a service and on the command line')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText('after', `\nClient commands read the server from TABLEMILL_URL (default http://127.0.0.1:8080) and the key\nfrom TABLEMILL_API_KEY (--url, --key override them).\n\n${EXIT_HELP}`);
  registerServerCommands(program);
  registerClientCommands(program, exits);
  return program;
}

/** The exit code of a failure that escaped a command. */
function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`tablemill: ${err.message}\n(run with --help for usage)\n`);
    return EXIT.usage;
  }
  if (err instanceof UnreachableError) {
    process.stderr.write(`tablemill: ${err.message}\n`);
    return EXIT.failure;
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`tablemill: ${err.message}\n`);
    return EXIT.config;
  }
  // The SDK's errors already say the status, code and request id; a network error says its cause.
  const e = err as Error & { cause?: { message?: string } };
  const message = err instanceof TablemillApiError ? e.message : e instanceof TypeError && e.cause ? `${e.message}: ${e.cause.message}` : (e?.stack ?? String(err));
  process.stderr.write(`tablemill: ${message}\n`);
  return EXIT.failure;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  if (argv.length === 0) {
    process.stderr.write(program.helpInformation());
    process.exitCode = EXIT.usage;
    return;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    process.exitCode = exitCodeOf(err);
  }
}
