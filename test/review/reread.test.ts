/**
 * A date the page's OCR lost (`INV Date` read without its date) on a receipt of a vendor the
 * memory knows: the date lines are cropped from the image, enlarged and read again alone. The
 * receipt is drawn here with @napi-rs/canvas; its words are given as the page reading that lost
 * the date.
 */
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { rereadLost } from '../../src/extract/index.js';
import { dateOfLine, learn, lostDateLines } from '../../src/extract/memory/index.js';
import { addonAvailable } from '../../src/extract/raster/index.js';
import { DEFAULT_EXTRACT_OPTIONS, type ExtractResult, type StoredPage } from '../../src/extract/types.js';

const LINES = ['SANYU STATIONERY SHOP', 'NO. 31G&33G, JALAN SETIA INDAH X', 'INV NO: CS-SA-0122858 Date: 07/11/2017', 'MAX STAPLE 10-1M 2.00', 'Total: 9.30'];
const W = 640;
const STEP = 48;

/** The receipt as a PNG, 28 px text, one line every 48 px from y = 40. */
function receipt(): Uint8Array {
  const c = createCanvas(W, 60 + LINES.length * STEP);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = '#000';
  ctx.font = '28px sans-serif';
  LINES.forEach((l, i) => ctx.fillText(l, 20, 40 + 28 + i * STEP));
  return new Uint8Array(c.toBuffer('image/png'));
}

/** The page's words as a reading that lost the date (and the receipt number) gives them. */
function lostReading(): StoredPage {
  const words: StoredPage['words'] = [];
  LINES.forEach((line, i) => {
    const text = i === 2 ? 'INV Date' : line;
    let x = 20;
    for (const w of text.split(' ')) {
      words.push([w, x, 44 + i * STEP, x + w.length * 15, 72 + i * STEP]);
      x += w.length * 15 + 8;
    }
  });
  return { page: 1, width: W, height: 60 + LINES.length * STEP, words };
}

const taught = (values: Record<string, string | number>) => ({ values: new Map(Object.entries(values)), customTypes: new Map<string, string>() });

describe('reading again a date the page reading lost', () => {
  // The first receipt lost its date too: the memory keeps that a date was corrected, without an anchor.
  const mem = learn(null, 'ven_s', [lostReading()], {}, taught({ vendor_name: 'SANYU STATIONERY SHOP', issue_date: '2017-11-05', total: 5.3 }));

  it('keeps a corrected date it could not find, and picks the date lines on which no date reads', () => {
    expect(mem.fields.issue_date).toMatchObject({ kind: 'date', year: 2017, anchors: [] });
    const lines = lostDateLines(mem, [lostReading()], () => true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ key: 'issue_date', page: 1, order: 'dmy' });
    expect(lines[0]!.bbox[1]).toBeLessThan(44 + 2 * STEP);
    expect(lines[0]!.bbox[3]).toBeGreaterThan(72 + 2 * STEP);
    expect(lostDateLines(mem, [lostReading()], () => false)).toEqual([]);
    expect(dateOfLine('INV NO: CS-SA-0122858 Date: 07/11/2017.', lines[0]!)).toBe('2017-11-07');
    expect(dateOfLine('INV NO: CS-SA-0122858 Date: 07/11/2078', lines[0]!)).toBe('2018-11-07');
    expect(dateOfLine('INV NO: CS-SA-0122858 Date:', lines[0]!)).toBeNull();
  });

  it.skipIf(!addonAvailable('eng'))('reads the lost date from the image, only for a recognised vendor and a field left empty', async () => {
    const page = lostReading();
    const result = { page_count: 1, document_type: 'receipt', fields: { issue_date: null, total: null }, tables: [], line_items: [], totals: null, words: [page], vendor_memory_id: 'ven_s' } as unknown as ExtractResult;
    const opts = { ...DEFAULT_EXTRACT_OPTIONS, vendorMemory: [mem] };
    const read = await rereadLost(receipt(), result, opts);
    expect(read.fields.issue_date).toMatchObject({ value: '2017-11-07', source: 'vendor_memory', confidence: 0.6, page: 1 });
    expect(await rereadLost(receipt(), { ...result, vendor_memory_id: undefined }, opts)).toEqual({ ...result, vendor_memory_id: undefined });
    const engineRead = { ...result, fields: { ...result.fields, issue_date: { value: '2017-11-08', text: '08/11/2017', confidence: 0.9, page: 1, bbox: [0, 0, 1, 1] } } } as unknown as ExtractResult;
    expect((await rereadLost(receipt(), engineRead, opts)).fields.issue_date?.value).toBe('2017-11-08');
  });
});
