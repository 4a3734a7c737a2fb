/** Waiting for SIGINT/SIGTERM, for the long-running commands (serve, worker). */
import { EXIT } from './exit.js';

/** Resolves with the name of the first SIGINT or SIGTERM; a second one exits at once. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => {
      process.once(sig as NodeJS.Signals, () => process.exit(EXIT.interrupted));
      resolve(sig);
    };
    process.once('SIGINT', () => on('SIGINT'));
    process.once('SIGTERM', () => on('SIGTERM'));
  });
}
