#!/usr/bin/env node
// Copies every file under src/ that tsc does not emit (plain .js entry files such as worker
// entries, .sql migrations, any other static asset the runtime reads beside its module) into
// the same place under dist/, so that the compiled code finds them by `new URL(…, import.meta.url)`.
// TypeScript sources, READMEs and declaration files are left out.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const SKIP = [/\.ts$/, /\.md$/i];

let copied = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.isFile() && !SKIP.some((re) => re.test(entry.name))) {
      const to = join(dist, relative(src, path));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(path, to);
      copied++;
    }
  }
}
walk(src);
process.stdout.write(`copy-assets: ${copied} files from src/ to dist/\n`);
