/**
 * A small reader of a PDF's objects by number, for what pdf.js reads but does not expose (a form
 * field's dictionary up its `/Parent` chain). It finds objects the way pdf.js does when a file's
 * cross-reference table is broken: every `N G obj` of the raw bytes (stream data skipped) and
 * every object inside a Flate object stream (`/Type /ObjStm`), the definition last in the file
 * winning, as incremental updates append theirs. It is bounded on hostile files: object streams
 * inflate to at most 32 MiB in all, a value nests at most 32 deep and parses at most 100,000
 * tokens, and an encrypted file (whose strings are ciphertext) is not read at all.
 */
import { inflateSync, constants } from 'node:zlib';

/** A PDF name (`/TU`), without its slash. */
export class PdfName {
  constructor(readonly name: string) {}
}
/** An indirect reference (`12 0 R`). */
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
/** A PDF string's bytes, one char per byte. */
export class PdfString {
  constructor(readonly bytes: string) {}
}
export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfString | PdfValue[] | Map<string, PdfValue>;

/** What all object streams of a file may inflate to together. */
const MAX_INFLATED = 32 << 20;
/** The most object streams read, and the most objects one may declare. */
const MAX_OBJECT_STREAMS = 10_000;
const MAX_STREAM_OBJECTS = 100_000;
const MAX_DEPTH = 32;
const MAX_TOKENS = 100_000;

const DELIMITERS = '()<>[]{}/%';
const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';

/** Where an object's text starts: in the file, or in an inflated object stream. */
interface Place {
  text: string;
  at: number;
  /** Where in the file it was defined (an object stream's objects: where the stream is). */
  order: number;
}

export class PdfObjects {
  private constructor(private readonly places: Map<number, Place>) {}

  /** The objects of `bytes`, or null for an encrypted file. */
  static read(bytes: Uint8Array): PdfObjects | null {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    if (text.includes('/Encrypt')) return null;
    const places = new Map<number, Place>();
    // A later definition (an incremental update, in the file or in a later object stream) wins.
    const put = (num: number, place: Place) => {
      const had = places.get(num);
      if (!had || had.order <= place.order) places.set(num, place);
    };
    const streams: Array<{ order: number; dict: string; data: string }> = [];
    // One pass over the keywords `obj` and `stream` in file order (each searched onwards from
    // where the last was found, so the pass is linear in the file's size).
    let pos = 0;
    let object = -1;
    let nextStream = -1;
    for (;;) {
      if (nextStream !== Infinity && nextStream < pos) nextStream = streamKeyword(text, pos);
      const o = text.indexOf('obj', pos);
      if (nextStream !== Infinity && (o < 0 || nextStream < o)) {
        const start = nextStream + (text[nextStream + 6] === '\r' && text[nextStream + 7] === '\n' ? 8 : 7);
        const stop = text.indexOf('endstream', start);
        const dict = object >= 0 && nextStream - object < 65536 ? text.slice(object, nextStream) : '';
        if (/\/Type\s*\/ObjStm\b/.test(dict) && streams.length < MAX_OBJECT_STREAMS) streams.push({ order: object, dict, data: text.slice(start, stop < 0 ? text.length : stop) });
        pos = stop < 0 ? text.length : stop + 9;
        object = -1;
        continue;
      }
      if (o < 0) break;
      pos = o + 3;
      const num = isRegular(text[o + 3]) ? -1 : objectNumberBefore(text, o);
      if (num < 0) continue;
      object = o + 3;
      put(num, { text, at: object, order: object });
    }
    let budget = MAX_INFLATED;
    for (const s of streams) {
      const data = inflated(s.dict, s.data, budget);
      if (data === null) continue;
      budget -= data.length;
      const n = intEntry(s.dict, 'N');
      const first = intEntry(s.dict, 'First');
      if (n === null || first === null || n > MAX_STREAM_OBJECTS) continue;
      const nums = data.slice(0, first).trim().split(/\s+/).map(Number);
      for (let i = 0; i + 1 < 2 * n && i + 1 < nums.length; i += 2) {
        if (Number.isInteger(nums[i]) && Number.isInteger(nums[i + 1])) put(nums[i]!, { text: data, at: first + nums[i + 1]!, order: s.order });
      }
    }
    return new PdfObjects(places);
  }

  /** Object `num`, or undefined when it is missing or does not parse. */
  get(num: number): PdfValue | undefined {
    const place = this.places.get(num);
    if (!place) return undefined;
    try {
      return new Parser(place.text, place.at).value(0);
    } catch {
      return undefined;
    }
  }

  /** `v` with a reference followed (once). */
  resolve(v: PdfValue | undefined): PdfValue | undefined {
    return v instanceof PdfRef ? this.get(v.num) : v;
  }
}

/** The next `stream` keyword from `from` that starts a stream's data (not `endstream`), or Infinity. */
function streamKeyword(text: string, from: number): number {
  for (let at = text.indexOf('stream', from); at >= 0; at = text.indexOf('stream', at + 6)) {
    if (text.slice(at - 3, at) !== 'end' && (text[at + 6] === '\n' || text[at + 6] === '\r')) return at;
  }
  return Infinity;
}

/** The object number of the header `N G obj` whose `obj` is at `at`, or -1 when none ends there. */
function objectNumberBefore(text: string, at: number): number {
  let i = at - 1;
  let end = 0;
  // Backwards: white space, the generation's digits, white space, the number's digits (each
  // part bounded, so a run of megabytes of digits or blanks costs nothing here).
  for (let part = 0; part < 4; part++) {
    end = i;
    if (part % 2 === 0) while (i >= 0 && end - i < 64 && isSpace(text[i]!)) i--;
    else while (i >= 0 && end - i < 10 && isDigit(text.charCodeAt(i))) i--;
    if (i === end) return -1;
  }
  return isRegular(text[i]) ? -1 : Number(text.slice(i + 1, end + 1));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A character that continues a keyword (neither white space nor a delimiter). */
function isRegular(c: string | undefined): boolean {
  return c !== undefined && !isSpace(c) && !DELIMITERS.includes(c);
}

/** A direct integer entry of a dictionary's text (`/N 12`), not a reference. */
function intEntry(dict: string, key: string): number | null {
  const m = new RegExp(`/${key}\\s+(\\d+)\\b(?!\\s+\\d+\\s+R)`).exec(dict);
  return m ? Number(m[1]) : null;
}

/** An object stream's data inflated within `budget` bytes; null when it is no plain Flate stream. */
function inflated(dict: string, data: string, budget: number): string | null {
  if (!/\/Filter\s*\/FlateDecode\b|\/Filter\s*\[\s*\/FlateDecode\s*\]/.test(dict) || /\/DecodeParms/.test(dict) || budget <= 0) return null;
  try {
    return inflateSync(Buffer.from(data, 'latin1'), { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH }).toString('latin1');
  } catch {
    return null;
  }
}


/** A recursive-descent parser of one PDF value (dictionaries, arrays, strings, names, numbers, references). */
class Parser {
  private tokens = 0;

  constructor(
    private readonly s: string,
    private pos: number,
  ) {}

  value(depth: number): PdfValue {
    if (depth > MAX_DEPTH || ++this.tokens > MAX_TOKENS) throw new Error('too deep or too long');
    this.skip();
    const c = this.s[this.pos];
    if (c === undefined) throw new Error('end of data');
    if (c === '<' && this.s[this.pos + 1] === '<') {
      this.pos += 2;
      const dict = new Map<string, PdfValue>();
      for (;;) {
        this.skip();
        if (this.s.startsWith('>>', this.pos)) {
          this.pos += 2;
          return dict;
        }
        const key = this.value(depth + 1);
        if (!(key instanceof PdfName)) throw new Error('a dictionary key is no name');
        dict.set(key.name, this.value(depth + 1));
      }
    }
    if (c === '[') {
      this.pos++;
      const list: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (this.s[this.pos] === ']') {
          this.pos++;
          return list;
        }
        list.push(this.value(depth + 1));
      }
    }
    if (c === '(') return this.literal();
    if (c === '<') return this.hex();
    if (c === '/') {
      this.pos++;
      return new PdfName(this.word().replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
    }
    const word = this.word();
    if (!word) throw new Error(`unexpected ${c}`);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    const n = Number(word);
    if (!Number.isFinite(n)) throw new Error(`unexpected ${word}`);
    // `12 0 R` is a reference: look ahead without consuming otherwise.
    const back = this.pos;
    const ref = /^\s+(\d+)\s+R(?![^\s()<>[\]{}/%])/.exec(this.s.slice(this.pos, this.pos + 24));
    if (Number.isInteger(n) && n >= 0 && ref) {
      this.pos += ref[0].length;
      return new PdfRef(n, Number(ref[1]));
    }
    this.pos = back;
    return n;
  }

  private skip(): void {
    for (;;) {
      const c = this.s[this.pos];
      if (c !== undefined && isSpace(c)) this.pos++;
      else if (c === '%') while (this.pos < this.s.length && this.s[this.pos] !== '\n' && this.s[this.pos] !== '\r') this.pos++;
      else return;
    }
  }

  private word(): string {
    const start = this.pos;
    while (this.pos < this.s.length && !isSpace(this.s[this.pos]!) && !DELIMITERS.includes(this.s[this.pos]!)) this.pos++;
    return this.s.slice(start, this.pos);
  }

  private literal(): PdfString {
    let out = '';
    let nest = 0;
    this.pos++;
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) throw new Error('unterminated string');
      if (c === '(') nest++;
      else if (c === ')' && nest-- === 0) return new PdfString(out);
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.pos++];
      const octal = /^[0-7]{1,3}/.exec(this.s.slice(this.pos - 1, this.pos + 2));
      if (octal) {
        out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
        this.pos += octal[0].length - 1;
      } else if (e === '\r') {
        if (this.s[this.pos] === '\n') this.pos++;
      } else if (e !== '\n') out += ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e!] ?? e ?? '';
    }
  }

  private hex(): PdfString {
    const end = this.s.indexOf('>', this.pos);
    if (end < 0) throw new Error('unterminated hex string');
    const digits = this.s.slice(this.pos + 1, end).replace(/[^0-9a-fA-F]/g, '');
    this.pos = end + 1;
    let out = '';
    for (let i = 0; i < digits.length; i += 2) out += String.fromCharCode(parseInt(digits.slice(i, i + 2).padEnd(2, '0'), 16));
    return new PdfString(out);
  }
}

/** PDFDocEncoding's codes that differ from Latin-1 (0x18–0x1F and 0x80–0xA0), as pdf.js reads them. */
const DOC_ENCODING: Record<number, number> = {
  0x18: 0x2d8, 0x19: 0x2c7, 0x1a: 0x2c6, 0x1b: 0x2d9, 0x1c: 0x2dd, 0x1d: 0x2db, 0x1e: 0x2da, 0x1f: 0x2dc,
  0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x192, 0x87: 0x2044,
  0x88: 0x2039, 0x89: 0x203a, 0x8a: 0x2212, 0x8b: 0x2030, 0x8c: 0x201e, 0x8d: 0x201c, 0x8e: 0x201d, 0x8f: 0x2018,
  0x90: 0x2019, 0x91: 0x201a, 0x92: 0x2122, 0x93: 0xfb01, 0x94: 0xfb02, 0x95: 0x141, 0x96: 0x152, 0x97: 0x160,
  0x98: 0x178, 0x99: 0x17d, 0x9a: 0x131, 0x9b: 0x142, 0x9c: 0x153, 0x9d: 0x161, 0x9e: 0x17e, 0xa0: 0x20ac,
};

/** A PDF text string as text: UTF-16 or UTF-8 after a byte-order mark, else PDFDocEncoding. */
export function textOf(s: PdfString): string {
  const b = s.bytes;
  const encoding = b.startsWith('\xfe\xff') ? 'utf-16be' : b.startsWith('\xff\xfe') ? 'utf-16le' : b.startsWith('\xef\xbb\xbf') ? 'utf-8' : null;
  if (encoding) {
    try {
      const bytes = Buffer.from(encoding === 'utf-8' ? b : b.slice(0, b.length - (b.length % 2)), 'latin1');
      return withoutEscapes(new TextDecoder(encoding, { fatal: true }).decode(bytes));
    } catch {
      // Not what its mark says: read as PDFDocEncoding below, as pdf.js does.
    }
  }
  return [...withoutEscapes(b)].map((c) => String.fromCharCode(DOC_ENCODING[c.charCodeAt(0)] ?? c.charCodeAt(0))).join('');
}

/** `s` without its language escapes (ESC code ESC), which are no part of the text. */
function withoutEscapes(s: string): string {
  return s.includes('\x1b') ? s.split('\x1b').filter((_, i) => i % 2 === 0).join('') : s;
}
