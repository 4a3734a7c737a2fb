/**
 * `npm run bench -- ingest`: uploads over HTTP into `tablemill serve --no-workers` (SQLite), against
 * a peer measured in the same run: a bare node:http server in its own process that streams each
 * request body to a file and fsyncs it (the floor for "bytes over HTTP onto disk"). Prints the
 * median uploads per second of 100 KB files (3 rounds each, alternating, 4 at a time) and each
 * process's peak RSS (VmHWM) after 8 files of 25 MB streamed in, 4 at a time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/tablemill');
const SMALL = 100 * 1000;
const LARGE = 25 * 1000 * 1000;
const SMALL_UPLOADS = 300;
const LARGE_UPLOADS = 8;
const PARALLEL = 4;
const ROUNDS = 3;

/** A PDF-looking file of `size` bytes (the upload sniffs the head; nothing extracts it). */
const pdfBytes = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);

const PEER_SOURCE = `
import { createServer } from 'node:http';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
let n = 0;
const server = createServer(async (req, res) => {
  // flush: the file is fsynced before close, as tablemill's blob store does before answering.
  await pipeline(req, createWriteStream(process.argv[2] + '/upload-' + n++, { flush: true }));
  res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

interface Target {
  name: string;
  proc: ChildProcess;
  url: string;
  headers: Record<string, string>;
  dir: string;
}

function waitForUrl(proc: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) ok(m[1]);
    });
    proc.once('exit', (code) => fail(new Error(`exited with ${code}: ${out}`)));
  });
}

async function startTablemill(nodeArgs: string[]): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-ingest-'));
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TABLEMILL_DATA_DIR: dir, TABLEMILL_RATE_LIMITS: '0', TABLEMILL_LOG_LEVEL: 'info' };
  const keys = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', 'bench'], { env, encoding: 'utf8' });
  if (keys.status !== 0) throw new Error(`keys create failed: ${keys.stderr}`);
  const key = keys.stdout.trim().split('\n').pop()!;
  const proc = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--no-workers'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await waitForUrl(proc);
  return { name: 'tablemill', proc, url: `${base}/v1/batches/ingest/documents`, headers: { authorization: `Bearer ${key}` }, dir };
}

async function startPeer(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-peer-'));
  const src = join(dir, 'peer.mjs');
  writeFileSync(src, PEER_SOURCE);
  const proc = spawn(process.execPath, [src, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { name: 'node:http to file', proc, url: `${await waitForUrl(proc)}/upload`, headers: {}, dir };
}

async function upload(t: Target, body: Buffer): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'application/pdf' }), 'f.pdf');
  const res = await fetch(t.url, { method: 'POST', headers: t.headers, body: form });
  if (res.status !== 201) throw new Error(`${t.name}: upload answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/** `count` uploads of `body`, `PARALLEL` at a time; returns the seconds taken. */
async function uploads(t: Target, body: Buffer, count: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next++ < count) await upload(t, body);
    }),
  );
  return (performance.now() - t0) / 1000;
}

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 a second on Linux)
}

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(args: string[]): Promise<void> {
  // `--cpu-prof`: the server writes a V8 CPU profile of the run into the working folder on exit.
  const targets = [await startTablemill(args.includes('--cpu-prof') ? ['--cpu-prof'] : []), await startPeer()];
  try {
    const small = pdfBytes(SMALL);
    const rates: Record<string, number[]> = {};
    const cpu: Record<string, number> = {};
    for (const t of targets) await uploads(t, small, 20); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of targets) {
        const c0 = cpuSeconds(t.proc.pid!);
        (rates[t.name] ??= []).push(SMALL_UPLOADS / (await uploads(t, small, SMALL_UPLOADS)));
        cpu[t.name] = (cpu[t.name] ?? 0) + cpuSeconds(t.proc.pid!) - c0;
      }
    }
    for (const [name, xs] of Object.entries(rates)) {
      const perUpload = (cpu[name] * 1000) / (ROUNDS * SMALL_UPLOADS);
      console.log(`${name}: median ${median(xs).toFixed(0)} uploads/s of 100 KB (${xs.map((x) => x.toFixed(0)).join(', ')}), ${perUpload.toFixed(1)} ms of CPU an upload`);
    }
    const [tm, peer] = targets.map((t) => median(rates[t.name]));
    console.log(`tablemill / peer: ${(tm / peer).toFixed(2)}× the uploads per second`);

    if (args.includes('--small')) return; // uploads/s only, no 25 MB round
    const large = pdfBytes(LARGE);
    for (const t of targets) {
      const before = peakRssMb(t.proc.pid!);
      const secs = await uploads(t, large, LARGE_UPLOADS);
      console.log(`${t.name}: peak RSS ${before.toFixed(0)} MB before, ${peakRssMb(t.proc.pid!).toFixed(0)} MB after ${LARGE_UPLOADS} × 25 MB (${PARALLEL} at a time, ${((LARGE_UPLOADS * LARGE) / 1e6 / secs).toFixed(0)} MB/s)`);
    }
  } finally {
    for (const t of targets) {
      t.proc.kill('SIGTERM');
      await new Promise((r) => (t.proc.exitCode !== null ? r(null) : t.proc.once('exit', r)));
      rmSync(t.dir, { recursive: true, force: true });
    }
  }
}
