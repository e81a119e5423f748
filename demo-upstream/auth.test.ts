import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/shared/schemas/error";
import { contextSchema } from "@/shared/schemas/context";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, STORE, storePath } from "./test-helpers";

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
afterAll(() => upstream.close());

function expectError(res: { status: number; body: unknown }, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  const error = apiErrorSchema.parse(res.body);
  expect(error.error).toMatch(message);
  expect(error.retryAfter).toBeNull();
  return error;
}

describe("authentication (contract part 5)", () => {
  it("accepts the key in the x-api-key header", async () => {
    const res = await call(upstream, "/context", { key: KEY.admin });
    expect(res.status).toBe(200);
    contextSchema.parse(res.body);
  });

  it("accepts the key as Authorization: Bearer", async () => {
    const res = await call(upstream, "/context", { key: null, headers: { authorization: `Bearer ${KEY.admin}` } });
    expect(res.status).toBe(200);
    contextSchema.parse(res.body);
  });

  it("answers 400 when both x-api-key and Authorization are sent", async () => {
    const res = await call(upstream, "/context", { key: KEY.admin, headers: { authorization: `Bearer ${KEY.admin}` } });
    expectError(res, 400, /exactly one of x-api-key or Authorization/);
  });

  it("answers 401 'API key is missing' when no key is sent", async () => {
    expectError(await call(upstream, "/context", { key: null }), 401, /^API key is missing/);
  });

  it("answers 401 'API key is invalid' for an unknown key", async () => {
    expectError(await call(upstream, "/context", { key: "sk_demo_nope_000000000000" }), 401, /^API key is invalid/);
  });

  it("answers 401 'API key is invalid' for an Authorization header that is not Bearer", async () => {
    const res = await call(upstream, "/context", { key: null, headers: { authorization: `Basic ${KEY.admin}` } });
    expectError(res, 401, /^API key is invalid/);
  });

  it("answers 401 'API key has expired' for the expired key", async () => {
    expectError(await call(upstream, "/context", { key: KEY.expired }), 401, /^API key has expired/);
  });

  it("answers 401 'API key has been revoked' for the revoked key", async () => {
    expectError(await call(upstream, "/context", { key: KEY.revoked }), 401, /^API key has been revoked/);
  });

  it("answers 403 to the legacy unscoped key on every endpoint, asking for a store-scoped key", async () => {
    const s = STORE.nwUs;
    const requests: Array<[string, string, unknown?]> = [
      ["GET", "/context"],
      ["GET", "/me"],
      ["GET", "/organizations"],
      ["GET", "/stores"],
      ["GET", storePath("store-data", s)],
      ["GET", storePath("store-data", s, "/catalogs")],
      ["GET", `${storePath("ad-metrics", s, "/products")}?startDate=2025-01-01&endDate=2025-01-02`],
      ["GET", storePath("ad-metrics", s, "/dimensions")],
      ["POST", storePath("ad-metrics", s, "/enrich"), { channel: "facebook", assetIds: ["1"] }],
      [
        "POST",
        storePath("platform", s, "/actions/clone-linkedin-campaign"),
        { adAccountId: "1", payload: { sourceCampaignGroupId: "1", name: "x" } },
      ],
      ["GET", storePath("pixels", s)],
      ["DELETE", storePath("pixels", s, "/px_1")],
    ];
    for (const [method, path, body] of requests) {
      const res = await call(upstream, path, { method, key: KEY.legacy, body });
      expectError(res, 403, /no store scope.*store-scoped key/);
    }
  });

  it("checks the key before anything else: an expired key on a foreign store gets 401, not 404", async () => {
    expectError(await call(upstream, storePath("store-data", "kumo-living.jp"), { key: KEY.expired }), 401, /expired/);
  });
});

describe("x-request-id", () => {
  it("carries x-request-id on every response: success, stream, 400, 401, 403, 404, 405", async () => {
    const responses = await Promise.all([
      call(upstream, "/context"),
      call(upstream, `${storePath("ad-metrics", STORE.nwUs, "/products")}?startDate=2025-01-01&endDate=2025-01-01`),
      call(upstream, `${storePath("ad-metrics", STORE.nwUs, "/products")}?startDate=bad&endDate=2025-01-01`),
      call(upstream, "/context", { key: null }),
      call(upstream, "/context", { key: KEY.legacy }),
      call(upstream, "/no-such-endpoint"),
      call(upstream, "//not-under-v1"),
      call(upstream, "/context", { method: "DELETE" }),
    ]);
    expect(responses.map((res) => res.status)).toEqual([200, 200, 400, 401, 403, 404, 404, 405]);
    const ids = responses.map((res) => res.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const res of responses) expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("answers unparseable HTTP with a 400 Error object that carries x-request-id", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(upstream.port, "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/\r\nx-request-id: req_[0-9a-f]{16}\r\n/);
    expect(apiErrorSchema.parse(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).error).toMatch(/not valid HTTP/);
  });
});
