/**
 * The figures the benchmarks are judged by, each against its target, collected as each
 * benchmark prints them so `npm run bench` can end with one table of them all (with the machine's
 * load), the table docs/benchmarks.md keeps.
 */
export interface Figure {
  /** What is measured, against which peer. */
  what: string;
  value: number;
  /** `×` for a ratio against the peer, or the unit of an absolute figure. */
  unit: string;
  target: number;
  /** Whether the figure must reach the target from above (`max`: a latency bound). */
  kind: 'min' | 'max';
}

const figures: Figure[] = [];

export function figure(f: Figure): void {
  figures.push(f);
}

const fmt = (v: number, unit: string) => (unit === '×' ? `${v.toFixed(2)}×` : `${v.toFixed(2)} ${unit}`);
const met = (f: Figure) => (f.kind === 'min' ? f.value >= f.target : f.value <= f.target);

/** The figures collected so far as a Markdown table (empty when none was). */
export function figureTable(): string {
  if (figures.length === 0) return '';
  const rows = figures.map((f) => [f.what, fmt(f.value, f.unit), `${f.kind === 'min' ? '≥' : '≤'} ${fmt(f.target, f.unit)}`, met(f) ? 'met' : 'NOT met']);
  const head = ['figure', 'value', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
