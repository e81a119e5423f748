import { describe, expect, it } from "vitest";
import {
  CLIENT_ADDRESS_HEADER,
  clientAddress,
  HOST_HEADER,
  PROTO_HEADER,
  requestHost,
  requestProtocol,
  vouchForRequest,
} from "./forwarded";

describe("clientAddress", () => {
  it("ignores a made-up X-Forwarded-For when no proxy is trusted", () => {
    expect(clientAddress("1.2.3.4, 5.6.7.8", "203.0.113.9", 0)).toBe("203.0.113.9");
    expect(clientAddress(undefined, "203.0.113.9", 0)).toBe("203.0.113.9");
  });

  it("takes the address the outermost trusted proxy saw, from repeated headers too", () => {
    // client → proxy A (appends client) → proxy B (appends A) → dashboard (socket = B)
    expect(clientAddress("198.51.100.7, 10.0.0.2", "10.0.0.3", 2)).toBe("198.51.100.7");
    expect(clientAddress("spoofed, 198.51.100.7", "10.0.0.3", 1)).toBe("198.51.100.7");
    expect(clientAddress(["spoofed", "198.51.100.7"], "10.0.0.3", 1)).toBe("198.51.100.7");
  });

  it("never reads past the start of the chain", () => {
    expect(clientAddress("", "10.0.0.3", 5)).toBe("10.0.0.3");
  });
});

describe("requestProtocol and requestHost", () => {
  it("believe X-Forwarded-Proto and X-Forwarded-Host only behind a trusted proxy, and only the nearest one's word", () => {
    expect(requestProtocol({ "x-forwarded-proto": "https" }, false, 0)).toBe("http");
    expect(requestProtocol({ "x-forwarded-proto": "https" }, false, 1)).toBe("https");
    expect(requestProtocol({ "x-forwarded-proto": "https, http" }, false, 1)).toBe("http");
    expect(requestProtocol({}, true, 0)).toBe("https");
    expect(requestHost({ host: "localhost", "x-forwarded-host": "dash.example:8443" }, 0)).toBe("localhost");
    expect(requestHost({ host: "localhost", "x-forwarded-host": "evil.example, dash.example:8443" }, 1)).toBe("dash.example:8443");
    expect(requestHost({ host: "localhost:3000" }, 1)).toBe("localhost:3000");
  });
});

describe("vouchForRequest", () => {
  it("replaces client-sent vouched headers and leaves X-Forwarded-* as sent", () => {
    const headers: Record<string, string | string[]> = {
      "x-forwarded-for": "1.2.3.4",
      host: "localhost:3000",
      [CLIENT_ADDRESS_HEADER]: "6.6.6.6",
      [PROTO_HEADER]: "https",
      [HOST_HEADER]: "evil.example",
    };
    vouchForRequest(headers, { remoteAddress: "203.0.113.9" }, 0);
    expect(headers).toEqual({
      "x-forwarded-for": "1.2.3.4",
      host: "localhost:3000",
      [CLIENT_ADDRESS_HEADER]: "203.0.113.9",
      [PROTO_HEADER]: "http",
      [HOST_HEADER]: "localhost:3000",
    });
  });
});
