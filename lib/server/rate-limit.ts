import "server-only";

/**
 * Counts failures per client in a sliding window, in memory (one dashboard process).
 * Used to slow down guessing of API keys on sign-in.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the client may try again, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    const recent = this.recent(client);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000));
  }

  recordFailure(client: string): void {
    const recent = this.recent(client);
    recent.push(this.now());
    this.failures.set(client, recent);
  }

  private recent(client: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const recent = (this.failures.get(client) ?? []).filter((time) => time > cutoff);
    if (recent.length === 0) this.failures.delete(client);
    else this.failures.set(client, recent);
    // Bound memory: forget the oldest clients when many distinct clients fail.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
    return recent;
  }
}

/**
 * The client's address. The dashboard's server (scripts/server.mjs) replaces X-Forwarded-For
 * with the one address it can vouch for (see TRUST_PROXY_HOPS), so this header is not the client's word.
 */
export function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.trim() || "unknown";
}
