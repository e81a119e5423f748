import { describe, expect, it } from "vitest";
import { routeTable } from "@/test/route-table";
import { allEndpoints } from "@/server/upstream/endpoints";
import { scopeOf } from "./proxy";

/** The scopes a route may declare; the proxy's (`by-path`) follow each upstream endpoint. */
const SCOPES = ["none", "store", "reach"];
describe("the route table", () => {
  it("has every exported handler made by the pipeline, at the folder it declares, for the method it is exported as", async () => {
    const table = await routeTable();
    expect(table.length).toBeGreaterThan(10);
    for (const { path, method, handler } of table) {
      expect(typeof handler, `${method} ${path}`).toBe("function");
      expect(handler.spec, `${method} ${path} is not made by route()`).toBeDefined();
      expect(handler.spec.path, `${method} ${path}`).toBe(path);
      expect(handler.spec.methods, `${method} ${path}`).toContain(method);
    }
  });

  it("declares a scope of the reach for every route, and says why a route works on no store", async () => {
    for (const { path, method, handler } of await routeTable()) {
      const name = `${method} ${path}`;
      if (handler.spec.scope === "by-path") {
        expect(path, `${name}: only the proxy's scope follows its path`).toBe("/api/v1/[...path]");
        continue;
      }
      expect(SCOPES, name).toContain(handler.spec.scope);
      if (handler.spec.scope === "none") {
        expect(handler.spec.reason?.trim().length ?? 0, `${name} has scope "none": its spec must say why in "reason"`).toBeGreaterThan(10);
      }
    }
  });

  it("gives every upstream endpoint of the proxy a scope of the reach", () => {
    for (const endpoint of allEndpoints()) expect(SCOPES, endpoint.id).toContain(scopeOf(endpoint));
  });

  it("needs a session everywhere but the health probes, sign-in and sign-out", async () => {
    const open = (await routeTable()).filter((route) => !route.handler.spec.session).map((route) => `${route.method} ${route.path}`);
    expect(open.sort()).toEqual(
      [
        "DELETE /api/session",
        "GET /api/health",
        "GET /api/health/live",
        "GET /api/health/ready",
        "POST /api/session",
        "GET /api/unsubscribe/[token]",
        "POST /api/unsubscribe/[token]",
      ].sort(),
    );
  });
});
