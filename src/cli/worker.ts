/** `tablemill worker`: extraction workers only, against the configured database (cluster mode). */
import { FLAG_TO_ENV, loadConfig } from '../config.js';
import type { ParsedArgs } from './args.js';
import { checkFlags, untilSignal } from './process.js';

/** Runs until SIGINT/SIGTERM; the exit code. */
export async function run(args: ParsedArgs): Promise<number> {
  if (!checkFlags(args, Object.keys(FLAG_TO_ENV), 'worker [--concurrency N] [--database-url URL] …')) return 2;
  const config = loadConfig(process.env, args.flags);
  // Loaded after the config is valid: a bad setting fails in ~0.1 s, not after loading Fastify and the engine.
  const { startWorkerProcess } = await import('../server.js');
  if (config.worker.concurrency < 1) {
    process.stderr.write('tablemill: invalid configuration: TABLEMILL_WORKER_CONCURRENCY: a worker needs at least 1 thread\n');
    return 78;
  }
  const proc = await startWorkerProcess(config);
  const mode = config.databaseUrl ? 'postgresql' : `sqlite ${config.dataDir}`;
  process.stdout.write(`tablemill worker running ${config.worker.concurrency} threads against ${mode}\n`);
  await untilSignal();
  await proc.close();
  // Everything is written; a thread still exiting must not keep the process up (see ExtractionPool.close).
  setTimeout(() => process.exit(0), 500).unref();
  return 0;
}
