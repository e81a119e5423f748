import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress, vouchForClient } from "./client-address.mjs";

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

describe("vouchForClient", () => {
  it("replaces a client-sent client address header and leaves X-Forwarded-For as sent", () => {
    const headers = { "x-forwarded-for": "1.2.3.4", [CLIENT_ADDRESS_HEADER]: "6.6.6.6", host: "localhost" };
    vouchForClient(headers, "203.0.113.9", 0);
    expect(headers).toEqual({ "x-forwarded-for": "1.2.3.4", [CLIENT_ADDRESS_HEADER]: "203.0.113.9", host: "localhost" });
  });

  it("takes the address the trusted proxy saw, from repeated X-Forwarded-For headers too", () => {
    const headers: Record<string, string | string[]> = { "x-forwarded-for": ["spoofed", "198.51.100.7"] };
    vouchForClient(headers, "10.0.0.3", 1);
    expect(headers[CLIENT_ADDRESS_HEADER]).toBe("198.51.100.7");
    expect(headers["x-forwarded-for"]).toEqual(["spoofed", "198.51.100.7"]);
  });

  it("sets the header when the client sent none", () => {
    const headers: Record<string, string> = {};
    vouchForClient(headers, "::1", 0);
    expect(headers).toEqual({ [CLIENT_ADDRESS_HEADER]: "::1" });
  });
});
