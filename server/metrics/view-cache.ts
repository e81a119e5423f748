import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

interface Entry<T> {
  value: Promise<T>;
  controller: AbortController;
  readers: number;
  settled: boolean;
}

/**
 * Recent aggregates, per session key and query, for a short while: switching between views
 * of the same range (granularity, comparison on and off, a table page) does not read the
 * upstream again. Identical reads in flight share one upstream read, which stops only when
 * its last reader has gone. Only the key's hash is kept, never the key.
 */
export class ViewCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;

  constructor(ttlMs: number, maxEntries: number, now: () => number = performance.now.bind(performance)) {
    this.entries = new LRUCache<string, Entry<T>>({ max: maxEntries, ttl: ttlMs, ttlAutopurge: false, ttlResolution: 0, perf: { now } });
  }

  static key(keyIdentity: string, ...parts: (string | undefined)[]): string {
    return createHash("sha256")
      .update(keyIdentity)
      .update("\u0000")
      .update(parts.map((part) => part ?? "").join("\u0000"))
      .digest("hex");
  }

  /**
   * The cached value, or `load()`'s, shared with identical reads in flight. `reader` is the
   * caller's own signal: when every reader of an unfinished load has aborted, the load's
   * signal aborts. A failed load is forgotten at once so the next call tries again.
   */
  get(key: string, load: (signal: AbortSignal) => Promise<T>, reader?: AbortSignal): { value: Promise<T>; hit: boolean } {
    const existing = this.entries.get(key);
    if (existing) {
      this.join(key, existing, reader);
      return { value: existing.value, hit: true };
    }
    const controller = new AbortController();
    const entry: Entry<T> = { value: load(controller.signal), controller, readers: 0, settled: false };
    this.entries.set(key, entry);
    entry.value.then(
      () => (entry.settled = true),
      () => {
        entry.settled = true;
        if (this.entries.peek(key) === entry) this.entries.delete(key);
      },
    );
    this.join(key, entry, reader);
    return { value: entry.value, hit: false };
  }

  private join(key: string, entry: Entry<T>, reader: AbortSignal | undefined): void {
    if (entry.settled || !reader) return;
    entry.readers++;
    const leave = () => {
      entry.readers--;
      if (entry.readers > 0 || entry.settled) return;
      entry.controller.abort(reader.reason);
      if (this.entries.peek(key) === entry) this.entries.delete(key);
    };
    if (reader.aborted) return leave();
    reader.addEventListener("abort", leave, { once: true });
    entry.value.finally(() => reader.removeEventListener("abort", leave)).catch(() => undefined);
  }
}
