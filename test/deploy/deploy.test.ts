/**
 * The deployment files as a machine reads them: `.dockerignore` keeps a used checkout's data out
 * of the image; `deploy/compose.yaml` (checked by `docker compose config` where Compose is
 * installed, and parsed here always) starts PostgreSQL, MinIO, the migration, one API and two
 * workers with settings Tablemill knows and pointing at those services; the systemd units pass
 * `systemd-analyze verify` where systemd is installed and, parsed, can write their data folder
 * under ProtectSystem=strict.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../paths.js';

const read = (p: string) => readFileSync(join(REPO_ROOT, p), 'utf8');
const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;
/** The settings Tablemill reads (config.ts and the S3 SDK's own AWS_* variables). */
const known = (name: string) => read('src/config.ts').includes(`'${name}'`) || read('src/config.ts').includes(`e.${name}`) || /^AWS_(REGION|ACCESS_KEY_ID|SECRET_ACCESS_KEY)$/.test(name);

describe('.dockerignore', () => {
  it('leaves out the data folder, node_modules, the build outputs and git', () => {
    const lines = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const p of ['data/', 'node_modules/', 'dist/', 'native/build/', '.git/', '.tmp/']) expect(lines, p).toContain(p);
  });
});

describe('deploy/compose.yaml', () => {
  const text = read('deploy/compose.yaml');
  const compose = parse(text, { merge: true }) as { services: Record<string, any>; volumes: Record<string, unknown> };
  const s = compose.services;

  it.skipIf(!has('docker', ['compose', 'version']))('passes docker compose config', () => {
    const r = spawnSync('docker', ['compose', '-f', join(REPO_ROOT, 'deploy/compose.yaml'), 'config', '--quiet'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('starts PostgreSQL, MinIO and its bucket, the migration, one API and two workers, in that order', () => {
    expect(Object.keys(s).sort()).toEqual(['api', 'bucket', 'migrate', 'minio', 'postgres', 'worker']);
    expect(s.postgres.image).toMatch(/^postgres:\d+/);
    expect(s.minio.image).toMatch(/^minio\/minio:/);
    // One image, built from the repository's Dockerfile, for the migration, the API and the workers.
    expect(s.migrate.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
    expect(readdirSync(join(REPO_ROOT, 'deploy', s.migrate.build.context))).toContain('Dockerfile');
    for (const k of ['migrate', 'api', 'worker']) expect(s[k].image, k).toBe(s.migrate.image);
    expect(s.migrate.command).toEqual(['migrate']);
    expect(s.api.command).toEqual(['serve', '--no-workers']);
    expect(s.worker.command).toEqual(['worker']);
    expect(s.worker.deploy.replicas).toBe(2);
    expect(s.api.ports).toEqual(['127.0.0.1:8080:8080']);

    const conditions = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.depends_on ?? {}]));
    expect(conditions.migrate).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(conditions.bucket).toEqual({ minio: { condition: 'service_healthy' } });
    for (const k of ['api', 'worker']) expect(conditions[k], k).toEqual({ migrate: { condition: 'service_completed_successfully' }, bucket: { condition: 'service_completed_successfully' } });
    expect(s.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(s.minio.healthcheck.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    // Named volumes keep the rows and originals across restarts.
    for (const v of [...s.postgres.volumes, ...s.minio.volumes]) expect(Object.keys(compose.volumes)).toContain(v.split(':')[0]);
    // Longer than the workers' 30 s shutdown grace.
    expect(parseInt(s.worker.stop_grace_period, 10)).toBeGreaterThan(30);
  });

  it('gives every Tablemill process the same settings, each one Tablemill reads, pointing at those services', () => {
    const env = s.api.environment as Record<string, string>;
    for (const k of ['migrate', 'worker']) expect(s[k].environment, k).toEqual(env);
    for (const name of Object.keys(env)) expect(known(name), name).toBe(true);
    const db = new URL(env.DATABASE_URL!);
    expect([db.protocol, db.hostname, db.port, db.username, db.password, db.pathname]).toEqual(['postgres:', 'postgres', '5432', s.postgres.environment.POSTGRES_USER, s.postgres.environment.POSTGRES_PASSWORD, `/${s.postgres.environment.POSTGRES_DB}`]);
    expect(new URL(env.AWS_ENDPOINT_URL!).hostname).toBe('minio');
    expect([env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY]).toEqual([s.minio.environment.MINIO_ROOT_USER, s.minio.environment.MINIO_ROOT_PASSWORD]);
    const bucket = /^s3:\/\/([^/]+)\//.exec(env.TABLEMILL_BLOBS!)![1];
    expect(s.bucket.entrypoint.join(' ')).toContain(`mc mb --ignore-existing store/${bucket}`);
    expect(s.bucket.entrypoint.join(' ')).toContain(`${env.AWS_ACCESS_KEY_ID} ${env.AWS_SECRET_ACCESS_KEY}`);
  });
});

/** A unit file's `Key=value` lines by section; repeated keys keep every value. */
function unit(text: string): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const head = /^\[(\w+)\]$/.exec(line);
    if (head) out[(section = head[1]!)] = {};
    else {
      const at = line.indexOf('=');
      ((out[section]![line.slice(0, at)] ??= []) as string[]).push(line.slice(at + 1));
    }
  }
  return out;
}

describe('deploy/systemd', () => {
  const units: [string, string, string][] = [
    ['tablemill.service', 'tablemill.service', 'serve'],
    ['tablemill-api@.service', 'tablemill-api@8080.service', 'serve --no-workers'],
    ['tablemill-worker@.service', 'tablemill-worker@1.service', 'worker'],
  ];

  it('has a unit for one embedded node and the cluster units', () => {
    expect(readdirSync(join(REPO_ROOT, 'deploy/systemd')).sort()).toEqual(units.map(([f]) => f).sort());
  });

  it.skipIf(!has('systemd-analyze', ['--version']))('passes systemd-analyze verify, installed as docs/operations.md says (in /opt/tablemill, here the checkout)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-units-'));
    for (const [file] of units) writeFileSync(join(dir, file), read(`deploy/systemd/${file}`).replaceAll('/opt/tablemill', REPO_ROOT));
    const r = spawnSync('systemd-analyze', ['verify', ...units.map(([, instance]) => join(dir, instance))], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(units)('%s runs bin/tablemill as its own user, can write its data folder under ProtectSystem=strict, stops gracefully', (file, _instance, command) => {
    const u = unit(read(`deploy/systemd/${file}`));
    const s = u.Service!;
    expect(s.ExecStart).toEqual([`/opt/tablemill/bin/tablemill ${command}`]);
    expect(s.User).toEqual(['tablemill']);
    expect(s.ProtectSystem).toEqual(['strict']);
    const dataDir = s.Environment!.map((e) => /^TABLEMILL_DATA_DIR=(.+)$/.exec(e)?.[1]).find(Boolean);
    expect(dataDir).toBe('/var/lib/tablemill');
    const writable = [...(s.StateDirectory ?? []).flatMap((d) => d.split(/\s+/).map((x) => `/var/lib/${x}`)), ...(s.ReadWritePaths ?? []).flatMap((p) => p.split(/\s+/))];
    expect(writable).toContain(dataDir);
    expect(s.KillSignal).toEqual(['SIGTERM']);
    expect(Number(s.TimeoutStopSec![0])).toBeGreaterThan(30);
    expect(u.Install!.WantedBy).toEqual(['multi-user.target']);
  });
});
