/**
 * Every match of the global regex `re` in `text`, as `[...text.matchAll(re)]` gives them, found
 * with `re` itself: matchAll copies the regex first, and for the engine's label patterns
 * (hundreds of alternatives, Unicode, a lookbehind) the copy costs several times the search.
 * All matches are taken before any is used, and `re.lastIndex` is left as it was, as matchAll
 * leaves it.
 */
export function allMatches(re: RegExp, text: string): RegExpExecArray[] {
  if (!re.global) throw new TypeError(`allMatches needs a global regex, got /${re.source}/${re.flags}`);
  const unicode = /[uv]/.test(re.flags);
  const start = re.lastIndex;
  const out: RegExpExecArray[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(m);
    // An empty match moves on by one character (a whole surrogate pair under the `u` flag).
    if (m[0] === '') re.lastIndex = advance(text, re.lastIndex, unicode);
  }
  re.lastIndex = start;
  return out;
}

function advance(text: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= text.length) return i + 1;
  const hi = text.charCodeAt(i);
  const lo = text.charCodeAt(i + 1);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff ? i + 2 : i + 1;
}
