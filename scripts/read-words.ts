/**
 * Words as the reading and agreement measures compare them: a cell counts as read when every one
 * of its words is among the words read on its page.
 */

/**
 * A word as compared: NFKC, dashes and quotes unified, the punctuation around it dropped (a
 * cell's "(2005)" is read "(2005)" or "2005" by the same reading). Case and inner punctuation
 * count: `1.234` and `1,234` are different readings.
 */
export function normalize(w: string): string {
  return w
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/^[\s"'()[\]{},;:.*!?]+|[\s"'()[\]{},;:.*!?]+$/g, '');
}

export function tokens(text: string): string[] {
  return text.split(/\s+/).map(normalize).filter(Boolean);
}

/** The compared forms of the words read on a page. */
export function wordSet(read: string[]): Set<string> {
  return new Set(read.flatMap(tokens));
}

/** Whether every word of `text` is among `have` (an empty text is read). */
export function allRead(text: string, have: Set<string>): boolean {
  return tokens(text).every((w) => have.has(w));
}
