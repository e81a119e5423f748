import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { dataChangesSchema } from "@/shared/schemas/data-change";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { dataChanges } from "./data-changes";
import { signIn } from "./sign-in";

let upstream: DemoUpstream;
let cookie: string;
const params = { params: Promise.resolve({ storeUrl: US_STORE }) };
const list = (query = "") => dataChanges(dashboardRequest(`/api/stores/${US_STORE}/data-changes${query}`, { cookie }), params);

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
});
afterAll(() => upstream.close());
afterEach(() => vi.unstubAllEnvs());

describe("GET /api/stores/{storeUrl}/data-changes", () => {
  it.each([
    ["on", true],
    ["off", false],
  ])("says whether the dashboard watches for changed days (ROLLUPS=%s)", async (rollups, watching) => {
    useUpstream(upstream.baseUrl, { ROLLUPS: rollups });
    const response = await list();
    expect(response.status).toBe(200);
    expect(dataChangesSchema.parse(await response.json())).toEqual({ changes: [], watching });
  });

  it("refuses half a range, or one that ends before it starts, naming the parameter", async () => {
    for (const query of ["?startDate=2026-01-01", "?startDate=2026-02-01&endDate=2026-01-01", "?startDate=2026-02-30&endDate=2026-03-01"]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/startDate|endDate/);
    }
  });
});
