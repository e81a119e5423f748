import { describe, expect, it } from "vitest";
import { routeTable } from "@/test/route-table";

/**
 * Routes that work on no organization or store, and why. A new route with scope "none" fails
 * here until it is added, with its reason: the default for anything that touches an
 * organization's data is "organization" or "store".
 */
const UNSCOPED: Record<string, string> = {
  "GET /api/health": "the probe of the instance itself",
  "GET /api/health/live": "the probe of the instance itself",
  "GET /api/health/ready": "the probe of the instance itself",
  "GET /api/session": "the signed-in session itself",
  "POST /api/session": "sign-in: there is no session yet",
  "DELETE /api/session": "sign-out of the session itself",
  "POST /api/session/keys": "adds a key to the session's own ring: its store is checked with that key",
  "POST /api/session/keys/remove": "removes a key from the session's own ring",
  "GET /api/sessions": "the sessions of the signed-in key, found by its fingerprint",
  "DELETE /api/sessions": "the other sessions of the signed-in key",
  "DELETE /api/sessions/[id]": "one session of the signed-in key",
  "GET /api/unsubscribe/[token]": "a digest recipient, without an account: the token names the subscription",
  "POST /api/unsubscribe/[token]": "one-click unsubscribe (RFC 8058), without an account: the token names the subscription",
};

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

  it("declares a scope for every route, and says why a route works on no organization", async () => {
    for (const { path, method, handler } of await routeTable()) {
      const name = `${method} ${path}`;
      expect(["none", "organization", "store", "by-path"], name).toContain(handler.spec.scope);
      if (handler.spec.scope === "none")
        expect(UNSCOPED[name], `${name} has scope "none": add it to UNSCOPED with its reason`).toBeDefined();
    }
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
