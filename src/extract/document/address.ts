/**
 * The vendor's address: the block of address lines printed with its name — after a comma on the
 * name's line, and the lines under it (left-aligned with it, or centred under it as on a till
 * receipt) from the first that reads as an address (a street word, a house or lot number, a
 * postcode and town) through the town, state and country lines that close it, up to a contact,
 * tax id, title or label line. A registration number, a former name, a licence line, a date or
 * a branch name between the name and the address is passed over. Lines right above a postcode
 * and town are the street's, though OCR lost the street word.
 */
import type { Field, Word } from '../types.js';
import { beforeLabel, field } from './labelled.js';
import { blocks, inkOf, joinWords, type TextLine } from '../locale/lines.js';
import { hasTitle } from './classify.js';
import { findDate } from '../locale/dates.js';
import { CONTACT, NOT_NAME, POSTCODE, REGION, cleanLine, isAddressLine } from './address-lines.js';
import type { Vendor } from './vendor.js';

/** Whether `text` holds a date or a time of day. */
function isDated(text: string): boolean {
  return !!findDate(text, 'dmy') || /(?<!\d)([01]?\d|2[0-3]):[0-5]\d(?!\d)/.test(text);
}

/**
 * Whether one of the two lines under line `i` is a postcode and town (`40150 SHAH ALAM`): the
 * lines above it then belong to the address, even where OCR lost their street word or number.
 */
function postcodeBelow(lines: TextLine[], i: number, height: number): boolean {
  const l = lines[i]!;
  for (let j = i + 1; j <= i + 2 && j < lines.length; j++) {
    const next = lines[j]!;
    if (next.page !== l.page || next.bbox[1] - l.bbox[3] > 2.2 * height * (j - i)) return false;
    const text = cleanLine(joinWords(next.words));
    if (POSTCODE.test(text) && !isDated(text) && !NOT_NAME.test(text) && !CONTACT.test(text)) return true;
  }
  return false;
}

/** A line between the name and its address that is neither: a registration number, a former name, a licence, a date. */
const BETWEEN = /^(\(?[\p{L}\d .:-]{0,12}\d[\d -]{3,}[\p{L}-]{0,3}\)?|formerly|licensee|owned by|\(?co(mp)?\.? ?(reg|no)|company (reg|no)|\(.*\)$)/iu;
/** A tax id line (`GST No: 0018…`, `GST REF NO : …`), or what OCR left of a registration number (`726)`, `Site pany 2395`, `Comp No: $A0127959-0`). */
const ID_LINE = /^(?:(?:gst|sst|vat|tax)\b.*\d{4,}|[\p{L}\s.:#$]{0,16}[\dA-Z$-]*\d{3,}[\dA-Z-]*\)?)$/iu;

/**
 * The vendor's address: what follows a comma after its name, and the address lines under it,
 * up to a phone, tax id, title or label line; null when none is printed under the name.
 */
export function vendorAddress(lines: TextLine[], vendor: Vendor): Field | null {
  const out: Word[][] = [];
  const x0 = vendor.words[0]!.x0;
  const x1 = vendor.words[vendor.words.length - 1]!.x1;
  const centre = (x0 + x1) / 2;
  let prevBottom = Math.max(...vendor.words.map((w) => w.y1));
  const height = prevBottom - Math.min(...vendor.words.map((w) => w.y0));
  let skipped = 0;
  let afterFormer = false;
  for (const [i, l] of lines.entries()) {
    if (l.page !== vendor.line.page || l.index <= vendor.line.index || !l.words.some((w) => w.y0 >= prevBottom - height / 2)) continue;
    if (out.length >= 6 || l.bbox[1] - prevBottom > 2.2 * height) break;
    const block = blocks(l).find((b) => {
      const [bx0, bx1] = [b[0]!.x0, b[b.length - 1]!.x1];
      const c = (bx0 + bx1) / 2;
      return Math.abs(bx0 - x0) < Math.max(3, height / 2) || (Math.abs(c - centre) < 0.2 * (x1 - x0 + bx1 - bx0) && bx0 > x0 - (x1 - x0));
    });
    const words = block ? beforeLabel(l, block) : [];
    if (!words.length || words[0] !== block![0]) break;
    while (words.length > 1 && !/[\p{L}\d]/u.test(words[0]!.text)) words.shift();
    const text = cleanLine(joinWords(words));
    const dated = isDated(text);
    const idLine = BETWEEN.test(text) || ID_LINE.test(text);
    // A line with a number right above a postcode line is the street's, though OCR lost its street word.
    const address = !dated && (isAddressLine(text) || (!idLine && /\d/.test(text) && postcodeBelow(lines, i, height)));
    if (!out.length && !address) {
      // Before the address: a registration number, a former name and its `formerly known as`, a licence, a date and time, a branch.
      const between = idLine || afterFormer || dated || (/^\p{L}[\p{L} .'&-]*$/u.test(text) && !NOT_NAME.test(text) && !hasTitle(text));
      if (skipped < 4 && between) {
        afterFormer = /^formerly|known as$/i.test(text);
        skipped++;
        prevBottom = l.bbox[3];
        continue;
      }
      break;
    }
    if (hasTitle(text) || NOT_NAME.test(text) || CONTACT.test(text) || (/\p{L}\s*[:：]/u.test(text) && !/^no\s*:/i.test(text)) || !/[\d,]|\p{L}{3}/u.test(text)) break;
    // After the address lines, only a town, state or country line closes the block.
    if (!address && !REGION.test(text) && !/^\p{L}[\p{L} .,'-]*$/u.test(text)) break;
    out.push(words);
    prevBottom = Math.max(...words.map((w) => w.y1));
  }
  if (!out.length && !vendor.rest.length) return null;
  const text = [...(vendor.rest.length ? [vendor.rest] : []), ...out].map((ws) => joinWords(ws).replace(/,$/, '')).join(', ');
  // Under a name attested as the issuer's, lines with a postcode are its address.
  const sure = vendor.attested && out.some((ws) => /(?<![\d-])\d{4,6}(?![\d-])/.test(joinWords(ws)));
  const f = field(text, [...vendor.rest, ...out.flat()], vendor.line.page, sure ? 0.95 : 0.6, text);
  // An address is compared with slips allowed: mostly clean words read it surely.
  return sure && inkOf([...vendor.rest, ...out.flat()]) >= 0.85 ? { ...f, confidence: 0.95 } : f;
}
