/**
 * The ICDAR 2013 structure measure, for the tests and the agreement measure (agreement.ts):
 * adjacency relations between neighbouring non-empty cells (right and down), compared on
 * whitespace-free NFKC text; precision and recall per document, averaged over documents; F1 of
 * the two averages. The same measure as the development
 * scorer (`icdar2013.py` of the development data), so a test needs nothing outside the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One cell: its identity (a counter), its normalised text, and the grid positions it covers. */
type Grid = Map<string, { id: number; text: string }>;

const norm = (s: string) => s.normalize('NFKC').replace(/\s+/gu, '');
const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function relations(grid: Grid, into: Set<string>): void {
  if (grid.size === 0) return;
  let rows = 0;
  let cols = 0;
  for (const key of grid.keys()) {
    const [r, c] = key.split(',').map(Number);
    rows = Math.max(rows, r + 1);
    cols = Math.max(cols, c + 1);
  }
  const walk = (outer: number, inner: number, at: (o: number, i: number) => string, dir: string) => {
    for (let o = 0; o < outer; o++) {
      let prev: { id: number; text: string } | null = null;
      for (let i = 0; i < inner; i++) {
        const cell = grid.get(at(o, i));
        if (!cell || cell.text === '') continue;
        if (prev && prev.id !== cell.id) into.add(`${prev.text}\u0000${cell.text}\u0000${dir}`);
        prev = cell;
      }
    }
  };
  walk(rows, cols, (r, c) => `${r},${c}`, 'h');
  walk(cols, rows, (c, r) => `${r},${c}`, 'v');
}

/** The ground truth of an ICDAR `-str.xml` as result tables: one per region, cells with their spans and text. */
export function truthTables(xml: string): { cells: Required<ResultCell>[] }[] {
  const tables: { cells: Required<ResultCell>[] }[] = [];
  for (const region of xml.matchAll(/<region\b[^>]*>([\s\S]*?)<\/region>/g)) {
    const cells: Required<ResultCell>[] = [];
    for (const m of region[1].matchAll(/<cell\b([^>]*?)(\/>|>([\s\S]*?)<\/cell>)/g)) {
      const attr = (name: string) => new RegExp(`\\b${name}=["'](\\d+)["']`).exec(m[1])?.[1];
      const row = Number(attr('start-row'));
      const col = Number(attr('start-col'));
      const content = /<content>([\s\S]*?)<\/content>/.exec(m[3] ?? '')?.[1] ?? '';
      cells.push({ row, col, row_span: Number(attr('end-row') ?? row) - row + 1, col_span: Number(attr('end-col') ?? col) - col + 1, text: decode(content) });
    }
    tables.push({ cells });
  }
  return tables;
}

/** The ground truth's relations, from an ICDAR `-str.xml`. */
export function truthRelations(xml: string): Set<string> {
  return resultRelations({ tables: truthTables(xml) });
}

interface ResultCell {
  row?: number;
  col?: number;
  row_span?: number;
  col_span?: number;
  text?: unknown;
}

/** A result's relations, from its `tables[].cells`. */
export function resultRelations(result: { tables?: { cells?: ResultCell[] }[] | null }): Set<string> {
  const out = new Set<string>();
  let n = 0;
  for (const t of result.tables ?? []) {
    const grid: Grid = new Map();
    for (const c of t.cells ?? []) {
      n++;
      const r0 = Number(c.row ?? 0);
      const c0 = Number(c.col ?? 0);
      const cell = { id: n, text: norm(String(c.text ?? '')) };
      for (let r = r0; r < r0 + Number(c.row_span || 1); r++) for (let k = c0; k < c0 + Number(c.col_span || 1); k++) grid.set(`${r},${k}`, cell);
    }
    relations(grid, out);
  }
  return out;
}

export interface Score {
  documents: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Scores `results` (name → result, a missing name counts as nothing found) against every `NAME-str.xml` of `dir` that has its `NAME.pdf`. */
export function scoreIcdar(dir: string, results: Map<string, { tables?: { cells?: ResultCell[] }[] | null }>): Score {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('-str.xml') && existsSync(join(dir, `${f.slice(0, -8)}.pdf`)))
    .map((f) => f.slice(0, -8))
    .sort();
  let p = 0;
  let r = 0;
  for (const name of names) {
    const truth = truthRelations(readFileSync(join(dir, `${name}-str.xml`), 'utf8'));
    const found = resultRelations(results.get(name) ?? {});
    let hit = 0;
    for (const x of found) if (truth.has(x)) hit++;
    p += found.size ? hit / found.size : 0;
    r += truth.size ? hit / truth.size : 0;
  }
  const precision = p / names.length;
  const recall = r / names.length;
  return { documents: names.length, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
