import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-redirect";

describe("safeNextPath", () => {
  it("keeps a path on this site with its query", () => {
    expect(safeNextPath("/stores/a.example/products?channel=google")).toBe("/stores/a.example/products?channel=google");
  });

  it.each([
    ["absolute URL", "https://evil.example/"],
    ["protocol-relative URL", "//evil.example/path"],
    ["backslash trick", "/\\evil.example"],
    ["encoded backslash after decoding by the browser", "/\\/evil.example"],
    ["javascript scheme", "javascript:alert(1)"],
    ["control characters", "/context\r\nSet-Cookie: x=1"],
    ["tab inside the host", "/\t/evil.example"],
    ["the sign-in page itself", "/sign-in?next=/context"],
    ["an API route", "/api/session"],
    ["empty", ""],
    ["missing", null],
  ])("falls back to the home page for %s", (_label, next) => {
    expect(safeNextPath(next)).toBe("/context");
  });
});
