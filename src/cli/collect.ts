/**
 * The files an `upload` or `convert` sends: each PATH as given, and every file with a supported
 * extension under each folder, recursively, in a stable order. A file named on the command line
 * is always sent (the server sniffs its bytes); inside folders other files are skipped, since one
 * unsupported file would fail its whole upload request (415).
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

const EXTENSIONS = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp']);

export interface LocalFile {
  path: string;
  size: number;
}

async function walk(dir: string, out: LocalFile[]): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else if (e.isFile() && EXTENSIONS.has(extname(e.name).toLowerCase())) out.push({ path: p, size: (await stat(p)).size });
  }
}

/** The files under `paths`; a missing path throws (a usage mistake the user must see). */
export async function collectFiles(paths: string[]): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  for (const p of paths) {
    const s = await stat(p);
    if (s.isDirectory()) await walk(p, out);
    else out.push({ path: p, size: s.size });
  }
  return out;
}
