import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-redirect";

describe("safeNextPath", () => {
  it.each([
    ["/stores/a.example/products?channel=google", "/stores/a.example/products?channel=google"],
    ["/context", "/context"],
    ["/activity#latest", "/activity#latest"],
    ["/stores/a.example/./products", "/stores/a.example/products"],
    ["/stores/shop%20one/products", "/stores/shop%20one/products"],
  ])("keeps the path on this site %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    ["absolute URL", "https://evil.example/"],
    ["absolute URL with user info", "https://dashboard@evil.example/"],
    ["protocol-relative URL", "//evil.example/path"],
    ["protocol-relative with three slashes", "///evil.example"],
    ["dot segment then two slashes", "/.//evil.example"],
    ["encoded dot segment then two slashes", "/%2e//evil.example"],
    ["double-dot segment then two slashes", "/%2e%2e//evil.example"],
    ["dot segments climbing to two slashes", "/a/..//evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["encoded slash after a slash", "/%2Fevil.example"],
    ["double-encoded slashes", "/%252F%252Fevil.example"],
    ["query-style next with encoded dot and slashes", "%2F.%2F%2Fevil.com"],
    ["backslash trick", "/\\evil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["double-encoded backslash", "/%255Cevil.example"],
    ["backslash after slash", "/\\/evil.example"],
    ["javascript scheme", "javascript:alert(1)"],
    ["encoded javascript scheme", "javascript%3Aalert(1)"],
    ["data URL", "data:text/html,<script>alert(1)</script>"],
    ["leading space before two slashes", " //evil.example"],
    ["tab inside the host", "/\t/evil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["newline", "/\n/evil.example"],
    ["encoded newline", "/%0A/evil.example"],
    ["carriage return header injection", "/context\r\nSet-Cookie: x=1"],
    ["encoded header injection", "/context%0d%0aSet-Cookie:%20x=1"],
    ["null byte", "/context%00"],
    ["relative path without a slash", "evil.example/path"],
    ["malformed encoding", "/%E0%A4%A"],
    ["the sign-in page itself", "/sign-in?next=/context"],
    ["the sign-in page through a dot segment", "/x/../sign-in"],
    ["an API route", "/api/session"],
    ["an API route through an encoded dot segment", "/x/%2e%2e/api/session"],
    ["a very long value", `/${"a".repeat(3000)}`],
    ["empty", ""],
    ["missing", null],
  ])("falls back to the home page for %s", (_label, next) => {
    expect(safeNextPath(next)).toBe("/");
  });
});
