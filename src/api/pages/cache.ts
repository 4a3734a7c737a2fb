/** A least-recently-used cache of byte buffers, bounded by their total size. */
export class ByteLru<V extends { byteLength: number }> {
  private readonly entries = new Map<string, V>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** The entry, marked as most recently used. */
  get(key: string): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  /** Stores `value`, evicting the least recently used entries beyond the byte bound; a value larger than the bound is not kept. */
  set(key: string, value: V): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.entries.set(key, value);
    this.total += value.byteLength;
    for (const [k, v] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(k);
      this.total -= v.byteLength;
    }
  }

  delete(key: string): void {
    const v = this.entries.get(key);
    if (v === undefined) return;
    this.entries.delete(key);
    this.total -= v.byteLength;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}
