#!/usr/bin/env node
// `npm run build`: builds the SDK workspace (packages/client, which the CLI and the web app
// import), then compiles src/ to dist/ (tsc, ESM with declarations) and copies the files tsc
// does not emit (scripts/copy-assets.js). dist/ is emptied first so no stale module survives a
// rename. `--if-possible` (the `prepare` step) skips the build when TypeScript is not installed
// (`npm ci --omit=dev`) and dist/ is already there, and otherwise says how to get one.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (process.argv.includes('--if-possible') && existsSync(join(dist, 'cli/main.js')) && existsSync(join(root, 'packages/client/dist/index.js'))) process.exit(0);
  console.error('tablemill: cannot build dist/: TypeScript (a devDependency) is not installed. A production install builds first: `npm ci && npm prune --omit=dev`.');
  process.exit(1);
}
// The CLI imports the SDK through its workspace link, which only npm install/ci makes.
if (!existsSync(join(root, 'node_modules/@tablemill/client'))) {
  console.error('tablemill: node_modules/@tablemill/client is missing: the SDK is the npm workspace packages/client; run `npm install` (or `npm ci`) to link it.');
  process.exit(1);
}
execFileSync(process.execPath, [join(root, 'packages/client/build.js')], { stdio: 'inherit' });
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
execFileSync(process.execPath, [join(root, 'scripts/copy-assets.js')], { stdio: 'inherit' });
