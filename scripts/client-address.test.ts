import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.mjs";

describe("clientAddress", () => {
  it("ignores a made-up X-Forwarded-For when no proxy is trusted", () => {
    expect(clientAddress("1.2.3.4, 5.6.7.8", "203.0.113.9", 0)).toBe("203.0.113.9");
    expect(clientAddress(undefined, "203.0.113.9", 0)).toBe("203.0.113.9");
  });

  it("takes the address the outermost trusted proxy saw", () => {
    // client → proxy A (appends client) → proxy B (appends A) → dashboard (socket = B)
    expect(clientAddress("198.51.100.7, 10.0.0.2", "10.0.0.3", 2)).toBe("198.51.100.7");
    expect(clientAddress("spoofed, 198.51.100.7", "10.0.0.3", 1)).toBe("198.51.100.7");
  });

  it("never reads past the start of the chain", () => {
    expect(clientAddress("", "10.0.0.3", 5)).toBe("10.0.0.3");
  });
});
