/**
 * `tablemill COMMAND …` (API.md §8). Each command lives in its own module exporting
 * `run(args: ParsedArgs): Promise<number>` (the exit code); this file only dispatches.
 */
import { parseArgs, type ParsedArgs } from './args.js';
import { ConfigError } from '../config.js';

type Command = { describe: string; load: () => Promise<{ run(args: ParsedArgs): Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  serve: { describe: 'serve [--no-workers]   API and (by default) workers', load: () => import('./serve.js') },
  worker: { describe: 'worker                 workers only, against the configured database', load: () => import('./worker.js') },
  migrate: { describe: 'migrate                apply pending migrations and exit', load: () => import('./migrate.js') },
  keys: { describe: 'keys create --account NAME   create an API key (last line of stdout)', load: () => import('./keys.js') },
  extract: { describe: 'extract FILE... [--out DIR]   run the engine without a server', load: () => import('./extract.js') },
};

function usage(): string {
  return ['usage: tablemill COMMAND [options]', '', ...Object.values(COMMANDS).map((c) => `  ${c.describe}`)].join('\n');
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    process.stderr.write(`unknown command: ${name}\n\n${usage()}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const args = parseArgs(rest);
    const mod = await cmd.load();
    const code = await mod.run(args);
    if (code !== 0) process.exitCode = code;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`tablemill: ${err.message}\n`);
      process.exitCode = 78; // EX_CONFIG
      return;
    }
    process.stderr.write(`tablemill ${name}: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  }
}
