/**
 * The development sets `npm run eval` knows: which files of each set the engine reads, and how
 * the set's scorer (../shared/eval/, stdlib Python) turns the results into figures. A scorer
 * prints one `key=value …` summary line; each set names the keys it reports.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * `embedded`: what the engine reads of what a file carries (API.md §4c); the sets that measure
 * page reading read the page alone (`ignore`, the default here), the `-embedded` and `-xml` sets
 * the e-invoices' XML.
 */
export interface Job {
  input: string;
  output: string;
  embedded?: 'use' | 'ignore';
  /** Page images read as one document in place of `input` (scripts/eval-worker.ts). */
  pages?: string[];
}

export interface EvalSet {
  name: string;
  /** The folder of the data under the data root. */
  folder: string;
  /** The engine's jobs for the set; `work` is a folder for renders, `out` the results folder. */
  jobs(dir: string, work: string, out: string): Job[];
  /** After extraction: turns page results into document results where a set needs it. */
  merge?(dir: string, work: string, out: string): void;
  /** `[measure, figure]` rows from the scorers. */
  score(dir: string, out: string, scorers: string): Array<[string, string]>;
}

/** The `key=value` pairs of a scorer's last summary line. */
function summary(scorer: string, args: string[]): Record<string, string> {
  const text = execFileSync('python3', [scorer, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = text.trim().split('\n').filter((l) => /\w+=\S/.test(l)).pop() ?? '';
  return Object.fromEntries(line.split(/\s+/).map((kv) => kv.split('=') as [string, string]));
}

function files(dir: string, ext: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(ext)).sort();
}

function oneEach(dir: string, ext: string, out: string): Job[] {
  return files(dir, ext).map((f) => ({ input: join(dir, f), output: join(out, basename(f, ext) + '.json') }));
}

/** How many results name at least one line item (reports should give none). */
function withItems(out: string): string {
  const names = files(out, '.json');
  const n = names.filter((f) => (JSON.parse(readFileSync(join(out, f), 'utf8')).line_items ?? []).length > 0).length;
  return `${n} of ${names.length}`;
}

/** The ICDAR eu PDFs rendered to 200 dpi PNG pages (poppler's pdftoppm), once per work folder. */
function renderPages(dir: string, work: string): string[] {
  const png = join(work, 'eu-png-200');
  if (!existsSync(join(png, '.done'))) {
    mkdirSync(png, { recursive: true });
    for (const f of files(dir, '.pdf')) execFileSync('pdftoppm', ['-r', '200', '-png', join(dir, f), join(png, basename(f, '.pdf'))]);
    writeFileSync(join(png, '.done'), '');
  }
  return files(png, '.png').map((f) => join(png, f));
}

export const SETS: EvalSet[] = [
  {
    name: 'icdar2013-eu',
    folder: 'icdar2013-eu',
    jobs: (dir, _work, out) => oneEach(dir, '.pdf', out),
    score(dir, out, scorers) {
      const s = summary(join(scorers, 'icdar2013.py'), [dir, out]);
      return [['table F1', s.f1], ['precision / recall', `${s.precision} / ${s.recall}`], ['reports with line items', withItems(out)]];
    },
  },
  {
    name: 'icdar2013-eu-png',
    folder: 'icdar2013-eu',
    jobs: (dir, work, out) => renderPages(dir, work).map((p) => ({ input: p, output: join(out, 'pages', basename(p, '.png') + '.json') })),
    // pdftoppm names pages NAME-1.png … or NAME-01.png …: a document's tables in page order.
    merge(dir, _work, out) {
      const pages = files(join(out, 'pages'), '.json');
      for (const f of files(dir, '.pdf')) {
        const name = basename(f, '.pdf');
        const mine = pages
          .map((p) => ({ p, m: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)\\.json$`).exec(p) }))
          .filter((x) => x.m)
          .sort((a, b) => Number(a.m![1]) - Number(b.m![1]));
        const tables = mine.flatMap(({ p, m }) => {
          const r = JSON.parse(readFileSync(join(out, 'pages', p), 'utf8'));
          return (r.tables ?? []).map((t: { page: number; pages: number[] }) => ({ ...t, page: Number(m![1]), pages: [Number(m![1])] }));
        });
        writeFileSync(join(out, `${name}.json`), JSON.stringify({ page_count: mine.length, tables }) + '\n');
      }
    },
    score(dir, out, scorers) {
      const s = summary(join(scorers, 'icdar2013.py'), [dir, out]);
      return [['table F1 (200 dpi PNG pages)', s.f1], ['precision / recall', `${s.precision} / ${s.recall}`]];
    },
  },
  {
    name: 'ctdar-train',
    folder: 'ctdar-train',
    jobs: (dir, _work, out) => oneEach(dir, '.jpg', out),
    score(dir, out, scorers) {
      const s = summary(join(scorers, 'ctdar.py'), [dir, out]);
      const latin = summary(join(scorers, 'ctdar.py'), [dir, out, '--exclude', join(dir, 'cjk.txt')]);
      return [['table F1', s.f1], ['precision / recall', `${s.precision} / ${s.recall}`], ['table F1 without Chinese pages', latin.f1]];
    },
  },
  {
    name: 'sroie-dev',
    folder: 'sroie-dev',
    jobs: (dir, _work, out) => oneEach(dir, '.jpg', out),
    score(dir, out, scorers) {
      const s = summary(join(scorers, 'sroie.py'), [dir, out]);
      return [
        ['fields accuracy', `${s.accuracy}; sure ${s.sure_right} of ${s.sure}`],
        ['vendor / date / address / total', `${s.company} ${s.date} ${s.address} ${s.total}`],
        ['typed receipt', `${s.typed_receipt} of ${s.documents}`],
      ];
    },
  },
  {
    name: 'einvoices-dev',
    folder: 'einvoices-dev',
    jobs: (dir, _work, out) => oneEach(dir, '.pdf', out),
    score(dir, out, scorers) {
      const f = summary(join(scorers, 'invoice-fields.py'), [dir, out]);
      const items = summary(join(scorers, 'invoices.py'), [dir, out]);
      const rows = summary(join(scorers, 'table_rows.py'), [dir, out]);
      return [
        ['fields accuracy', `${f.accuracy} (${f.right} of ${f.fields}); sure ${f.sure_right} of ${f.sure}`],
        ['line-item F1', `${items.f1} (P ${items.precision} R ${items.recall})`],
        ['item rows found in tables', `${rows.found} of ${rows.rows}`],
      ];
    },
  },
  {
    // The same PDFs with their attached XML read and checked against the print.
    name: 'einvoices-dev-embedded',
    folder: 'einvoices-dev',
    jobs: (dir, _work, out) => oneEach(dir, '.pdf', out).map((j) => ({ ...j, embedded: 'use' as const })),
    score: (dir, out, scorers) => [...carriedScores(dir, out, scorers, 'pdf'), ['documents with warnings', warned(out)]],
  },
  {
    // The XML attached to each PDF (poppler's pdfdetach), uploaded alone.
    name: 'einvoices-dev-xml',
    folder: 'einvoices-dev',
    jobs: (dir, work, out) => detachXml(dir, work).map((x) => ({ input: x, output: join(out, basename(x, '.xml') + '.json'), embedded: 'use' as const })),
    // The expected set for the scorers: each NAME.json beside its NAME.xml.
    merge(dir, work, out) {
      const expected = join(out, 'expected');
      mkdirSync(expected, { recursive: true });
      for (const x of detachXml(dir, work)) {
        const name = basename(x, '.xml');
        copyFileSync(x, join(expected, `${name}.xml`));
        copyFileSync(join(dir, `${name}.json`), join(expected, `${name}.json`));
      }
    },
    score: (_dir, out, scorers) => carriedScores(join(out, 'expected'), out, scorers, 'xml'),
  },
  invoiceImages('einvoices-dev-scan', '.pdf'),
  invoiceImages('einvoices-dev-photo', '.jpg'),
];

/** Fields and line items of e-invoices read with what they carry. */
function carriedScores(dir: string, out: string, scorers: string, ext: string): Array<[string, string]> {
  const f = summary(join(scorers, 'invoice-fields.py'), [dir, out, '--ext', ext]);
  const items = summary(join(scorers, 'invoices.py'), [dir, out]);
  return [
    ['fields accuracy', `${f.accuracy} (${f.right} of ${f.fields}); sure ${f.sure_right} of ${f.sure}`],
    ['line-item F1', `${items.f1} (P ${items.precision} R ${items.recall})`],
  ];
}

/** How many results carry warnings, and of which codes. */
function warned(out: string): string {
  const codes = files(out, '.json').flatMap((f) => ((JSON.parse(readFileSync(join(out, f), 'utf8')).warnings ?? []) as Array<{ code: string; field: string | null }>).map((w) => `${w.code}:${w.field}`));
  return codes.length ? codes.join(' ') : 'none';
}

/**
 * Each PDF's attached invoice XML saved as NAME.xml in the work folder (`pdfdetach -saveall`),
 * with the expected NAME.json beside it (a folder the scorers read as the expected set).
 */
function detachXml(dir: string, work: string): string[] {
  const xmlDir = join(work, 'einvoices-xml');
  if (!existsSync(join(xmlDir, '.done'))) {
    mkdirSync(xmlDir, { recursive: true });
    for (const f of files(dir, '.pdf')) {
      const name = basename(f, '.pdf');
      const tmp = join(xmlDir, `.${name}`);
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp);
      execFileSync('pdfdetach', ['-saveall', '-o', tmp, join(dir, f)]);
      const xml = readdirSync(tmp).find((a) => /^(factur-x|zugferd-invoice|xrechnung)\.xml$/i.test(a));
      if (xml) copyFileSync(join(tmp, xml), join(xmlDir, `${name}.xml`));
      rmSync(tmp, { recursive: true, force: true });
    }
    writeFileSync(join(xmlDir, '.done'), '');
  }
  return files(xmlDir, '.xml').map((f) => join(xmlDir, f));
}

/** The e-invoices as scans (image-only PDFs) or phone photos (JPEG): fields and line items. */
function invoiceImages(name: string, ext: '.pdf' | '.jpg'): EvalSet {
  return {
    name,
    folder: name,
    jobs: (dir, _work, out) => oneEach(dir, ext, out),
    score(dir, out, scorers) {
      const f = summary(join(scorers, 'invoice-fields.py'), [dir, out, '--ext', ext.slice(1)]);
      const items = summary(join(scorers, 'invoices.py'), [dir, out]);
      return [
        ['fields accuracy', `${f.accuracy} (${f.right} of ${f.fields}); sure ${f.sure_right} of ${f.sure}`],
        ['line-item F1', `${items.f1} (P ${items.precision} R ${items.recall})`],
      ];
    },
  };
}
