import "server-only";

/** A finished answer, kept so that a repeated request gets it again instead of running twice. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Reservation =
  /** First request with this key: run the action, then `complete` it. */
  | { kind: "acquired"; complete: (response: StoredResponse | null, keep: boolean) => Promise<void> }
  /** The action already ran with the same body: answer with its response. */
  | { kind: "replay"; response: StoredResponse }
  /**
   * The action is running for an identical request: wait for it. Resolves to its response,
   * or to null when it ended without one (reserve again).
   */
  | { kind: "pending"; settled: Promise<StoredResponse | null> }
  /** The key was used with another body. */
  | { kind: "mismatch" };

/**
 * Where idempotency records live. The memory store serves one dashboard process; several
 * instances behind a load balancer need a shared implementation (a database or Redis with
 * an atomic "set if absent"), so that a retry landing on another instance still replays.
 */
export interface IdempotencyStore {
  /**
   * `scope` identifies key holder and Idempotency-Key (already hashed, never the key);
   * `fingerprint` identifies the request. Must be atomic: of two concurrent calls with the
   * same scope, exactly one is "acquired".
   */
  reserve(scope: string, fingerprint: string): Promise<Reservation>;
}

interface Entry {
  fingerprint: string;
  response?: StoredResponse;
  settled: Promise<StoredResponse | null>;
  expiresAt: number;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60_000;

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private get ttlMs(): number {
    return this.options.ttlMs ?? IDEMPOTENCY_TTL_MS;
  }

  get size(): number {
    return this.entries.size;
  }

  async reserve(scope: string, fingerprint: string): Promise<Reservation> {
    const now = this.now();
    this.sweep(now);
    const existing = this.entries.get(scope);
    if (existing && existing.expiresAt > now) {
      if (existing.fingerprint !== fingerprint) return { kind: "mismatch" };
      if (existing.response) return { kind: "replay", response: existing.response };
      return { kind: "pending", settled: existing.settled };
    }

    // Nothing awaits between the lookup above and this write, so two concurrent calls
    // cannot both get here for the same scope.
    let settle!: (response: StoredResponse | null) => void;
    const entry: Entry = {
      fingerprint,
      settled: new Promise((resolve) => (settle = resolve)),
      // A running action holds its key at most this long, in case it never completes.
      expiresAt: now + this.ttlMs,
    };
    this.entries.delete(scope);
    this.entries.set(scope, entry);
    this.evictOverflow();
    return {
      kind: "acquired",
      complete: async (response, keep) => {
        if (keep && response) {
          entry.response = response;
          entry.expiresAt = this.now() + this.ttlMs;
        } else if (this.entries.get(scope) === entry) {
          this.entries.delete(scope);
        }
        settle(response);
      },
    };
  }

  /** Drops expired records, at most once a minute: a full pass is cheap at that rate. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [scope, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(scope);
  }

  /** Bounds memory: past the limit the oldest finished records go first; running ones stay. */
  private evictOverflow(): void {
    const max = this.options.maxEntries ?? 50_000;
    if (this.entries.size <= max) return;
    for (const [scope, entry] of this.entries) {
      if (this.entries.size <= max) return;
      if (entry.response) this.entries.delete(scope);
    }
  }
}

const processGlobal = globalThis as typeof globalThis & { __idempotencyStore?: IdempotencyStore };

/** One store per process, whatever the bundling splits into separate module instances. */
export function idempotencyStore(): IdempotencyStore {
  return (processGlobal.__idempotencyStore ??= new MemoryIdempotencyStore());
}
