/**
 * The script an extraction child process runs (and any other script a process or thread of ours
 * runs: `scriptEntry`). A built package has the compiled `task.js` beside this module, and the
 * child runs it. From the TypeScript sources, the script is bundled once per content into one
 * plain JavaScript file with esbuild (~0.3 s): a child that loaded the sources through tsx's
 * loader sat at ~370 MB RSS idle, against ~100 MB for plain JavaScript (tsx's hooks run in a
 * thread of their own and keep every transformed file).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Inside the repository, so that the bundle's package imports resolve to its node_modules. */
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/tablemill/', import.meta.url));

/** Bundles made in this process, by source path. */
const bundled = new Map<string, string>();

/** Path of the extraction child's script; bundles the sources on first use when the package is not built. */
export const childEntry = (): Promise<string> => scriptEntry(new URL('./task.js', import.meta.url));

/** Path of the script whose compiled module is `compiled` (a `.js` URL), or of its sources bundled. */
export async function scriptEntry(compiled: URL): Promise<string> {
  const compiledPath = fileURLToPath(compiled);
  const source = compiledPath.replace(/\.js$/, '.ts');
  if (existsSync(compiledPath)) return compiledPath;
  const made = bundled.get(source);
  if (made && existsSync(made)) return made;
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [source],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        // Paths found from `import.meta.url` (the OCR addon, pdf.js's data) stay those of each
        // source file, wherever the bundle lies.
        name: 'source-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const { readFile } = await import('node:fs/promises');
            const text = await readFile(args.path, 'utf8');
            return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
          });
        },
      },
    ],
  });
  const code = out.outputFiles[0].contents;
  const name = source.slice(source.lastIndexOf('/') + 1, -3);
  const file = join(CACHE_DIR, `${name === 'task' ? 'extraction-child' : name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed: processes starting together write the same bytes to one name.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  bundled.set(source, file);
  return file;
}
