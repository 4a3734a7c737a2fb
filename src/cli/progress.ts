/**
 * Progress bars on stderr (cli-progress), only when stderr is a terminal: in a pipe or a log
 * there are none, and the command prints one summary line instead. stdout carries data only.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(value: number, payload?: Record<string, string | number>): void;
  setTotal(total: number): void;
  stop(): void;
}

const NONE: Progress = { update() {}, setTotal() {}, stop() {} };

/** A bar with `format` (cli-progress tokens: {bar} {value} {total} {percentage} {eta}, plus payload keys). */
export function progressBar(format: string, total: number, payload: Record<string, string | number> = {}): Progress {
  if (!process.stderr.isTTY) return NONE;
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format, hideCursor: true, clearOnComplete: false, etaBuffer: 20 }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, payload);
  return {
    update: (value, p) => bar.update(value, p),
    setTotal: (t) => bar.setTotal(t),
    stop: () => bar.stop(),
  };
}

/** `12.3 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** A line on stderr, the non-terminal stand-in for a bar. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}
