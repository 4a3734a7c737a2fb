/**
 * vitest globalSetup: the tests that spawn `bin/tablemill` run the compiled dist/, so it is
 * rebuilt first whenever a file under src/ is newer than the last build.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(ROOT, 'dist/cli/main.js')).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  if (builtAt() >= newestMtime(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.js')], { stdio: 'inherit' });
}
