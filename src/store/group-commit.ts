/**
 * Group commit: items handed in while a group's statement is in flight wait and go together
 * in the next one, so N concurrent writers cost about one round-trip and one commit per group
 * instead of one each. A lone item goes at once (no timer, no added latency).
 */
export class GroupCommit<T, R> {
  private waiting: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private busy = false;

  /** `write` runs one group and returns each item's result, in the items' order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxGroup = 256,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.waiting.length) {
      const group = this.waiting.splice(0, this.maxGroup);
      try {
        const results = await this.write(group.map((g) => g.item));
        group.forEach((g, i) => g.resolve(results[i]));
      } catch (err) {
        for (const g of group) g.reject(err);
      }
    }
    this.busy = false;
  }
}
