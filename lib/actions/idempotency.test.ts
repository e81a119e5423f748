import { describe, expect, it } from "vitest";
import { MemoryIdempotencyStore, type StoredResponse } from "./idempotency";

const ok: StoredResponse = { status: 200, headers: { "content-type": "application/json", "x-request-id": "req_1" }, body: '{"ok":true}' };

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function acquire(store: MemoryIdempotencyStore, scope: string, fingerprint: string) {
  const reservation = await store.reserve(scope, fingerprint);
  if (reservation.kind !== "acquired") throw new Error(`expected acquired, got ${reservation.kind}`);
  return reservation;
}

describe("MemoryIdempotencyStore", () => {
  it("acquires a new key once, then replays what was kept", async () => {
    const store = new MemoryIdempotencyStore();
    const first = await acquire(store, "scope", "body-a");
    await first.complete(ok, true);
    expect(await store.reserve("scope", "body-a")).toEqual({ kind: "replay", response: ok });
  });

  it("refuses the same key with another fingerprint, while running and after", async () => {
    const store = new MemoryIdempotencyStore();
    const first = await acquire(store, "scope", "body-a");
    expect((await store.reserve("scope", "body-b")).kind).toBe("mismatch");
    await first.complete(ok, true);
    expect((await store.reserve("scope", "body-b")).kind).toBe("mismatch");
  });

  it("lets concurrent duplicates wait for the first, and gives them its response", async () => {
    const store = new MemoryIdempotencyStore();
    const [a, b, c] = await Promise.all([store.reserve("scope", "x"), store.reserve("scope", "x"), store.reserve("scope", "x")]);
    expect([a.kind, b.kind, c.kind].sort()).toEqual(["acquired", "pending", "pending"]);
    const waiting = [b, c].map((reservation) => (reservation.kind === "pending" ? reservation.settled : null));
    if (a.kind !== "acquired") throw new Error("unreachable");
    await a.complete(ok, true);
    expect(await Promise.all(waiting)).toEqual([ok, ok]);
  });

  it("forgets a response it must not keep, so that the next request with the key runs again", async () => {
    const store = new MemoryIdempotencyStore();
    const first = await acquire(store, "scope", "x");
    const waiter = await store.reserve("scope", "x");
    const failure: StoredResponse = { status: 500, headers: {}, body: "{}" };
    await first.complete(failure, false);
    expect(waiter.kind === "pending" && (await waiter.settled)).toEqual(failure);
    expect((await store.reserve("scope", "x")).kind).toBe("acquired");
  });

  it("tells waiters when the first run ended without any response", async () => {
    const store = new MemoryIdempotencyStore();
    const first = await acquire(store, "scope", "x");
    const waiter = await store.reserve("scope", "x");
    await first.complete(null, false);
    expect(waiter.kind === "pending" && (await waiter.settled)).toBeNull();
  });

  it("keeps a record for the TTL only", async () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ ttlMs: 24 * 3_600_000, now: time.now });
    await (await acquire(store, "scope", "x")).complete(ok, true);
    time.advance(24 * 3_600_000 - 1);
    expect((await store.reserve("scope", "x")).kind).toBe("replay");
    time.advance(1);
    expect((await store.reserve("scope", "y")).kind).toBe("acquired");
  });

  it("sweeps expired records, and bounds its size by dropping the oldest finished ones", async () => {
    const time = clock();
    const store = new MemoryIdempotencyStore({ ttlMs: 1_000, maxEntries: 3, now: time.now });
    for (const scope of ["a", "b", "c"]) await (await acquire(store, scope, "x")).complete(ok, true);
    const running = await acquire(store, "d", "x");
    expect(store.size).toBe(3);
    expect((await store.reserve("a", "x")).kind).toBe("acquired");
    expect((await store.reserve("d", "x")).kind).toBe("pending");
    await running.complete(ok, true);

    time.advance(120_000);
    await store.reserve("fresh", "x");
    expect(store.size).toBe(1);
  });

  it("keeps scopes apart", async () => {
    const store = new MemoryIdempotencyStore();
    await (await acquire(store, "key-one", "x")).complete(ok, true);
    expect((await store.reserve("key-two", "x")).kind).toBe("acquired");
  });
});
