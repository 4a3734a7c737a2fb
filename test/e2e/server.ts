/**
 * Runs the real `bin/tablemill` as child processes: `serve` on a free port with its own data
 * folder, `keys create` and `extract`. Tests talk to it over real HTTP.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/tablemill');

/** The environment of a child: the test's own, less settings that would leak between tests. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k === 'DATABASE_URL' || k === 'PORT' || k === 'HOST' || k.startsWith('TABLEMILL_')) delete base[k];
  return { ...base, TABLEMILL_RATE_LIMITS: '0', TABLEMILL_LOG_LEVEL: 'warn', ...env };
}

/** A fresh data folder. */
export function tempDataDir(prefix = 'tm-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface ServeProcess {
  url: string;
  proc: ChildProcess;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
  /** Peak resident memory of the server process in KiB (Linux VmHWM). */
  peakRssKiB(): number;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (no shutdown at all) and wait for the exit. */
  kill9(): Promise<void>;
}

/** Starts `tablemill serve` with `env` (PORT=0: a free port) and resolves once it listens. */
export async function serve(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve', ...args], { env: childEnv({ PORT: '0', HOST: '127.0.0.1', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 90 s:\n${out}`)), 90_000);
    const onData = () => {
      const m = /tablemill listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        resolveUrl(m[1]);
      }
    };
    proc.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    peakRssKiB() {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      return m ? Number(m[1]) : NaN;
    },
    async stop() {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** `tablemill keys create --account NAME`: the key is the last line of stdout. */
export function createKeyCli(env: Record<string, string>, account: string): string {
  const r = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', account], { env: childEnv(env), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`keys create failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return lines[lines.length - 1];
}

/** `tablemill extract FILE`: the engine's JSON for one file, without a server. */
export function extractCli(file: string): { page_count: number; tables: unknown[]; line_items: unknown[]; totals: unknown } {
  const r = spawnSync(process.execPath, [BIN, 'extract', file], { env: childEnv({}), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`extract failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}
