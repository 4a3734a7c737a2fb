/**
 * The integrity check of an embedded data folder (a backup's copy, or any): SQLite's own
 * `integrity_check` and `foreign_key_check`, then every document row against its file under
 * `blobs/` — there, of the size the row says, with the sha256 it says. `tablemill backup` runs it
 * on every copy it makes; `tablemill backup --verify DIR` runs it alone.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface Verified {
  /** Document rows checked against their files (0 when the originals live in an object store). */
  rows: number;
  /** One line per fault: `integrity_check: …`, `<document id>: file missing`, … */
  problems: string[];
}

async function sha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Checks `dir`; `withFiles` false when the originals are not under it (`TABLEMILL_BLOBS`). */
export async function verifyDataDir(dir: string, withFiles = true): Promise<Verified> {
  const path = join(dir, 'tablemill.db');
  if (!existsSync(path)) return { rows: 0, problems: [`${path}: no database`] };
  const problems: string[] = [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let rows: { id: string; blob_key: string; size_bytes: number; sha256: string }[] = [];
  try {
    const integrity = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    for (const r of integrity) if (r.integrity_check !== 'ok') problems.push(`integrity_check: ${r.integrity_check}`);
    const keys = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    for (const r of keys) problems.push(`foreign_key_check: ${r.table} row ${r.rowid} names a missing ${r.parent}`);
    if (withFiles) rows = db.prepare('SELECT id, blob_key, size_bytes, sha256 FROM documents ORDER BY seq').all() as typeof rows;
  } catch (err) {
    problems.push(`${path}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  for (const r of rows) {
    const file = join(dir, 'blobs', r.blob_key.slice(0, 2), r.blob_key);
    const st = await stat(file).catch(() => null);
    if (!st) problems.push(`${r.id}: file missing (${file})`);
    else if (st.size !== Number(r.size_bytes)) problems.push(`${r.id}: file of ${st.size} bytes, the row says ${r.size_bytes}`);
    else if ((await sha256(file)) !== r.sha256) problems.push(`${r.id}: file's sha256 differs from the row's`);
  }
  return { rows: rows.length, problems };
}
