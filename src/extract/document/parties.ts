/**
 * Who the document is from and to: the vendor's tax id, and the customer named after `Bill to` /
 * `Kunde` / `Client` or before `御中` (the vendor's name and address: vendor.ts, address.ts).
 */
import type { Field, Word } from '../types.js';
import { candidates, field, labelledConfidence, type Candidate } from './labelled.js';
import { joinWords, type TextLine } from '../locale/lines.js';
import { isAddressLine } from './address-lines.js';
import { summaryKind } from '../lineitems/vocabulary.js';
import { DATE_SHAPED } from '../locale/dates.js';

/** The customer's name: the labelled value up to its first comma (the address follows), or the name before `御中` / `様`. */
export function customerName(lines: TextLine[]): Field | null {
  for (const c of candidates(lines, 'customer_name')) {
    const f = nameUpToComma(c);
    if (f) return f;
  }
  for (const l of lines) {
    const i = l.words.findIndex((w) => /^(御中|様|殿)$/.test(w.text) || /.(御中|様)$/.test(w.text));
    if (i < 0) continue;
    const words = l.words[i]!.text.length > 2 ? l.words.slice(0, i + 1) : l.words.slice(0, i);
    const text = joinWords(words).replace(/\s*(御中|様)$/, '');
    if (text) return field(text, words, l.page, 0.85, text);
  }
  return null;
}

function nameUpToComma(c: Candidate): Field | null {
  const words: Word[] = [];
  for (const w of c.words) {
    const comma = w.text.indexOf(',');
    if (comma >= 0) {
      if (comma > 0) words.push({ ...w, text: w.text.slice(0, comma) });
      break;
    }
    words.push(w);
  }
  const text = joinWords(words);
  if (!isName(text)) return null;
  return field(text, words, c.line.page, labelledConfidence(c) - 0.05, text);
}

/** A heading or label of an address (`Address:`, `Adresse de livraison`, `Anschrift`). */
const ADDRESS_HEADING = /^(address|adresse|anschrift|adres|dirección|direccion|indirizzo|endereço|livraison|lieferung|delivery|shipping)\b/i;
/** A contact line: a phone, fax or mail label, an address for mail or the web, or a phone number alone. */
const CONTACT_LINE = /^(tel|phone|telephone|téléphone|telefon|fax|mobile|portable|handy|e-?mail|courriel|mail|www|https?)\b|@|^\+?[\d\s/().-]{7,}$/i;
/** A tax id's label or a tax id alone (`VAT: GB123…`, `FR 11 123 456 782`). */
const TAX_ID_LINE = /^(vat|tva|btw|ust|mwst|uid|gst|tax|siret|siren|kvk|nif|cif|p\.? ?iva)\b/i;

/**
 * Whether the text after a customer label names a party: not a number (`Kunde: 10442`), a
 * heading (`CUSTOMER'S COPY`, `Address:`), a summary line (`Total`), a contact line, a tax id, or an address line with its
 * number (`12 rue de la Paix`); those are what a label's value often is when the name sits elsewhere.
 */
function isName(text: string): boolean {
  if (!/\p{L}{2}/u.test(text) || /^['’]s\b/i.test(text) || /[:：]$/.test(text)) return false;
  if (summaryKind(text)) return false;
  if (ADDRESS_HEADING.test(text) || CONTACT_LINE.test(text) || TAX_ID_LINE.test(text) || (VAT_FORM.test(text.replace(/\s+/g, '')) && /\d{5}/.test(text))) return false;
  return !(/\d/.test(text) && isAddressLine(text));
}

/** A VAT id opens with its country's two letters (`DE 123 456 789`, `FR11123456782`); a company registration number (SIRET, KvK, HRB) does not. */
const VAT_FORM = /^(?:[A-Z]{2}|EL)[ .-]?[0-9A-Z]{2}[0-9A-Z .-]{5,}$/;

/** A line of the legal mentions an issuer prints of itself (capital, registry, SIRET, managing director). */
const LEGAL_MENTIONS = /(capital|\br\.?\s?c\.?\s?s\b|siret|siren|registered (office|in)|handelsregister|\bhrb\b|amtsgericht|geschäftsführ|\bkvk\b|registro mercantil|\bcif\b|company (reg|no)|\bape\b)/i;

/**
 * The vendor's tax id (`IE1234567T`, `DE 123 456 789`, `B-12345678`): up to four code-like words
 * with six digits or more after a tax-id label; one in the VAT form before a bare number, one
 * among the issuer's legal mentions (`SASU au capital … SIRET … TVA FR40…`) before others, the
 * first printed (the vendor's head or footer comes before a tax representative's) on a tie.
 * When other tax ids are printed (a customer's, a representative's), one neither in the
 * vendor's column (`vendor`, its name) nor among legal mentions is less sure.
 */
export function vendorTaxId(lines: TextLine[], vendor: Field | null = null): Field | null {
  const found: { f: Field; score: number; ink: number; line: TextLine }[] = [];
  for (const c of candidates(lines, 'vendor_tax_id')) {
    const words: Word[] = [];
    for (const w of c.words.slice(0, 5)) {
      if (!/^[A-Z0-9][A-Z0-9.-]*$/i.test(w.text) || (words.length && !/\d/.test(w.text))) break;
      words.push(w);
    }
    const text = joinWords(words);
    if ((text.match(/\d/g) ?? []).length < 6 || DATE_SHAPED.test(text)) continue;
    const f = field(text, words, c.line.page, labelledConfidence(c), text);
    // Ranked by how the id is printed, not by how surely OCR read it: a scan reads the vendor's
    // head in small type less surely than a representative's id in the footer.
    const score = labelledConfidence(c) * (VAT_FORM.test(text) ? 1 : 0.8) * (LEGAL_MENTIONS.test(joinWords(c.line.words)) ? 1.05 : 1);
    found.push({ f, score, ink: f.confidence / labelledConfidence(c), line: c.line });
  }
  let best: (typeof found)[number] | null = null;
  for (const x of found) if (!best || x.score > best.score + 1e-9) best = x;
  if (!best) return null;
  const key = (f: Field) => String(f.value).replace(/[^A-Z0-9]/gi, '').toUpperCase();
  const others = found.some((x) => key(x.f) !== key(best!.f));
  const inColumn = !!vendor && vendor.page === best.f.page && Math.abs(vendor.bbox[0] - best.f.bbox[0]) < 0.6 * (vendor.bbox[2] - vendor.bbox[0]) + 40;
  const sure = !others || inColumn || LEGAL_MENTIONS.test(joinWords(best.line.words)) ? 1 : 0.8;
  return { ...best.f, confidence: Math.round(Math.min(best.score, 0.95) * best.ink * sure * 100) / 100 };
}
