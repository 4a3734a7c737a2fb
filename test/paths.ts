/** Where the shared data lives: `../shared` beside the repository (CI lays it there too). */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = resolve(REPO_ROOT, '../shared');
export const ICDAR_DIR = resolve(SHARED, 'data/icdar2013-eu');
export const ICDAR_SCORER = resolve(SHARED, 'eval/icdar2013.py');
