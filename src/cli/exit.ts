/** The exit codes of every command (`tablemill --help` lists them). */
export const EXIT = {
  ok: 0,
  /** The command failed: the server refused, a file could not be read, a network error. */
  failure: 1,
  /** Bad usage: an unknown command or flag, a missing argument. */
  usage: 2,
  /** The command ran, but at least one document ended `failed` (convert, extract): the contract's exit 1. */
  documentsFailed: 1,
  /** A setting is invalid (sysexits' EX_CONFIG). */
  config: 78,
  /** Stopped by SIGINT/SIGTERM before it finished (128 + SIGINT). */
  interrupted: 130,
} as const;

export const EXIT_HELP = `Exit codes:
  0    success
  1    failure (the server refused, a file could not be read, a network error,
       or at least one document failed in convert or extract, each one named)
  2    bad usage (unknown command or flag, missing argument)
  78   invalid configuration
  130  interrupted (SIGINT/SIGTERM)`;

/** A usage error found after parsing (exit 2), e.g. two flags that exclude each other. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
