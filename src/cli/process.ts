/** Helpers shared by the long-running commands (serve, worker): flag checks and signal waiting. */
import type { ParsedArgs } from './args.js';

/** False (after printing why) if a flag is not one of `allowed` or a positional was given. */
export function checkFlags(args: ParsedArgs, allowed: string[], usage: string): boolean {
  const unknown = Object.keys(args.flags).filter((f) => !allowed.includes(f));
  if (unknown.length || args.positionals.length) {
    const what = unknown.length ? `unknown flag --${unknown[0]}` : `unexpected argument ${args.positionals[0]}`;
    process.stderr.write(`tablemill: ${what}\nusage: tablemill ${usage}\n`);
    return false;
  }
  return true;
}

/** Resolves with the name of the first SIGINT or SIGTERM; a second one exits at once. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => {
      process.once(sig as NodeJS.Signals, () => process.exit(130));
      resolve(sig);
    };
    process.once('SIGINT', () => on('SIGINT'));
    process.once('SIGTERM', () => on('SIGTERM'));
  });
}
