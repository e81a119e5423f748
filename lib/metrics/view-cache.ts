import "server-only";
import { createHash } from "node:crypto";

/**
 * Recent aggregates, per session key and query, for a short while: switching between views
 * of the same range (granularity, comparison on and off, a table page) does not read the
 * upstream again. Identical requests in flight share one upstream read. Only the key's hash
 * is kept, never the key.
 */
export class ViewCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  static key(apiKey: string, ...parts: (string | undefined)[]): string {
    return createHash("sha256")
      .update(apiKey)
      .update("\u0000")
      .update(parts.map((part) => part ?? "").join("\u0000"))
      .digest("hex");
  }

  /** The cached value, or `load()`'s; a failed load is forgotten at once so the next call tries again. */
  get(key: string, load: () => Promise<T>): { value: Promise<T>; hit: boolean } {
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.now()) return { value: entry.value, hit: true };
    if (entry) this.entries.delete(key);
    const value = load();
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return { value, hit: false };
  }
}
