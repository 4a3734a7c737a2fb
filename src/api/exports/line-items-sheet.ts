/**
 * The XLSX "Line items" sheet's columns: the CSV's item columns (less its JSON `cells`), then one
 * column per header text the batch's items were read under (`cells` keys, in the order first met),
 * each cell typed in its document's number format like the table sheets. The header texts are
 * collected on the export's first pass, so the columns are known before the sheet's first row.
 */
import type { DocumentResultView } from '../../contract/views.js';
import { LINE_ITEM_COLUMNS, lineItemRows } from './rows.js';
import { documentNumberStyle, typedCell, type TypedCell } from './typed.js';

const MONEY = '#,##0.00';
const MONEY_COLUMNS: ReadonlySet<string> = new Set(['unit_price', 'amount']);
/** The CSV's columns without `cells` (the last one), whose texts become columns of their own. */
const FIXED = LINE_ITEM_COLUMNS.slice(0, -1);

/** A sheet cell: its value, for numbers and dates its format code, and the text it was read from (for the column's width). */
export type SheetCell = { value: string | number | Date | null; numFmt?: string; shown?: string };

export class LineItemColumns {
  /** Each `cells` key, in the order first met, and its column's header. */
  private readonly keys = new Map<string, string>();
  private readonly headers = new Set<string>(FIXED);

  /** Registers the header texts of the document's items (first pass). */
  add(doc: DocumentResultView): void {
    for (const li of doc.line_items ?? []) {
      for (const key of Object.keys(li.cells)) {
        if (this.keys.has(key)) continue;
        // A header text equal to a fixed column's name (`amount`) gets a mark, so no two columns
        // share a header; `Amount` beside `amount` stays as printed.
        let header = key;
        for (let n = 2; this.headers.has(header); n++) header = `${key} (${n})`;
        this.headers.add(header);
        this.keys.set(key, header);
      }
    }
  }

  columns(): string[] {
    return [...FIXED, ...this.keys.values()];
  }

  /** The document's rows: the fixed columns as the CSV has them, then its items' cells, typed. */
  rows(doc: DocumentResultView): SheetCell[][] {
    const items = doc.line_items ?? [];
    if (!items.length) return [];
    const style = documentNumberStyle(doc);
    const keys = [...this.keys.keys()];
    return lineItemRows(doc).map((row, i) => {
      const fixed = row.slice(0, FIXED.length).map((value, k): SheetCell => (typeof value === 'number' && MONEY_COLUMNS.has(FIXED[k]!) ? { value, numFmt: MONEY } : { value }));
      const cells = keys.map((key): SheetCell => {
        const text = items[i]!.cells[key];
        return text === undefined || text === '' ? { value: null } : { ...(typedCell(text, style) as TypedCell), shown: text };
      });
      return [...fixed, ...cells];
    });
  }
}
