/**
 * A bounded XML reader for invoice files: saxes (a conforming streaming parser that resolves no
 * DTD and fetches nothing) builds a small element tree. What an XML bomb needs is refused before
 * or while parsing: an external entity (`SYSTEM`/`PUBLIC`, XXE) is never declared to the parser;
 * internal entities are expanded by us, once each, and only while everything they would add to
 * the document (references × expansion) stays within `ENTITY_BUDGET`; elements nest at most
 * `MAX_DEPTH` deep and number at most `MAX_ELEMENTS`. e-invoices declare no entities at all, so
 * the budget only has to be generous for a hand-made file.
 */
import { SaxesParser } from 'saxes';
import { ExtractError } from '../types.js';

export interface XmlElement {
  /** Namespace URI ('' for none) and local name. */
  ns: string;
  name: string;
  /** Attributes by local name. */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's text not included), trimmed. */
  text: string;
}

/** Characters that entity references may add to a document, all together (1 MiB). */
export const ENTITY_BUDGET = 1 << 20;
/** CII and UBL invoices nest about 10 deep; 100 is any real file's and far below a stack's. */
export const MAX_DEPTH = 100;
/** An invoice of 5,000 lines has about 150,000 elements. */
export const MAX_ELEMENTS = 500_000;
const MAX_ENTITIES = 256;

/** Parses `text`; throws `ExtractError` (`corrupt_file`, `unsupported_format`, `resource_limit`). */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  const texts: string[][] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let error: ExtractError | null = null;
  const fail = (e: ExtractError) => {
    error ??= e;
    throw e;
  };
  parser.on('doctype', (doctype) => {
    Object.assign(parser.ENTITIES, declaredEntities(doctype, text));
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) fail(new ExtractError('resource_limit', `the XML nests elements deeper than ${MAX_DEPTH}`));
    if (++count > MAX_ELEMENTS) fail(new ExtractError('resource_limit', `the XML has more than ${MAX_ELEMENTS} elements`));
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    const el: XmlElement = { ns: tag.uri ?? '', name: tag.local ?? tag.name, attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else root = el;
    stack.push(el);
    texts.push([]);
  });
  const addText = (t: string) => {
    if (texts.length) texts[texts.length - 1]!.push(t);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    stack.pop()!.text = texts.pop()!.join('').trim();
  });
  parser.on('error', (err) => {
    fail(error ?? new ExtractError('corrupt_file', `the XML does not parse: ${err.message.split('\n')[0]}`));
  });
  try {
    parser.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).close();
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError('corrupt_file', `the XML does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!root) throw new ExtractError('corrupt_file', 'the XML has no root element');
  return root;
}

/**
 * The internal entities of a DOCTYPE's subset, each expanded in full, after checking that the
 * document's references to them add at most `ENTITY_BUDGET` characters. Parameter entities and
 * external entities are refused: neither occurs in an invoice, and an external one is a fetch.
 */
function declaredEntities(doctype: string, document: string): Record<string, string> {
  const decls = new Map<string, string>();
  const re = /<!ENTITY\s+(%\s+)?([^\s"']+)\s+("[^"]*"|'[^']*'|[^>]*)\s*>/g;
  for (const m of doctype.matchAll(re)) {
    if (m[1]) throw new ExtractError('unsupported_format', `the XML declares a parameter entity (%${m[2]}); invoice XML has none`);
    const value = m[3]!;
    if (!/^["']/.test(value)) throw new ExtractError('unsupported_format', `the XML declares an external entity (${m[2]}), which is never fetched`);
    if (decls.size >= MAX_ENTITIES) throw new ExtractError('resource_limit', `the XML declares more than ${MAX_ENTITIES} entities`);
    if (!decls.has(m[2]!)) decls.set(m[2]!, value.slice(1, -1));
  }
  if (/<!ENTITY/.test(doctype.replace(re, ''))) throw new ExtractError('corrupt_file', 'the XML has an entity declaration that does not parse');
  // Lengths first, without building a string: a billion laughs is 10^9 characters long.
  const lengths = new Map<string, number>();
  const lengthOf = (name: string, seen: Set<string>): number => {
    const known = lengths.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) throw new ExtractError('corrupt_file', `the XML's entity ${name} refers to itself`);
    seen.add(name);
    let n = 0;
    for (const part of splitRefs(decls.get(name)!)) n += typeof part === 'string' ? part.length : decls.has(part.ref) ? lengthOf(part.ref, seen) : part.raw.length;
    seen.delete(name);
    lengths.set(name, Math.min(n, Number.MAX_SAFE_INTEGER));
    return n;
  };
  const body = document.slice(document.indexOf(doctype) + doctype.length);
  let added = 0;
  for (const name of decls.keys()) {
    const refs = body.split(`&${name};`).length - 1;
    added += refs * lengthOf(name, new Set());
    if (added > ENTITY_BUDGET) throw new ExtractError('resource_limit', `the XML's entities would expand to more than ${ENTITY_BUDGET} characters`);
  }
  const expanded = new Map<string, string>();
  const expand = (name: string): string => {
    const done = expanded.get(name);
    if (done !== undefined) return done;
    const out = splitRefs(decls.get(name)!)
      .map((p) => (typeof p === 'string' ? p.replace(/&#(x[0-9a-f]+|\d+);/gi, (_, n: string) => String.fromCodePoint(Number(n[0] === 'x' || n[0] === 'X' ? `0${n}` : n))) : decls.has(p.ref) ? expand(p.ref) : (PREDEFINED[p.ref] ?? p.raw)))
      .join('');
    expanded.set(name, out);
    return out;
  };
  return Object.fromEntries([...decls.keys()].filter((n) => lengths.get(n)! <= ENTITY_BUDGET).map((n) => [n, expand(n)]));
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function splitRefs(value: string): Array<string | { ref: string; raw: string }> {
  const out: Array<string | { ref: string; raw: string }> = [];
  let last = 0;
  for (const m of value.matchAll(/&([^\s&;#]+);/g)) {
    out.push(value.slice(last, m.index));
    out.push({ ref: m[1]!, raw: m[0] });
    last = m.index! + m[0].length;
  }
  out.push(value.slice(last));
  return out;
}

/** The first child named `name` (any namespace), following a path of names. */
export function child(el: XmlElement | null | undefined, ...path: string[]): XmlElement | null {
  let cur: XmlElement | null = el ?? null;
  for (const name of path) {
    cur = cur?.children.find((c) => c.name === name) ?? null;
    if (!cur) return null;
  }
  return cur;
}

/** Every child named `name`. */
export function children(el: XmlElement | null | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** The text at a path, or null when absent or empty. */
export function textAt(el: XmlElement | null | undefined, ...path: string[]): string | null {
  const t = child(el, ...path)?.text;
  return t ? t : null;
}
