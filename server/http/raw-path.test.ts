import { describe, expect, it } from "vitest";
import { rawPathProblem } from "./raw-path";

describe("rawPathProblem", () => {
  it.each(["/api/v1/pixels/%FF", "/stores/%E0%A4%A/products", "/api/v1/pixels/%2E%2e/context", "/api/v1/pixels/%2e/x", "/a/../b"])(
    "refuses %s",
    (path) => {
      expect(rawPathProblem(path)).not.toBeNull();
    },
  );

  it.each(["/", "/stores/shop.example/products?from=2026-01-01", "/api/v1/pixels/shop%20one/px_1", "/stores/a..b/products", "/x?y=%FF"])(
    "accepts %s",
    (path) => {
      expect(rawPathProblem(path)).toBeNull();
    },
  );
});
