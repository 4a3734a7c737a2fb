/**
 * vitest globalSetup: the tests that spawn `bin/tablemill` run the compiled dist/ (and the
 * SDK's packages/client/dist/ it imports), so both are rebuilt first whenever a file under src/
 * or packages/client/src/ is newer than the last build.
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

/** Builds dist/ (and the SDK's) when a source is newer than the last build: the benchmarks that run `bin/tablemill` call it too. */
export function buildIfStale(): void {
  const newest = Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'packages/client/src')));
  if (builtAt() >= newest) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.js')], { stdio: 'inherit' });
}

export default function setup(): void {
  buildIfStale();
}
