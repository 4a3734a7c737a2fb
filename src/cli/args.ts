/** `--flag value`, `--flag=value`, `--no-flag` and positionals, for the subcommands. */
export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string>;
}

/** Flags that take no value; `--no-workers` becomes `workers: 'false'`. */
const BOOLEAN_FLAGS = new Set(['workers', 'help', 'json', 'pretty']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const body = a.slice(2);
    const eq = body.indexOf('=');
    if (eq >= 0) {
      flags[body.slice(0, eq)] = body.slice(eq + 1);
    } else if (body.startsWith('no-') && BOOLEAN_FLAGS.has(body.slice(3))) {
      flags[body.slice(3)] = 'false';
    } else if (BOOLEAN_FLAGS.has(body)) {
      flags[body] = 'true';
    } else if (i + 1 < argv.length) {
      flags[body] = argv[++i];
    } else {
      throw new Error(`flag --${body} needs a value`);
    }
  }
  return { positionals, flags };
}
