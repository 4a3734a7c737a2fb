/**
 * Jobs of many accounts waiting for a few runners (page renders, corrections' learning): one queue
 * per account, taken in turns, so one account's hundred jobs delay another's by at most one job.
 */
export class FairQueue<J extends { account: string }> {
  /** Waiting jobs per account; the map's order is the turn order. */
  private readonly queues = new Map<string, J[]>();
  private waiting = 0;

  /** Jobs waiting, all accounts together. */
  get size(): number {
    return this.waiting;
  }

  /** Jobs of `account` waiting. */
  waitingOf(account: string): number {
    return this.queues.get(account)?.length ?? 0;
  }

  push(job: J): void {
    const queue = this.queues.get(job.account);
    if (queue) queue.push(job);
    else this.queues.set(job.account, [job]);
    this.waiting++;
  }

  /** Takes `job` out of the queue (its caller left); false when it was not waiting. */
  remove(job: J): boolean {
    const queue = this.queues.get(job.account);
    const i = queue?.indexOf(job) ?? -1;
    if (i < 0) return false;
    queue!.splice(i, 1);
    if (queue!.length === 0) this.queues.delete(job.account);
    this.waiting--;
    return true;
  }

  /** The next job by turns among accounts, passing over those `skip` names (they hold all the runners they may). */
  next(skip: (account: string) => boolean = () => false): J | null {
    for (const [account, queue] of this.queues) {
      if (skip(account)) continue;
      const job = queue.shift()!;
      this.queues.delete(account);
      // Back of the turn order, with what it still has waiting.
      if (queue.length > 0) this.queues.set(account, queue);
      this.waiting--;
      return job;
    }
    return null;
  }

  /** Every waiting job, the queue emptied. */
  drain(): J[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.waiting = 0;
    return all;
  }
}
