/**
 * OCR languages on this machine. libtesseract (the addon) and the `tesseract` program read
 * Debian's traineddata (`tesseract-ocr-<lang>` packages); a document asking for one that is not
 * installed fails with the package to install, not with the engine's own words.
 */
import { ExtractError } from '../types.js';

/** Debian's package for a Tesseract language code: `chi_sim` → `tesseract-ocr-chi-sim`. */
export function debianPackage(lang: string): string {
  return `tesseract-ocr-${lang.toLowerCase().replace(/_/g, '-')}`;
}

/** The error for languages that are not installed, naming the Debian packages. */
export function missingLanguageError(missing: string[]): ExtractError {
  return new ExtractError(
    'extraction_failed',
    `OCR language data not installed: ${missing.join(', ')} (on Debian: apt-get install ${missing.map(debianPackage).join(' ')}; or change TABLEMILL_OCR_LANGS)`,
  );
}

/**
 * Tesseract languages whose script PP-OCR's recogniser reads: Latin-script languages (their
 * letters outside its dictionary, `ö ß ç`, go to Tesseract word by word) and simplified Chinese.
 * A page in any other language (kana, Cyrillic, Greek…) is read by Tesseract alone.
 */
const PADDLE_LANGS = new Set(['eng', 'deu', 'fra', 'spa', 'nld', 'ita', 'por', 'dan', 'swe', 'nor', 'fin', 'pol', 'ces', 'slk', 'slv', 'hrv', 'ron', 'hun', 'tur', 'cat', 'glg', 'eus', 'est', 'lav', 'lit', 'isl', 'gle', 'ind', 'msa', 'vie', 'lat', 'chi_sim', 'osd']);

/** Whether PP-OCR can read a page in `langs` (`eng+deu`). */
export function paddleReads(langs: string): boolean {
  return langs.split('+').every((l) => PADDLE_LANGS.has(l));
}
