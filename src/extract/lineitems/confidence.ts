/**
 * OCR confidence on line items: an item read from a word Tesseract was unsure of is flagged
 * `low_confidence`, so a person checks it before it is booked. Text-layer cells have no
 * confidence and never raise the flag.
 */
import { UNSURE_WORD, type LineItem, type Table } from '../types.js';

/** Adds `low_confidence` to each item one of whose non-empty cells was read unsure (below `UNSURE_WORD`). */
export function flagLowConfidence(items: LineItem[], tables: Table[]): void {
  for (const item of items) {
    const table = tables[item.table_index];
    if (!table) continue;
    const [x0, y0, x1, y1] = item.bbox;
    const unsure = table.cells.some((c) => {
      if (c.text === '' || c.confidence === null || c.confidence >= UNSURE_WORD) return false;
      const cx = (c.bbox[0] + c.bbox[2]) / 2;
      const cy = (c.bbox[1] + c.bbox[3]) / 2;
      return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
    });
    if (unsure && !item.flags.includes('low_confidence')) item.flags.push('low_confidence');
  }
}
