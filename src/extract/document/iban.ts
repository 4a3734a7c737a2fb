/**
 * IBANs (ISO 13616): found in printed text with or without the groups of four, and kept only
 * when the country's length and the mod-97 check digits agree, so a mistyped or invented one is
 * never returned.
 */
import { allMatches } from '../matches.js';

/** IBAN length per country (the SWIFT registry), for the countries an invoice is likely to name. */
const LENGTH: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25,
  QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26, UA: 29, VG: 24, XK: 20,
};

/** True when `iban` (compact, upper case) has its country's length and valid check digits. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban) || LENGTH[iban.slice(0, 2)] !== iban.length) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const CANDIDATE = /(?<![A-Z0-9])([A-Z]{2}\d{2}(?:[ \u00a0]?[A-Z0-9]){10,30})/g;

/** Valid IBANs in `text` (upper-cased), each compact and as printed, in order. */
export function findIbans(text: string): { iban: string; raw: string }[] {
  const out: { iban: string; raw: string }[] = [];
  for (const m of allMatches(CANDIDATE, text.toUpperCase())) {
    // The match may run into the next word: try the longest prefix of whole groups that checks out.
    const raw = m[1]!;
    for (let end = raw.length; end >= 15; end--) {
      if (end < raw.length && raw[end] !== ' ' && raw[end] !== '\u00a0') continue;
      const piece = raw.slice(0, end).trim();
      const compact = piece.replace(/[ \u00a0]/g, '');
      if (isValidIban(compact)) {
        out.push({ iban: compact, raw: piece });
        break;
      }
    }
  }
  return out;
}
