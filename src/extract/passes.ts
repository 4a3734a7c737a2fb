/**
 * What each named pass of the engine costs, for the extract benchmark (`npm run bench -- extract`
 * prints it per pass and per page). `pass(name, fn)` runs `fn`; while a tally is open
 * (`tallyPasses`) it adds the time `fn` took, less the time of the passes run inside it, to
 * `name`, so a tally's figures add up to the time of the whole. Without a tally it only calls
 * `fn`, so the engine pays one check a pass.
 */

export interface PassTally {
  /** Milliseconds spent in each pass, its inner passes left out. */
  ms: Map<string, number>;
  /** How often each pass ran. */
  calls: Map<string, number>;
}

let open: PassTally | null = null;
/** Time of the passes run inside the current one so far. */
let inner = 0;

export function pass<T>(name: string, fn: () => T): T {
  if (open === null) return fn();
  const tally = open;
  const outer = inner;
  inner = 0;
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    const spent = performance.now() - t0;
    tally.ms.set(name, (tally.ms.get(name) ?? 0) + spent - inner);
    tally.calls.set(name, (tally.calls.get(name) ?? 0) + 1);
    inner = outer + spent;
  }
}

/** Runs `fn` with a tally open; what it returned and what each pass cost in it (time outside any pass under `other`). */
export function tallyPasses<T>(fn: () => T): { result: T; tally: PassTally } {
  if (open !== null) throw new Error('a pass tally is already open');
  const tally: PassTally = { ms: new Map(), calls: new Map() };
  open = tally;
  inner = 0;
  const t0 = performance.now();
  try {
    const result = fn();
    tally.ms.set('other', performance.now() - t0 - inner);
    return { result, tally };
  } finally {
    open = null;
    inner = 0;
  }
}
