/** `tablemill serve [--no-workers]`: the API and, by default, the workers (API.md §8). */
import { loadConfig } from '../config.js';
import { EXIT } from './exit.js';
import { shutdownDeadline, untilSignal } from './signals.js';

/** Runs until SIGINT/SIGTERM, then shuts down cleanly; the exit code. */
export async function run(flags: Record<string, string>, workers: boolean): Promise<number> {
  const config = loadConfig(process.env, flags);
  // Loaded after the config is valid: a bad setting fails in ~0.1 s, not after loading Fastify and the engine.
  const { startServer } = await import('../server.js');
  const server = await startServer(config, { workers, logger: { level: config.logLevel } });
  const mode = config.databaseUrl ? 'postgresql' : 'sqlite';
  const threads = workers ? `${config.worker.concurrency} extraction processes` : 'no workers';
  process.stdout.write(`tablemill listening on ${server.url} (${mode}, ${threads})\n${nextSteps(server.url)}`);
  const signal = await untilSignal();
  server.app.log.info({ signal }, 'shutting down');
  shutdownDeadline(config.worker.shutdownGraceMs, () => server.app.log.error('shutdown did not finish in time; exiting'));
  await server.close();
  // Everything is written; a thread still exiting must not keep the process up (see ExtractionPool.close).
  setTimeout(() => process.exit(EXIT.ok), 500).unref();
  return EXIT.ok;
}

/** What a person does next: the web app, a key, and the URL the client commands need when it is not their default. */
function nextSteps(url: string): string {
  const client = url === 'http://127.0.0.1:8080' ? '' : `; the client commands need TABLEMILL_URL=${url} (or --url)`;
  return `  web app ${url}/ · API reference ${url}/docs · a key: tablemill keys create --account NAME${client}\n`;
}
