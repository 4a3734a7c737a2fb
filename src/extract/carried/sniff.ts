/**
 * Invoice XML recognised by its root element and namespace, from the head of the file (the 4 KiB
 * an upload keeps): CII `CrossIndustryInvoice` / ZUGFeRD 1 `CrossIndustryDocument`, UBL 2.1
 * `Invoice` / `CreditNote`. Any other XML is no document of ours (API.md §4c). The head is only
 * scanned (prolog, comments, a DOCTYPE skipped whole), never parsed: entities are not looked at.
 */
import { sniffType, type SniffedType } from '../sniff.js';
import { isInvoiceRoot } from './invoice.js';

export const XML_TYPE = 'application/xml';
export type DocumentFormat = SniffedType | typeof XML_TYPE;

/** The media type of a file from its head: one of the binary formats, invoice XML, or null. */
export function sniffFormat(head: Uint8Array): DocumentFormat | null {
  return sniffType(head.subarray(0, 1024)) ?? (isInvoiceXml(head) ? XML_TYPE : null);
}

/** The root element's namespace and local name, when the head shows a complete start tag. */
export function xmlRoot(head: Uint8Array): { ns: string; name: string } | null {
  let s = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8');
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  let i = 0;
  for (;;) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (s.startsWith('<?', i)) i = after(s, '?>', i);
    else if (s.startsWith('<!--', i)) i = after(s, '-->', i);
    else if (s.startsWith('<!DOCTYPE', i)) i = afterDoctype(s, i);
    else break;
    if (i < 0) return null;
  }
  const m = /^<([A-Za-z_][\w.-]*)(?::([A-Za-z_][\w.-]*))?((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/.exec(s.slice(i));
  if (!m) return null;
  const [prefix, local] = m[2] ? [m[1]!, m[2]] : ['', m[1]!];
  const attrs = new Map<string, string>();
  for (const a of m[3]!.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(a[1]!, a[2] ?? a[3] ?? '');
  const ns = attrs.get(prefix ? `xmlns:${prefix}` : 'xmlns') ?? '';
  return { ns, name: local };
}

export function isInvoiceXml(head: Uint8Array): boolean {
  const root = xmlRoot(head);
  return root !== null && isInvoiceRoot(root.ns, root.name);
}

function after(s: string, end: string, from: number): number {
  const j = s.indexOf(end, from);
  return j < 0 ? -1 : j + end.length;
}

/** Past a DOCTYPE, its internal subset `[…]` (with quoted strings) included. */
function afterDoctype(s: string, from: number): number {
  let depth = 0;
  for (let i = from + 9; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const j = s.indexOf(c, i + 1);
      if (j < 0) return -1;
      i = j;
    } else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return -1;
}
