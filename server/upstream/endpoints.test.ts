import { describe, expect, it } from "vitest";
import { endpointById, matchEndpoint, upstreamPath } from "./endpoints";

describe("the endpoint allow-list", () => {
  it("matches each contract call to its endpoint", () => {
    const cases: [string, string[], string][] = [
      ["GET", ["context"], "context"],
      ["GET", ["me"], "me"],
      ["GET", ["organizations"], "organizations"],
      ["GET", ["stores"], "stores"],
      ["GET", ["store-data", "s"], "store-profile"],
      ["GET", ["store-data", "s", "catalogs"], "catalogs"],
      ["GET", ["ad-metrics", "s", "products"], "products"],
      ["GET", ["ad-metrics", "s", "dimensions"], "dimensions"],
      ["POST", ["ad-metrics", "s", "enrich"], "enrich"],
      ["POST", ["platform", "s", "actions", "clone-linkedin-campaign"], "clone"],
      ["GET", ["pixels", "s"], "pixels-list"],
      ["DELETE", ["pixels", "s", "p1"], "pixel-delete"],
    ];
    for (const [method, segments, id] of cases) {
      const match = matchEndpoint(method, segments);
      expect(match.kind === "match" && match.endpoint.id, `${method} ${segments.join("/")}`).toBe(id);
    }
  });

  it("answers method-not-allowed with the allowed methods for a known path", () => {
    expect(matchEndpoint("DELETE", ["context"])).toEqual({ kind: "method-not-allowed", allow: ["GET"] });
    expect(matchEndpoint("PUT", ["pixels", "s", "p1"])).toEqual({ kind: "method-not-allowed", allow: ["DELETE"] });
  });

  it("answers not-found for paths outside the contract", () => {
    for (const segments of [
      ["admin"],
      ["store-data"],
      ["store-data", "s", "secrets"],
      ["analytics-sql", "s"],
      ["platform", "s", "actions", "delete-account"],
    ]) {
      expect(matchEndpoint("GET", segments).kind).toBe("not-found");
    }
  });

  it("encodes every parameter so it stays one segment upstream", () => {
    const path = upstreamPath(endpointById("pixel-delete"), { storeUrl: "a/b?c#d", pixelId: "x y" });
    expect(path).toBe("/pixels/a%2Fb%3Fc%23d/x%20y");
  });
});
