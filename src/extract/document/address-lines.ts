/**
 * What a line of a letterhead reads as: an address line (a street word, a house or lot number, a
 * postcode and town), a region or country that closes an address, a contact line, or a line that is
 * not a name. The vendor's name and its address, and the customer's name, are told apart by them.
 */

/** Street and building words in the documents' languages (Malay for the receipts of Malaysia). */
const STREET = new RegExp(
  '(?<![\\p{L}])(' +
    [
      'street|st\\.|road|rd\\.?|avenue|ave\\.?|lane|drive|boulevard|blvd|way|highway|square|building|bldg|suite|unit|floor|flr|level|lvl|block|blk|plaza|mall|centre|center|tower|p\\.?o\\.? box',
      'jalan|jln|lorong|lrg|persiaran|lebuh|lebuhraya|taman|tmn|kawasan|kampung|kg|bandar|seksyen|wisma|bangunan|tingkat|batu|mukim|perindustrian|desa|pusat',
      'straße|strasse|str\\.|weg|platz|allee|gasse|ring|damm|postfach',
      'rue|avenue|boulevard|bd|chemin|place|allée|impasse|quai|cedex|bp',
      'calle|c\\/|avenida|avda\\.?|plaza|paseo|carretera|ctra\\.?',
      'straat|laan|plein|gracht|kade|singel',
      'via|viale|piazza|corso|vicolo|largo',
      'rua|travessa|praça|estrada|largo',
    ].join('|') +
    ')(?![\\p{L}])',
  'iu',
);
/** `Jln` with its `l` read as `i` (`Jin Puteri 1/6`): a street word, then its name and number. */
const JLN_MISREAD = /^jin\.?\s+\p{L}+\s+\d/iu;
/** A street named in one word (`Industriestr. 12`, `Havenstraat 4`). */
const STREET_SUFFIX = /\p{L}(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|straat|laan|gracht|plein|kade)(?![\p{L}])/iu;
/** A house or lot number opening a line (`No. 53,`, `NO 2A`, `Lot 485`, `12,`, `16A,`, `12 Market St`). */
const NUMBERED = /^(?:(?:no|lot|unit|ptd)\b[.:]?\s*[\dA-Z]|\d+[A-Z]?\s*[,&-]|\d{1,5}[A-Z]?\s+\p{L}{2,})/iu;
/** A postcode with its town (`47400 Petaling Jaya`, `3511 AB Utrecht`, `LS1 4AB`, `OR 97204`). */
export const POSTCODE = /(?<![\d.])(?:\d{5}|\d{4}\s?[A-Z]{2}|\d{4}|\d{3}-\d{4}|\d{4}-\d{3})(?![\d.])[ ,]*\p{L}{3,}|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}(?:-\d{4})?$/u;
/** Malaysian states and territories, and countries, that close an address. */
export const REGION = /(?<![\p{L}])(selangor|johor|kuala lumpur|kl|kedah|kelantan|melaka|malacca|negeri sembilan|pahang|penang|pulau pinang|perak|perlis|sabah|sarawak|terengganu|putrajaya|labuan|darul ehsan|darul takzim|d\.?e\.?|w\.?p\.?|malaysia|singapore|deutschland|germany|france|españa|spain|italia|italy|nederland|portugal|österreich|schweiz|suisse|belgique|united kingdom|uk|ireland|usa)(?![\p{L}])/iu;
/** Lines that are not a name: contacts, ids, labels and greetings. */
export const NOT_NAME = /^(tel|phone|telephone|fax|h\/p|mobile|gst|sst|vat|tax|e-?mail|www|http|reg|company no|comp\.? no|company reg|co\.? ?no|co\.? ?reg|receipt|invoice|date|time|cashier|thank|welcome|bill to|ship to|valued customer|member|shopping hours|opening hours|table|order|counter|pos)\b|@|\.com\b/i;
/** A phone or web line, whatever its label. */
export const CONTACT = /(?:\+?\d[\d ]{1,4}[- ]\d{3,4}[- ]?\d{3,4}\s*$)|@|www\.|https?:/i;

/** A company registration number alone on its line (`1118258-K`, `822737-X`, `(001451463-W)`): an id, not a house number. */
const REG_NO_ALONE = /^\(?\d{5,}-?\s?[A-Z]\)?$/;

/** Whether `text` reads as an address line: a street word, a house or lot number, a postcode and town. */
export function isAddressLine(text: string): boolean {
  text = cleanLine(text);
  if (REG_NO_ALONE.test(text)) return false;
  return STREET.test(text) || JLN_MISREAD.test(text) || STREET_SUFFIX.test(text) || NUMBERED.test(text) || POSTCODE.test(text);
}

/** A line as its ink meant it: a bullet or dash OCR put before it dropped, braces and brackets read for parentheses. */
export function cleanLine(text: string): string {
  return text
    .replace(/^[^\p{L}\d({[]+/u, '')
    .replace(/[{[]/g, '(')
    .replace(/[}\]]/g, ')');
}

/** Whether `text` names only a town's region, state or country (`SELANGOR D.E.`, `Malaysia`). */
export function isRegionOnly(text: string): boolean {
  return REGION.test(text) && !text.replace(new RegExp(REGION.source, 'giu'), '').replace(/[^\p{L}]/gu, '');
}
