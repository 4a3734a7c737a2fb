#!/usr/bin/env node
// `npm run build` here (and the repository's own build, which runs this first): compiles src/ to
// dist/ with the TypeScript found from this folder up (the workspace root's devDependency).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const here = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
