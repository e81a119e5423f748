import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as actionPermissionsRoute } from "@/app/api/stores/[storeUrl]/action-permissions/route";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { actionPermissionsSchema } from "@/shared/schemas/action-permissions";
import { ADMIN_KEY, cookieFrom, dashboardRequest, MARKETER_KEY, US_STORE, useUpstream } from "@/test/harness";
import { signIn } from "./sign-in";

/** Knowing before anybody types: the key's refusals, learnt from side-effect-free probes and remembered per key. */
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
let upstream: DemoUpstream;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
});
afterAll(() => upstream.close());

async function permissionsOf(apiKey: string) {
  const cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) })));
  const ask = async (action = "tracking-connection.remove") => {
    const response = await actionPermissionsRoute(
      dashboardRequest(`/api/stores/${US_STORE}/action-permissions?action=${action}`, { cookie }),
      {
        params: Promise.resolve({ storeUrl: US_STORE }),
      },
    );
    expect(response.status).toBe(200);
    return actionPermissionsSchema.parse(await response.json()).refusals;
  };
  return ask;
}

const pixels = async () =>
  ((await (await fetch(`${upstream.baseUrl}/pixels/${US_STORE}`, { headers: { "x-api-key": ADMIN_KEY } })).json()) as { pixels: unknown[] })
    .pixels.length;

describe("GET /api/stores/{storeUrl}/action-permissions", () => {
  it("answers 400 to an action it cannot probe", async () => {
    const cookie = cookieFrom(
      await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })),
    );
    const response = await actionPermissionsRoute(
      dashboardRequest(`/api/stores/${US_STORE}/action-permissions?action=digest.create`, { cookie }),
      {
        params: Promise.resolve({ storeUrl: US_STORE }),
      },
    );
    expect(response.status).toBe(400);
  });

  it("names both actions refused to the read-only key, with the upstream's words, and changes nothing upstream", async () => {
    const before = await pixels();
    const ask = await permissionsOf(MARKETER_KEY);
    await ask();
    const refusals = await ask("campaign-group.clone");
    expect(refusals.map((refusal) => refusal.action).sort()).toEqual(["campaign-group.clone", "tracking-connection.remove"]);
    expect(refusals.find((refusal) => refusal.action === "tracking-connection.remove")?.message).toMatch(
      /not allowed to delete tracking connections/,
    );
    expect(await pixels()).toBe(before);
  });

  it("remembers a refusal for the key: asking again probes nothing", async () => {
    const ask = await permissionsOf(MARKETER_KEY);
    await ask();
    await ask("campaign-group.clone");
    const counts = upstream.requestCounts();
    expect((await ask()).length).toBe(2);
    expect((await ask("campaign-group.clone")).length).toBe(2);
    const after = upstream.requestCounts();
    expect(after["pixel-delete"] ?? 0).toBe(counts["pixel-delete"] ?? 0);
    expect(after.clone ?? 0).toBe(counts.clone ?? 0);
  });

  it("refuses the manager removals only, and the admin nothing; no connection and no campaign group is touched", async () => {
    const before = await pixels();
    const manager = await permissionsOf(MANAGER_KEY);
    expect(await manager("campaign-group.clone")).toEqual([]);
    expect((await manager()).map((refusal) => refusal.action)).toEqual(["tracking-connection.remove"]);
    const admin = await permissionsOf(ADMIN_KEY);
    expect([...(await admin()), ...(await admin("campaign-group.clone"))]).toEqual([]);
    expect(await pixels()).toBe(before);
  });
});
