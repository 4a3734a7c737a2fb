/**
 * `npm run bench -- ingest`: uploads over HTTP into `tablemill serve --no-workers` (SQLite, and
 * PostgreSQL with its originals in s3rver when `TABLEMILL_TEST_DATABASE_URL` or `DATABASE_URL` is
 * set), against peers measured in the same run: a bare node:http server in its own process that
 * streams each request body to a file and fsyncs it (the floor for "bytes over HTTP onto disk"),
 * and the same server fsyncing the file's folder after it as well (the durability of a 201 from
 * tablemill, whose blob store fsyncs both). Prints the median uploads per second of 100 KB files
 * (3 rounds each, alternating, 4 at a time), the CPU an upload took by thread (the server's main
 * thread, its other threads — the libuv pool's file system calls, V8's compiler and GC — and the
 * benchmark's own client), and each process's peak RSS (VmHWM) after 8 files of 25 MB streamed
 * in, 4 at a time. `--warm=N` sends each target N uploads before the measured rounds (default 20):
 * a fresh server runs its first thousand or so partly unoptimised while V8 compiles the upload
 * path on another thread, so a long warm-up measures the steady state instead.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { figure } from './figures.js';

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
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
const dir = process.argv[2];
const folder = process.argv[3] === 'folder' ? await open(dir, 'r') : null;
let n = 0;
const server = createServer(async (req, res) => {
  // flush: the file is fsynced before close, as tablemill's blob store does before answering.
  await pipeline(req, createWriteStream(dir + '/upload-' + n++, { flush: true }));
  // With 'folder', its folder too (kept open), so that the new name survives a power loss as
  // tablemill's blob names do: the same durability as a 201 from tablemill.
  if (folder) await folder.sync();
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
  /** A process the target needs (s3rver), its CPU counted separately. */
  helper?: ChildProcess;
  cleanup?: () => Promise<void>;
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

async function startTablemill(name: string, nodeArgs: string[], extraEnv: Record<string, string> = {}): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-ingest-'));
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TABLEMILL_DATA_DIR: dir, TABLEMILL_RATE_LIMITS: '0', TABLEMILL_LOG_LEVEL: 'info', DATABASE_URL: '', ...extraEnv };
  let key = '';
  for (const cmd of [['migrate'], ['keys', 'create', '--account', 'bench']]) {
    const r = spawnSync(process.execPath, [BIN, ...cmd], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
    if (cmd[0] === 'keys') key = r.stdout.trim().split('\n').pop()!;
  }
  const proc = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--no-workers'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await waitForUrl(proc);
  return { name, proc, url: `${base}/v1/batches/ingest/documents`, headers: { authorization: `Bearer ${key}` }, dir };
}

/** s3rver (objects as files, not fsynced) in its own process, so it does not share the client's event loop. */
const S3RVER_SOURCE = `
import S3rver from 's3rver';
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2], configureBuckets: [{ name: 'tablemill', configs: [] }] });
const { port } = await server.run();
console.log('listening on http://127.0.0.1:' + port);
`;

/**
 * Tablemill on PostgreSQL (a schema of its own at `url`, dropped afterwards) with its originals in
 * s3rver: the cluster mode's path for an upload, measured beside the embedded one.
 */
async function startClusterMode(url: string, nodeArgs: string[]): Promise<Target> {
  const s3dir = mkdtempSync(join(tmpdir(), 'tm-bench-s3rver-'));
  // In the repository, so the import resolves from its node_modules.
  const src = join(ROOT, 'bench', `.s3rver-${process.pid}.mjs`);
  writeFileSync(src, S3RVER_SOURCE);
  const s3 = spawn(process.execPath, [src, s3dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let endpoint: string;
  try {
    endpoint = await waitForUrl(s3);
  } finally {
    rmSync(src, { force: true });
  }
  const schema = `bench_ingest_${process.pid}`;
  const t = await startTablemill('tablemill (PostgreSQL + s3rver)', nodeArgs, {
    DATABASE_URL: url,
    TABLEMILL_DB_SCHEMA: schema,
    TABLEMILL_BLOBS: 's3://tablemill/bench',
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  t.helper = s3;
  t.cleanup = async () => {
    s3.kill('SIGTERM');
    await new Promise((r) => (s3.exitCode !== null ? r(null) : s3.once('exit', r)));
    rmSync(s3dir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  };
  return t;
}

/** The peer; `folder`: it fsyncs the folder after each file too. */
async function startPeer(folder: boolean): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-peer-'));
  const src = join(dir, 'peer.mjs');
  writeFileSync(src, PEER_SOURCE);
  const proc = spawn(process.execPath, [src, dir, folder ? 'folder' : 'file'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { name: folder ? 'node:http to file, fsync file and folder' : 'node:http to file, fsync file', proc, url: `${await waitForUrl(proc)}/upload`, headers: {}, dir };
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

/** CPU seconds (user + system) a process has used so far: all its threads, or the one `tid` names. */
function cpuSeconds(pid: number, tid?: number): number {
  const f = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 a second on Linux)
}

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(args: string[]): Promise<void> {
  // `--cpu-prof`: the servers write V8 CPU profiles of the run into the working folder on exit.
  const prof = args.includes('--cpu-prof') ? ['--cpu-prof'] : [];
  const warmArg = args.find((a) => a.startsWith('--warm='));
  const warm = warmArg ? Number(warmArg.slice('--warm='.length)) : 20;
  if (!Number.isInteger(warm) || warm < 0) throw new Error('--warm needs a whole number of uploads');
  const url = process.env.TABLEMILL_TEST_DATABASE_URL || process.env.DATABASE_URL || null;
  const targets: Target[] = [];
  try {
    targets.push(await startTablemill('tablemill', prof));
    if (url) targets.push(await startClusterMode(url, prof));
    else console.log('PostgreSQL + s3rver: skipped (set TABLEMILL_TEST_DATABASE_URL or DATABASE_URL)');
    const peers = [await startPeer(false), await startPeer(true)];
    targets.push(...peers);
    const small = pdfBytes(SMALL);
    const rates: Record<string, number[]> = {};
    /** CPU seconds: the server's (all threads), its main thread's, and this process's (the client). */
    const cpu: Record<string, { all: number; main: number; client: number }> = {};
    const helperCpu: Record<string, number> = {};
    for (const t of targets) await uploads(t, small, warm);
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of targets) {
        const pid = t.proc.pid!;
        const [all0, main0, client0] = [cpuSeconds(pid), cpuSeconds(pid, pid), process.cpuUsage()];
        const h0 = t.helper ? cpuSeconds(t.helper.pid!) : 0;
        (rates[t.name] ??= []).push(SMALL_UPLOADS / (await uploads(t, small, SMALL_UPLOADS)));
        const c = (cpu[t.name] ??= { all: 0, main: 0, client: 0 });
        const client = process.cpuUsage(client0);
        c.all += cpuSeconds(pid) - all0;
        c.main += cpuSeconds(pid, pid) - main0;
        c.client += (client.user + client.system) / 1e6;
        if (t.helper) helperCpu[t.name] = (helperCpu[t.name] ?? 0) + cpuSeconds(t.helper.pid!) - h0;
      }
    }
    const perUpload = (s: number) => ((s * 1000) / (ROUNDS * SMALL_UPLOADS)).toFixed(1);
    for (const [name, xs] of Object.entries(rates)) {
      const c = cpu[name];
      const helper = helperCpu[name] !== undefined ? ` (+ ${perUpload(helperCpu[name])} ms in s3rver)` : '';
      console.log(
        `${name}: median ${median(xs).toFixed(0)} uploads/s of 100 KB (${xs.map((x) => x.toFixed(0)).join(', ')}), ${perUpload(c.all)} ms of CPU an upload ` +
          `(main thread ${perUpload(c.main)}, other threads ${perUpload(c.all - c.main)})${helper}; the client ${perUpload(c.client)} ms`,
      );
    }
    for (const peer of peers) {
      for (const t of targets.slice(0, -peers.length)) {
        const ratio = median(rates[t.name]) / median(rates[peer.name]);
        console.log(`${t.name} / ${peer.name}: ${ratio.toFixed(2)}× the uploads per second`);
        if (t === targets[0] && peer === peers[0]) figure({ what: `ingest, 100 KB uploads: uploads/s × ${peer.name}`, value: ratio, unit: '×', target: 0.85, kind: 'min' });
      }
    }
    console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${warm} uploads of warm-up to each`);

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
      await t.cleanup?.();
    }
  }
}
