import { describe, expect, it } from "vitest";
import { canonicalizePath } from "./path";

describe("canonicalizePath", () => {
  it("decodes each segment of an ordinary path", () => {
    expect(canonicalizePath("/store-data/shop.example.com/catalogs")).toEqual({
      ok: true,
      segments: ["store-data", "shop.example.com", "catalogs"],
    });
  });

  it("keeps an encoded character that is harmless inside one segment", () => {
    expect(canonicalizePath("/store-data/my%20shop")).toEqual({ ok: true, segments: ["store-data", "my shop"] });
  });

  it.each([
    ["a dot-dot segment", "/store-data/../context"],
    ["an encoded dot-dot segment", "/store-data/%2e%2e/context"],
    ["a mixed-case encoded dot-dot", "/store-data/%2E./context"],
    ["a single dot segment", "/store-data/./x"],
    ["a double slash", "/store-data//x"],
    ["an encoded slash", "/store-data/a%2Fb/catalogs"],
    ["an encoded backslash", "/store-data/a%5Cb"],
    ["a raw backslash", "/store-data\\..\\context"],
    ["a NUL byte", "/store-data/a%00b"],
    ["a newline", "/store-data/a%0d%0aHost:evil"],
    ["malformed percent-encoding", "/store-data/%E0%A4%A"],
    ["double encoding", "/store-data/%252e%252e"],
    ["an empty path", "/"],
    ["a trailing slash", "/context/"],
  ])("refuses %s", (_label, path) => {
    expect(canonicalizePath(path).ok).toBe(false);
  });

  it("refuses a very long path", () => {
    expect(canonicalizePath(`/store-data/${"a".repeat(3000)}`).ok).toBe(false);
  });
});
