/** `tablemill worker`: extraction workers only, against the configured database (cluster mode). */
import { loadConfig } from '../config.js';
import { EXIT } from './exit.js';
import { shutdownDeadline, untilSignal } from './signals.js';

/** Runs until SIGINT/SIGTERM; the exit code. */
export async function run(flags: Record<string, string>): Promise<number> {
  const config = loadConfig(process.env, flags);
  if (config.worker.concurrency < 1) {
    process.stderr.write('tablemill: invalid configuration: TABLEMILL_WORKER_CONCURRENCY: a worker needs at least 1 thread\n');
    return EXIT.config;
  }
  // Loaded after the config is valid: a bad setting fails in ~0.1 s, not after loading Fastify and the engine.
  const { startWorkerProcess } = await import('../server.js');
  const proc = await startWorkerProcess(config);
  const mode = config.databaseUrl ? 'postgresql' : `sqlite ${config.dataDir}`;
  process.stdout.write(`tablemill worker running ${config.worker.concurrency} extraction processes against ${mode}\n`);
  if (proc.metricsUrl) process.stdout.write(`tablemill worker metrics on ${proc.metricsUrl}\n`);
  await untilSignal();
  shutdownDeadline(config.worker.shutdownGraceMs, () => process.stderr.write('tablemill: shutdown did not finish in time; exiting\n'));
  await proc.close();
  // Everything is written; a thread still exiting must not keep the process up (see ExtractionPool.close).
  setTimeout(() => process.exit(EXIT.ok), 500).unref();
  return EXIT.ok;
}
