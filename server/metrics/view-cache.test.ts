import { describe, expect, it, vi } from "vitest";
import { ViewCache } from "./view-cache";

describe("ViewCache", () => {
  it("serves a second identical read from the cache until it expires", async () => {
    let now = 1_000;
    const cache = new ViewCache<number>(60_000, 10, () => now);
    const load = vi.fn(async () => 42);
    expect(await cache.get("k", load).value).toBe(42);
    expect(cache.get("k", load).hit).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
    now = 61_001;
    expect(cache.get("k", load).hit).toBe(false);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("shares one load between concurrent identical reads", async () => {
    const cache = new ViewCache<number>(60_000, 10);
    const load = vi.fn(() => new Promise<number>((resolve) => setTimeout(() => resolve(1), 10)));
    const [a, b] = [cache.get("k", load), cache.get("k", load)];
    expect(await a.value).toBe(await b.value);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("forgets a failed load", async () => {
    const cache = new ViewCache<number>(60_000, 10);
    await expect(cache.get("k", () => Promise.reject(new Error("down"))).value).rejects.toThrow("down");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.get("k", async () => 2).hit).toBe(false);
  });

  it("keys by a hash of the session key, never the key itself", () => {
    const key = ViewCache.key("sk_secret", "store", "2026-01-01");
    expect(key).not.toContain("sk_secret");
    expect(key).not.toBe(ViewCache.key("sk_other", "store", "2026-01-01"));
  });

  it("keeps at most maxEntries", () => {
    const cache = new ViewCache<number>(60_000, 2);
    for (const key of ["a", "b", "c"]) cache.get(key, async () => 1);
    expect(cache.get("a", async () => 1).hit).toBe(false);
  });
});

describe("ViewCache readers", () => {
  const slow = (signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => resolve(7), 50);
      signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
    });

  it("keeps a shared load going while one of its readers is still there", async () => {
    const cache = new ViewCache<number>(60_000, 10);
    const first = new AbortController();
    const second = new AbortController();
    const a = cache.get("k", slow, first.signal);
    const b = cache.get("k", slow, second.signal);
    a.value.catch(() => undefined);
    first.abort();
    expect(await b.value).toBe(7);
  });

  it("stops a shared load when its last reader leaves, and forgets it", async () => {
    const cache = new ViewCache<number>(60_000, 10);
    const first = new AbortController();
    const second = new AbortController();
    const a = cache.get("k", slow, first.signal);
    cache.get("k", slow, second.signal);
    first.abort();
    second.abort();
    await expect(a.value).rejects.toThrow("aborted");
    expect(cache.get("k", async () => 1).hit).toBe(false);
  });
});
