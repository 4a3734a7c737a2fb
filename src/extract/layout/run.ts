/**
 * How an ordered list of layout passes runs: each pass in turn, given the page (or document) it
 * works on and the tables so far, returning the tables after it. Each is timed under its name
 * (`../passes.ts`).
 *
 * While a trace is open (`traceTables`) each pass's tables before and after are compared, and
 * what it did is kept: which tables it made, which it cut (a table of the same place changed:
 * rows taken on, a header joined, cells read again) and which it dropped. Without a trace the
 * runner pays one check a pass list.
 */
import type { BBox, Table } from '../types.js';
import { pass } from '../passes.js';

/** One named step of the layout: the tables after it, from what it works on and the tables before it. */
export interface LayoutPass<P> {
  name: string;
  run(on: P, tables: Table[]): Table[];
}

/** What one pass did to one table. */
export interface TraceEvent {
  /** The page the table stands on (its first page). */
  page: number;
  /** The pass, after the label of the list it ran in when that list ran inside another pass ("turned text 90° › stream"). */
  pass: string;
  what: 'made' | 'cut' | 'dropped';
  /** The table's number in this trace, kept while passes cut it. */
  table: number;
  /** Rows × columns, and the box, after the pass (before it, for a table dropped). */
  shape: string;
  bbox: BBox;
  /** A table cut: its shape before. */
  was?: string;
  /** A table dropped whose place a table the pass left now covers (joined into it). */
  into?: number;
  /** A table made from a part of one another table of the pass was cut from. */
  from?: number;
}

interface Trace {
  ids: WeakMap<Table, number>;
  next: number;
  events: TraceEvent[];
}

let open: Trace | null = null;

/** The tables after running `passes` in order on `on`, from `tables`; `label` names the list in a trace when it runs inside another pass. */
export function runPasses<P>(passes: readonly LayoutPass<P>[], on: P, tables: Table[] = [], label = ''): Table[] {
  if (open === null) {
    for (const p of passes) tables = pass(p.name, () => p.run(on, tables));
    return tables;
  }
  const trace = open;
  for (const p of passes) {
    const before = tables;
    tables = pass(p.name, () => p.run(on, [...before]));
    record(trace, label ? `${label} › ${p.name}` : p.name, before, tables);
  }
  return tables;
}

/** Runs `fn` with a trace open; what it returned and what each layout pass did to each table in it. */
export function traceTables<T>(fn: () => T): { result: T; trace: TraceEvent[] } {
  if (open !== null) throw new Error('a table trace is already open');
  const trace: Trace = { ids: new WeakMap(), next: 1, events: [] };
  open = trace;
  try {
    return { result: fn(), trace: trace.events };
  } finally {
    open = null;
  }
}

const shapeOf = (t: Table) => `${t.n_rows}×${t.n_cols}`;

function overlap(a: BBox, b: BBox): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w >= 0 && h >= 0 ? Math.max(w * h, Number.MIN_VALUE) : 0;
}

/** The table of `among` on the page of `t` whose box overlaps its box most, or none. */
function nearest(t: Table, among: Table[]): Table | undefined {
  let best: Table | undefined, most = 0;
  for (const o of among) {
    const a = o.page === t.page ? overlap(o.bbox, t.bbox) : 0;
    if (a > most) { most = a; best = o; }
  }
  return best;
}

/**
 * What one pass did, from its tables before and after: a table after it that was not before it
 * is one it made, or, standing where a table it left out stood, that table cut (the one it
 * overlaps most; a copy alike in every cell is no cut); the tables left out and not cut are dropped.
 */
function record(trace: Trace, name: string, before: Table[], after: Table[]): void {
  const kept = new Set(after);
  const gone = before.filter((t) => !kept.has(t));
  const had = new Set(before);
  const cut = new Set<Table>();
  const event = (t: Table, what: TraceEvent['what'], id: number, extra: Partial<TraceEvent> = {}) =>
    trace.events.push({ page: t.page, pass: name, what, table: id, shape: shapeOf(t), bbox: t.bbox, ...extra });
  for (const t of after) {
    if (had.has(t) || trace.ids.has(t)) continue;
    const from = nearest(t, gone);
    if (from && !cut.has(from) && trace.ids.has(from)) {
      cut.add(from);
      trace.ids.set(t, trace.ids.get(from)!);
      // A pass may give back a copy of a table it left as it was.
      if (JSON.stringify(t) !== JSON.stringify(from)) event(t, 'cut', trace.ids.get(from)!, { was: shapeOf(from) });
    } else {
      trace.ids.set(t, trace.next++);
      event(t, 'made', trace.ids.get(t)!, from && trace.ids.has(from) ? { from: trace.ids.get(from) } : {});
    }
  }
  for (const t of gone) {
    if (cut.has(t) || !trace.ids.has(t)) continue;
    // A table joined onto one of an earlier page (stitched) stands under that table's pages.
    const into = nearest(t, after) ?? after.find((o) => o.page !== t.page && o.pages.includes(t.page));
    event(t, 'dropped', trace.ids.get(t)!, into ? { into: trace.ids.get(into) } : {});
  }
}

/** A trace as text: per page, each pass's tables in the order the passes ran. */
export function traceText(events: TraceEvent[]): string {
  const pages = [...new Set(events.map((e) => e.page))].sort((a, b) => a - b);
  const width = Math.max(0, ...events.map((e) => e.pass.length));
  const box = (b: BBox) => `[${b.map((v) => Math.round(v)).join(' ')}]`;
  return pages
    .map((page) => {
      const lines = events.filter((e) => e.page === page).map((e) => {
        const what = e.what === 'cut' ? `cut      t${e.table} ${e.was} → ${e.shape}` : `${e.what.padEnd(8)} t${e.table} ${e.shape}`;
        const note = e.into !== undefined ? ` into t${e.into}` : e.from !== undefined ? ` from t${e.from}` : '';
        return `  ${e.pass.padEnd(width)}  ${what} ${box(e.bbox)}${note}`;
      });
      return [`page ${page}`, ...lines].join('\n');
    })
    .join('\n') + '\n';
}
