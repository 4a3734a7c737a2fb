/**
 * `npm run bench -- startup`: how long `tablemill serve` takes from spawn to its first 200 on
 * `/healthz`, the compiled dist/ (bin/tablemill) against the same CLI run from the TypeScript
 * sources through tsx, alternating the two, 5 runs each. Prints medians and the ratio.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = 5;

/** The sources through tsx: what bin/tablemill ran before the build. */
function tsxEntry(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tm-bench-tsx-')), 'tablemill-tsx.mjs');
  const main = pathToFileURL(join(ROOT, 'src/cli/main.ts')).href;
  writeFileSync(file, `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};\nregister();\nconst { main } = await import(${JSON.stringify(main)});\nawait main(process.argv.slice(2));\n`);
  return file;
}

async function once(args: string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-start-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, PORT: String(port), TABLEMILL_DATA_DIR: dir, TABLEMILL_WORKER_CONCURRENCY: '1', TABLEMILL_LOG_LEVEL: 'warn' };
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, { env, stdio: 'ignore', cwd: ROOT });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`serve exited with ${proc.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (ok) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const variants: Record<string, string[]> = { dist: [join(ROOT, 'bin/tablemill'), 'serve'], tsx: [tsxEntry(), 'serve'] };
  const times: Record<string, number[]> = { dist: [], tsx: [] };
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(variants)) times[name].push(await once(args));
  for (const [name, xs] of Object.entries(times)) console.log(`${name}: median ${median(xs).toFixed(0)} ms to /healthz (${xs.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`tsx / dist: ${(median(times.tsx) / median(times.dist)).toFixed(2)}×`);
}
