/**
 * The page of an invoice uploaded as XML: its values laid out on one A4-wide page of monospaced
 * text (labels and values, then the lines as a table, then the sums), as words the engine reads
 * like a text layer and a viewer draws (`paintInvoicePage`). Monospace (advance 0.6 em, as
 * DejaVu Sans Mono and Courier have) gives every word's box without measuring a font, so the
 * boxes of the result and the drawn page agree whichever monospaced font the machine has.
 */
import type { BBox, FieldName, PageLayout, Ruling, Word } from '../types.js';
import type { CarriedInvoice, CarriedLine } from './invoice.js';

const PAGE_WIDTH = 595;
const MARGIN = 42;
const SIZE = 9;
const CHAR = 0.6 * SIZE;
const LEADING = 13;
const COLUMNS = Math.floor((PAGE_WIDTH - 2 * MARGIN) / CHAR);
/** Where the value of a `Label: value` line starts, in characters. */
const VALUE_AT = 20;
/** The item table's columns: description, then right-aligned numbers ending at these characters. */
const DESCRIPTION_CHARS = 48;
const NUMBER_ENDS = [60, 75, COLUMNS];

export interface InvoicePage {
  layout: PageLayout;
  /** Where each field's value is printed. */
  boxes: Partial<Record<FieldName, BBox>>;
  /** Each line's row on the page. */
  rows: BBox[];
}

const LABELS: Array<[FieldName, string]> = [
  ['invoice_number', 'Invoice number'],
  ['issue_date', 'Issue date'],
  ['due_date', 'Due date'],
  ['order_number', 'Order number'],
  ['vendor_name', 'Seller'],
  ['vendor_address', 'Seller address'],
  ['vendor_tax_id', 'Seller VAT id'],
  ['customer_name', 'Buyer'],
  ['iban', 'IBAN'],
  ['payment_terms', 'Payment terms'],
  ['currency', 'Currency'],
];
const SUMS: Array<[FieldName, string]> = [
  ['subtotal', 'Total without tax'],
  ['tax', 'Tax'],
  ['total', 'Total with tax'],
  ['amount_due', 'Amount due'],
];

/** Lays out `inv` as a page. */
export function invoicePage(inv: CarriedInvoice): InvoicePage {
  const words: Word[] = [];
  const rulings: Ruling[] = [];
  const boxes: InvoicePage['boxes'] = {};
  let y = MARGIN;
  /** Puts `text` at character `col` of the current line; the box of its words. */
  const put = (text: string, col: number, size = SIZE): BBox | null => {
    let x = MARGIN + col * CHAR;
    const start = words.length;
    for (const part of text.split(/( +)/)) {
      if (part.trim()) words.push({ text: part, x0: x, y0: y, x1: x + part.length * 0.6 * size, y1: y + size, size, confidence: null });
      x += part.length * 0.6 * size;
    }
    const mine = words.slice(start);
    return mine.length ? [mine[0]!.x0, y, mine[mine.length - 1]!.x1, y + size] : null;
  };
  put(inv.credit_note ? 'CREDIT NOTE' : 'INVOICE', 0, 14);
  y += 2 * LEADING;
  const labelled = (pairs: Array<[FieldName, string]>) => {
    for (const [name, label] of pairs) {
      const v = inv.fields[name];
      if (!v) continue;
      const value = typeof v.value === 'number' ? v.value.toFixed(2) : String(v.value);
      const lines = wrap(value, COLUMNS - VALUE_AT);
      put(`${label}:`, 0);
      const parts = lines.map((l, i) => {
        if (i) y += LEADING;
        return put(l, VALUE_AT);
      });
      const b = parts.filter((p): p is BBox => !!p);
      if (b.length) boxes[name] = [Math.min(...b.map((p) => p[0])), b[0]![1], Math.max(...b.map((p) => p[2])), b[b.length - 1]![3]];
      y += LEADING;
    }
  };
  labelled(LABELS);
  y += LEADING;
  const rows = inv.lines.length ? itemTable(inv.lines, put, rulings, () => y, (dy) => (y += dy)) : [];
  y += LEADING;
  labelled(SUMS);
  return { layout: { page: 1, width: PAGE_WIDTH, height: Math.max(842, y + MARGIN), words, rulings }, boxes, rows };
}

function itemTable(
  lines: CarriedLine[],
  put: (text: string, col: number) => BBox | null,
  rulings: Ruling[],
  y: () => number,
  down: (dy: number) => void,
): BBox[] {
  const right = (text: string, end: number) => put(text, end - text.length);
  const rule = () => rulings.push({ x0: MARGIN, y0: y() - 2, x1: PAGE_WIDTH - MARGIN, y1: y() - 2 });
  put('Description', 0);
  ['Quantity', 'Unit price', 'Amount'].forEach((h, i) => right(h, NUMBER_ENDS[i]!));
  down(LEADING);
  rule();
  const rows: BBox[] = [];
  for (const line of lines) {
    const top = y();
    const numbers = [line.quantity === null ? '' : String(line.quantity), money(line.unit_price), money(line.amount)];
    numbers.forEach((t, i) => t && right(t, NUMBER_ENDS[i]!));
    const text = wrap(line.description ?? '', DESCRIPTION_CHARS);
    text.forEach((t, i) => {
      if (i) down(LEADING);
      put(t, 0);
    });
    down(LEADING);
    rows.push([MARGIN, top, PAGE_WIDTH - MARGIN, y() - LEADING + SIZE]);
  }
  rule();
  return rows;
}

function money(n: number | null): string {
  return n === null ? '' : n.toFixed(2);
}

/** `text` cut at spaces into lines of at most `width` characters (longer words cut too). */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let w = word; w; w = w.slice(width)) {
      const piece = w.slice(0, width);
      if (cur && cur.length + 1 + piece.length > width) {
        out.push(cur);
        cur = piece;
      } else cur = cur ? `${cur} ${piece}` : piece;
    }
  }
  if (cur) out.push(cur);
  return out.length ? out : [''];
}

/** The page drawn `width` pixels wide, as a PNG (@napi-rs/canvas is loaded for it: reading the XML needs none). */
export async function paintInvoicePage(page: PageLayout, width: number): Promise<{ png: Buffer; width: number; height: number }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const scale = width / page.width;
  const w = Math.round(page.width * scale);
  const h = Math.round(page.height * scale);
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#000';
  ctx.strokeStyle = '#000';
  ctx.textBaseline = 'alphabetic';
  for (const word of page.words) {
    ctx.font = `${word.size * scale}px "DejaVu Sans Mono", "Liberation Mono", Courier, monospace`;
    ctx.fillText(word.text, word.x0 * scale, (word.y0 + word.size * 0.8) * scale);
  }
  ctx.lineWidth = Math.max(1, 0.5 * scale);
  for (const r of page.rulings) {
    ctx.beginPath();
    ctx.moveTo(r.x0 * scale, r.y0 * scale);
    ctx.lineTo(r.x1 * scale, r.y1 * scale);
    ctx.stroke();
  }
  return { png: await canvas.encode('png'), width: w, height: h };
}
