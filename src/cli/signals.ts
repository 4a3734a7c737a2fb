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

/** Beyond the workers' grace, this long is left for closing connections and the store. */
export const SHUTDOWN_SLACK_MS = 4500;

/**
 * Ends the process `graceMs` + `SHUTDOWN_SLACK_MS` after a shutdown signal, whatever is still
 * running: a stuck close must not keep a stopping process (and its memory) alive for minutes.
 */
export function shutdownDeadline(graceMs: number, onForce: () => void): void {
  setTimeout(() => {
    onForce();
    process.exit(EXIT.interrupted);
  }, graceMs + SHUTDOWN_SLACK_MS).unref();
}
