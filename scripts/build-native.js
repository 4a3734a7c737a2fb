#!/usr/bin/env node
// `npm install` step: builds the OCR addon (native/ocr.cc, libtesseract in-process) where the
// build can work — Debian's libtesseract-dev and libleptonica-dev, pkg-config, a C++ compiler —
// and otherwise says so and carries on: the engine then runs the `tesseract` program or
// tesseract.js, the same results, slower. Never downloads anything (Node's headers come from the
// local installation). `node scripts/build-native.js --require` fails instead, for CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'native');
const required = process.argv.includes('--require');

function skip(why) {
  const msg = `tablemill: OCR addon not built (${why}); OCR uses the tesseract program or tesseract.js instead`;
  if (required) {
    console.error(msg);
    process.exit(1);
  }
  console.warn(msg);
  process.exit(0);
}

if (process.env.TABLEMILL_SKIP_NATIVE_BUILD === '1') skip('TABLEMILL_SKIP_NATIVE_BUILD=1');
if (spawnSync('pkg-config', ['--exists', 'tesseract', 'lept']).status !== 0) {
  skip('libtesseract-dev and libleptonica-dev are not installed: apt-get install libtesseract-dev libleptonica-dev');
}
// node-gyp: the one npm runs lifecycle scripts with, else npm's own copy beside this node.
const require = createRequire(import.meta.url);
let gyp = process.env.npm_config_node_gyp;
if (!gyp || !existsSync(gyp)) {
  const candidates = [join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not installed as a package: npm's own copy above is the only candidate
  }
  gyp = candidates.find((c) => existsSync(c));
}
if (!gyp) skip('node-gyp was not found');
// Node's headers from this installation (node-gyp would otherwise try to download them).
const nodedir = process.env.npm_config_nodedir || resolve(dirname(process.execPath), '..');
if (!existsSync(join(nodedir, 'include', 'node', 'node_api.h'))) skip(`no Node.js headers under ${nodedir}/include/node`);

const r = spawnSync(process.execPath, [gyp, 'rebuild', `--nodedir=${nodedir}`, '--directory', dir], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stdout.slice(-4000) + r.stderr.slice(-4000));
  skip(`the build failed (exit ${r.status})`);
}
// The addon must load here, or it is no use.
try {
  execFileSync(process.execPath, ['-e', `require(${JSON.stringify(join(dir, 'build', 'Release', 'tablemill_ocr.node'))})`], { stdio: 'pipe', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
} catch (e) {
  skip(`the built addon does not load: ${String(e.stderr ?? e).split('\n')[0]}`);
}
console.log('tablemill: OCR addon built (libtesseract in-process)');
