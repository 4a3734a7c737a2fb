/**
 * The files an `upload` or `convert` sends: each PATH as given, and every file with a supported
 * extension under each folder, recursively, in a stable order. A file named on the command line
 * is always sent (the server sniffs its bytes); inside folders other files are skipped, since one
 * unsupported file would fail its whole upload request (415), and each is named with the reason. `.xml` files are
 * sent only when their head shows an invoice's root (CII, UBL).
 */
import { open, readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { note } from './progress.js';
import { isInvoiceXml } from '../extract/carried/sniff.js';

/** The first 4 KiB of the file at `path` (what the server sniffs), or fewer when it is shorter. */
export async function fileHead(path: string): Promise<Uint8Array> {
  const f = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await f.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

/** Whether the file at `path` starts as invoice XML. */
async function invoiceXmlFile(path: string): Promise<boolean> {
  return isInvoiceXml(await fileHead(path));
}

const EXTENSIONS = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp']);

export interface LocalFile {
  path: string;
  size: number;
}

/** A file of a folder that is not sent, and why. */
export interface Skipped {
  path: string;
  reason: string;
}

async function walk(dir: string, out: LocalFile[], skipped: Skipped[]): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    // Hidden files and folders (.git, .DS_Store) are no one's documents: left out unnamed.
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out, skipped);
    else if (!e.isFile()) skipped.push({ path: p, reason: 'not a regular file' });
    else if (EXTENSIONS.has(extname(e.name).toLowerCase())) out.push({ path: p, size: (await stat(p)).size });
    else if (extname(e.name).toLowerCase() === '.xml' && (await invoiceXmlFile(p))) out.push({ path: p, size: (await stat(p)).size });
    else if (extname(e.name).toLowerCase() === '.xml') skipped.push({ path: p, reason: 'XML that is no CII or UBL invoice' });
    else skipped.push({ path: p, reason: `not a PDF, image or invoice XML (${extname(e.name).toLowerCase() || 'no extension'}; sent are .pdf, .png, .jpg, .tif, .webp, invoice .xml)` });
  }
}

/** The files under `paths`, and those of their folders left out; a missing path throws (a usage mistake the user must see). */
export async function collectFiles(paths: string[]): Promise<{ files: LocalFile[]; skipped: Skipped[] }> {
  const files: LocalFile[] = [];
  const skipped: Skipped[] = [];
  for (const p of paths) {
    const s = await stat(p);
    if (s.isDirectory()) await walk(p, files, skipped);
    else files.push({ path: p, size: s.size });
  }
  return { files, skipped };
}

/** Names each skipped file and why on stderr, so a folder's `.docx` is not left out unsaid. */
export function noteSkipped(skipped: Skipped[]): void {
  for (const s of skipped) note(`skipped ${s.path}: ${s.reason}`);
}
