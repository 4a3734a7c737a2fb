/**
 * Sheet names of the XLSX export: the file's whole name (extension kept, so `scan.pdf` and
 * `scan.png` stay apart) and the table's number, within Excel's rules: at most 31 characters,
 * none of `[]:*?/\`, no apostrophe at either end, unique ignoring case. A long filename loses
 * the middle of its base name (`Amazon…Services.pdf t1`); a name already taken gets ` (2)`.
 */

const MAX = 31;
const ELLIPSIS = '…';

/** Excel refuses these characters anywhere in a sheet name. */
function clean(text: string): string {
  // Control characters become spaces (code points below 32, filtered without a control-character regex).
  const visible = [...text].map((ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch)).join('');
  return visible.replace(/[[\]:*?/\\]/g, '_');
}

/** `head` + `tail` within `max` characters, cutting the middle of `head` (its extension survives). */
function fit(head: string, tail: string, max = MAX): string {
  if (head.length + tail.length <= max) return head + tail;
  const dot = head.lastIndexOf('.');
  const ext = dot > 0 && head.length - dot <= 6 ? head.slice(dot) : '';
  const stem = head.slice(0, head.length - ext.length);
  const room = max - tail.length - ext.length - ELLIPSIS.length;
  if (room < 2) return (head + tail).slice(0, max);
  const front = Math.ceil(room / 2);
  return stem.slice(0, front) + ELLIPSIS + stem.slice(stem.length - (room - front)) + ext + tail;
}

/** Hands out unique sheet names for one workbook. */
export class SheetNames {
  private readonly taken = new Set<string>();

  /** `reserved`: the names of sheets already in the workbook. */
  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.taken.add(r.toLowerCase());
  }

  /** The sheet name of table `tableIndex` (0-based) of `filename`. */
  table(filename: string, tableIndex: number): string {
    return this.unique(clean(filename).trim() || 'document', ` t${tableIndex + 1}`);
  }

  /** `head + tail` fitted to 31 characters, with ` (n)` added until no sheet has it. */
  unique(head: string, tail = ''): string {
    for (let n = 1; ; n++) {
      let name = fit(head, n === 1 ? tail : `${tail} (${n})`);
      // An apostrophe cannot begin or end a sheet name.
      name = name.replace(/^'+/, '_').replace(/'+$/, '_');
      if (!this.taken.has(name.toLowerCase())) {
        this.taken.add(name.toLowerCase());
        return name;
      }
    }
  }
}
