/** The numbered `.sql` migration files of a dialect, in numeric order. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE_RE = /^(\d+)_[a-z0-9_-]+\.sql$/i;

/**
 * Every `NNN_name.sql` in `dir`, sorted by number; the runner applies them all in order. Two
 * files with one number is a mistake we refuse.
 */
export function loadMigrations(dir: URL): Migration[] {
  const path = fileURLToPath(dir);
  const out: Migration[] = [];
  for (const file of readdirSync(path)) {
    const m = FILE_RE.exec(file);
    if (!m) continue;
    out.push({ version: Number(m[1]), name: file, sql: readFileSync(`${path}/${file}`, 'utf8') });
  }
  out.sort((a, b) => a.version - b.version);
  for (let i = 1; i < out.length; i++) {
    if (out[i].version === out[i - 1].version) throw new Error(`two migrations numbered ${out[i].version}: ${out[i - 1].name}, ${out[i].name}`);
  }
  return out;
}
