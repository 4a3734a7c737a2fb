/** Paths the tests use. Everything a test reads is inside the repository. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The 27 ICDAR 2013 EU PDFs with their `-str.xml` structure files (see the README there). */
export const ICDAR_DIR = resolve(REPO_ROOT, 'test/fixtures/icdar2013-eu');
