/**
 * Vendor memory over HTTP against a running server (issue 27's measure): for each dev set, the
 * vendors with more than one document, in name order. All their documents are processed once
 * ("before": nothing learned); then each vendor's first document gets its expected fields as a
 * correction; then the vendor's later documents are processed again ("after"). Prints, per field,
 * how many of the later documents were right before and after.
 *
 *   TABLEMILL_URL=http://127.0.0.1:8080 TABLEMILL_API_KEY=… node bin/run-ts.js scripts/vendor-memory.ts [--set sroie|einvoices|all]
 *
 * Use a fresh account: its vendor memories are what the run teaches.
 *
 *   node bin/run-ts.js scripts/vendor-memory.ts --local DIR [--set …]
 *
 * does the same in this process, without a server: the engine's steps (`readLayouts`, kept
 * in DIR by the file's bytes, then `resultFromLayouts` and `rereadLost`) and the service's learning step
 * (`teachVendor`), so a change to vendor memory reruns in seconds once the pages are read.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TablemillClient, type Correction, type DocumentResult } from '@tablemill/client';
import { extractOptions, loadConfig } from '../src/config.js';
import { readLayouts, rereadLost, resultFromLayouts } from '../src/extract/index.js';
import { teachVendor, type VendorMemory } from '../src/extract/memory/index.js';
import type { ExtractOptions, ExtractResult, Field, PageLayout } from '../src/extract/types.js';

const DATA = new URL('../../shared/data/', import.meta.url).pathname;
type Kind = 'text' | 'date' | 'num' | 'code';
interface SetSpec {
  dir: string;
  ext: string;
  vendor: (exp: Record<string, unknown>) => string;
  /** expected key → [field, kind] */
  keys: Record<string, [string, Kind]>;
}

const SETS: Record<string, SetSpec> = {
  sroie: {
    dir: 'sroie-dev',
    ext: '.jpg',
    vendor: (e) => String(e.company),
    keys: { company: ['vendor_name', 'text'], date: ['issue_date', 'date'], address: ['vendor_address', 'text'], total: ['total', 'num'] },
  },
  einvoices: {
    dir: 'einvoices-dev',
    ext: '.pdf',
    vendor: (e) => String(e.issuer),
    keys: {
      issuer: ['vendor_name', 'text'],
      invoice_number: ['invoice_number', 'code'],
      date: ['issue_date', 'date'],
      date_due: ['due_date', 'date'],
      currency: ['currency', 'code'],
      iban: ['iban', 'code'],
      vat: ['vendor_tax_id', 'code'],
      amount: ['total', 'num'],
      amount_untaxed: ['subtotal', 'num'],
      amount_tax: ['tax', 'num'],
    },
  },
};

const norm = (s: unknown) => [...String(s).normalize('NFKC').toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)).join('');

/** Ratio of matching characters (a plain LCS ratio, close to difflib's for these lengths). */
function ratio(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return (2 * dp[a.length]![b.length]!) / Math.max(1, a.length + b.length);
}

/** The expected value as the API takes it in a correction (ISO dates, numbers). */
function apiValue(kind: Kind, v: unknown): string | number | null {
  if (v === null || v === undefined || v === '') return null;
  if (kind === 'num') {
    const m = String(v).match(/-?\d[\d,]*(?:\.\d+)?/g);
    return m ? Number(m[m.length - 1]!.replace(/,/g, '')) : null;
  }
  if (kind === 'date') return isoDayFirst(String(v));
  return String(v);
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
function isoDayFirst(s: string): string | null {
  const t = s.toLowerCase().trim();
  const iso = (y: number, m: number, d: number) => `${String(y < 100 ? y + 2000 : y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  let m = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(t);
  if (m) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /(\d{1,2})[-/. ]+([a-z]{3})[a-z]*[-/.,' ]+(\d{2,4})/.exec(t);
  if (m && MONTHS[m[2]!]) return iso(+m[3]!, MONTHS[m[2]!]!, +m[1]!);
  m = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(t);
  if (m) return +m[2]! > 12 ? iso(+m[3]!, +m[1]!, +m[2]!) : iso(+m[3]!, +m[2]!, +m[1]!);
  return null;
}

function right(kind: Kind, ours: unknown, exp: unknown): boolean {
  if (ours === null || ours === undefined || ours === '') return false;
  if (kind === 'num') return Math.abs(Number(ours) - Number(apiValue('num', exp))) <= 0.011;
  if (kind === 'date') return String(ours).slice(0, 10) === apiValue('date', exp);
  if (kind === 'code') return norm(ours) === norm(exp);
  return ratio(norm(ours), norm(exp)) >= 0.8;
}

async function processOverHttp(client: TablemillClient, batch: string, files: string[], dir: string): Promise<Map<string, DocumentResult>> {
  const ids = new Map<string, string>();
  for (let i = 0; i < files.length; i += 20) {
    const up = await client.upload(
      batch,
      files.slice(i, i + 20).map((f) => ({ filename: f, data: readFileSync(join(dir, f)) })),
    );
    for (const d of up.documents) ids.set(d.id, d.filename);
  }
  await client.process(batch);
  await client.waitUntilDone(batch, { timeoutMs: 3 * 3600_000 });
  const out = new Map<string, DocumentResult>();
  for (const d of await client.results(batch)) out.set(d.filename, d);
  return out;
}

/** Processes files and corrects documents: over HTTP, or in this process (`--local`). */
interface Backend {
  process(batch: string, files: string[], dir: string): Promise<Map<string, DocumentResult>>;
  correct(doc: DocumentResult, fields: NonNullable<Correction['fields']>): Promise<void>;
}

function httpBackend(client: TablemillClient): Backend {
  return {
    process: (batch, files, dir) => processOverHttp(client, batch, files, dir),
    correct: async (doc, fields) => void (await client.correct(doc.id, { fields })),
  };
}

/** The engine and the service's learning step in this process; page layouts kept in `cacheDir`. */
function localBackend(cacheDir: string): Backend {
  const config = loadConfig(process.env);
  const opts: ExtractOptions = extractOptions(config);
  const memories: VendorMemory[] = [];
  const layouts = new Map<string, PageLayout[]>();
  const results = new Map<string, ExtractResult>();
  const layoutsOf = async (path: string): Promise<PageLayout[]> => {
    const bytes = new Uint8Array(readFileSync(path));
    const cached = join(cacheDir, `${createHash('sha256').update(bytes).update(`\0${opts.ocrEngine}\0${opts.ocrLangs}`).digest('hex')}.json`);
    if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as PageLayout[];
    const read = await readLayouts(bytes, opts);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, JSON.stringify(read));
    return read;
  };
  return {
    async process(batch, files, dir) {
      const out = new Map<string, DocumentResult>();
      for (const f of files) {
        const id = `${batch}/${f}`;
        const l = layouts.get(join(dir, f)) ?? (await layoutsOf(join(dir, f)));
        layouts.set(join(dir, f), l);
        const o = { ...opts, vendorMemory: [...memories].reverse() };
        const r = await rereadLost(new Uint8Array(readFileSync(join(dir, f))), resultFromLayouts(l, o), o);
        results.set(id, r);
        out.set(f, { id, filename: f, status: 'succeeded', fields: r.fields } as unknown as DocumentResult);
      }
      return out;
    },
    async correct(doc, fields) {
      const r = results.get(doc.id)!;
      const pages = r.words ?? [];
      const values = new Map(Object.entries(fields).filter((e): e is [string, string | number] => e[1] !== null && typeof e[1] !== 'object'));
      const mem = teachVendor(memories, r.vendor_memory_id, pages, r.fields as unknown as Record<string, Field | null>, { values, customTypes: new Map() }, `ven_${memories.length + 1}`);
      const at = memories.findIndex((m) => m.id === mem.id);
      if (at >= 0) memories.splice(at, 1);
      memories.push(mem);
    },
  };
}

async function runSet(backend: Backend, name: string, spec: SetSpec): Promise<void> {
  const dir = join(DATA, spec.dir);
  const expected = new Map<string, Record<string, unknown>>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(spec.ext)).sort()) {
    const raw = JSON.parse(readFileSync(join(dir, f.replace(spec.ext, '.json')), 'utf8')) as unknown;
    expected.set(f, (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown>);
  }
  const byVendor = new Map<string, string[]>();
  for (const [f, e] of expected) byVendor.set(spec.vendor(e), [...(byVendor.get(spec.vendor(e)) ?? []), f]);
  const vendors = [...byVendor].filter(([, fs]) => fs.length > 1);
  if (!vendors.length) {
    console.log(`${name}: no vendor occurs more than once`);
    return;
  }
  const files = vendors.flatMap(([, fs]) => fs);
  const later = vendors.flatMap(([, fs]) => fs.slice(1));
  const stamp = Date.now().toString(36);
  console.error(`${name}: ${vendors.length} vendors, ${files.length} documents (${later.length} later ones)`);
  const before = await backend.process(`vm-${name}-before-${stamp}`, files, dir);
  for (const [, fs] of vendors) {
    const first = before.get(fs[0]!)!;
    if (first.status !== 'succeeded') continue;
    const fields: NonNullable<Correction['fields']> = {};
    for (const [key, [field, kind]] of Object.entries(spec.keys)) {
      const v = apiValue(kind, expected.get(fs[0]!)![key]);
      if (v !== null) fields[field] = v;
    }
    await backend.correct(first, fields);
  }
  const after = await backend.process(`vm-${name}-after-${stamp}`, later, dir);
  // --verbose: each later document's fields after, wrong ones with what was expected.
  if (process.argv.includes('--verbose')) {
    for (const f of later) {
      const fa = (after.get(f)?.fields ?? {}) as Record<string, { value: unknown; source?: string } | null>;
      const wrong = Object.entries(spec.keys)
        .filter(([key, [field, kind]]) => expected.get(f)![key] && !right(kind, fa[field]?.value, expected.get(f)![key]))
        .map(([key, [field]]) => `${field}=${JSON.stringify(fa[field]?.value ?? null)}${fa[field]?.source === 'vendor_memory' ? ' (memory)' : ''} want ${JSON.stringify(expected.get(f)![key])}`);
      console.log(`${f} ${spec.vendor(expected.get(f)!)}: ${wrong.length ? wrong.join('; ') : 'all right'}`);
    }
  }
  console.log(`\n${name}: ${vendors.length} vendors that repeat, ${later.length} later documents\n`);
  console.log('| key | field | expected | right before | right after | by vendor memory |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  let tb = 0;
  let ta = 0;
  let tn = 0;
  for (const [key, [field, kind]] of Object.entries(spec.keys)) {
    let n = 0;
    let b = 0;
    let a = 0;
    let mem = 0;
    for (const f of later) {
      const exp = expected.get(f)![key];
      if (exp === undefined || exp === null || exp === '') continue;
      n++;
      const fb = (before.get(f)?.fields as Record<string, { value: unknown } | null> | null)?.[field];
      const fa = (after.get(f)?.fields as Record<string, { value: unknown; source?: string } | null> | null)?.[field];
      if (right(kind, fb?.value, exp)) b++;
      if (right(kind, fa?.value, exp)) a++;
      if (fa?.source === 'vendor_memory') mem++;
    }
    tb += b;
    ta += a;
    tn += n;
    const pct = (x: number) => `${x}/${n} (${n ? ((100 * x) / n).toFixed(0) : '–'} %)`;
    console.log(`| ${key} | ${field} | ${n} | ${pct(b)} | ${pct(a)} | ${mem} |`);
  }
  console.log(`| all | | ${tn} | ${tb}/${tn} (${((100 * tb) / tn).toFixed(1)} %) | ${ta}/${tn} (${((100 * ta) / tn).toFixed(1)} %) | |`);
}

const setArg = process.argv.includes('--set') ? process.argv[process.argv.indexOf('--set') + 1]! : 'all';
const local = process.argv.includes('--local') ? process.argv[process.argv.indexOf('--local') + 1]! : null;
const backend = local ? localBackend(local) : httpBackend(new TablemillClient(process.env.TABLEMILL_URL ?? 'http://127.0.0.1:8080', process.env.TABLEMILL_API_KEY ?? ''));
for (const name of setArg === 'all' ? Object.keys(SETS) : [setArg]) await runSet(backend, name, SETS[name]!);
