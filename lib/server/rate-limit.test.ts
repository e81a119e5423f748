import { describe, expect, it } from "vitest";
import { FailureLimiter } from "./rate-limit";

describe("FailureLimiter", () => {
  it("allows ten failures a minute, then asks to wait until the oldest leaves the window", () => {
    let now = 1_000_000;
    const limiter = new FailureLimiter(10, 60_000, () => now);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(limiter.retryAfterSeconds("client")).toBe(0);
      limiter.recordFailure("client");
      now += 1_000;
    }
    expect(limiter.retryAfterSeconds("client")).toBe(50);
    expect(limiter.retryAfterSeconds("someone-else")).toBe(0);
    now += 50_000;
    expect(limiter.retryAfterSeconds("client")).toBe(0);
  });
});
