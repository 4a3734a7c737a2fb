/**
 * The server settings as flags (`--port`, `--data-dir`, …, config.ts's FLAG_TO_ENV): declared on
 * the commands that load the config, and read back as the `flags` record `loadConfig` takes.
 */
import type { Command } from 'commander';
import { FLAG_TO_ENV } from '../config.js';

/** Commander's attribute name of a flag: `data-dir` → `dataDir`. */
const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Adds `--FLAG <value>` for each of `flags` (default: every setting). */
export function addConfigOptions(cmd: Command, flags: string[] = Object.keys(FLAG_TO_ENV)): Command {
  for (const flag of flags) cmd.option(`--${flag} <value>`, `sets ${FLAG_TO_ENV[flag]}`);
  return cmd;
}

/** The setting flags given on the command line, as `loadConfig`'s flags. */
export function configFlags(opts: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of Object.keys(FLAG_TO_ENV)) {
    const v = opts[camel(flag)];
    if (typeof v === 'string') out[flag] = v;
  }
  return out;
}
