import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { annotationsSchema } from "@/shared/schemas/annotation";
import { noteSchema } from "@/shared/schemas/note";
import { ADMIN_KEY, callRoute, cookieFrom, dashboardRequest, sessionRequest, US_STORE, useUpstream } from "@/test/harness";
import { addNote, changeNote, listAnnotations, removeNote } from "./annotations";
import { proxyToUpstream } from "./proxy";
import { signIn } from "./sign-in";

const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const KUMO_KEY = "sk_demo_admin_kumo_jp_3c9e71f4b2a5";
const BASE = `/api/stores/${US_STORE}`;

let upstream: DemoUpstream;
const cookies: Record<string, string> = {};

async function annotations(cookie: string, startDate: string, endDate: string) {
  const response = await callRoute(
    listAnnotations,
    sessionRequest("GET", `${BASE}/annotations?startDate=${startDate}&endDate=${endDate}`, cookie),
  );
  expect(response.status).toBe(200);
  return annotationsSchema.parse(await response.json());
}

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
  useUpstream(upstream.baseUrl);
  for (const [name, apiKey] of Object.entries({ admin: ADMIN_KEY, manager: MANAGER_KEY, kumo: KUMO_KEY }))
    cookies[name] = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) })));
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl));
afterEach(() => vi.unstubAllEnvs());

describe("notes on a store's charts", () => {
  it("are shared in the organization with their author, and changed or deleted by their author only", async () => {
    const created = await callRoute(
      addNote,
      sessionRequest("POST", `${BASE}/notes`, cookies.admin!, { startDate: "2026-01-10", endDate: "2026-01-12", text: "  Winter sale  " }),
    );
    expect(created.status).toBe(201);
    const note = noteSchema.parse(await created.json());
    expect(note).toMatchObject({ startDate: "2026-01-10", endDate: "2026-01-12", text: "Winter sale" });

    // Another user of the organization sees it; ranges that overlap find it, others do not.
    expect((await annotations(cookies.manager!, "2026-01-12", "2026-01-31")).notes.map((shown) => shown.id)).toEqual([note.id]);
    expect((await annotations(cookies.manager!, "2026-01-13", "2026-01-31")).notes).toEqual([]);

    const edit = { startDate: "2026-01-10", endDate: "2026-01-10", text: "Winter sale, day one" };
    expect((await callRoute(changeNote, sessionRequest("PATCH", `${BASE}/notes/${note.id}`, cookies.manager!, edit))).status).toBe(404);
    expect((await callRoute(removeNote, sessionRequest("DELETE", `${BASE}/notes/${note.id}`, cookies.manager!))).status).toBe(404);
    const changed = await callRoute(changeNote, sessionRequest("PATCH", `${BASE}/notes/${note.id}`, cookies.admin!, edit));
    expect(changed.status).toBe(200);
    expect(noteSchema.parse(await changed.json()).text).toBe("Winter sale, day one");

    // Another organization's key cannot read or write this store's notes.
    const foreign = await callRoute(
      listAnnotations,
      sessionRequest("GET", `${BASE}/annotations?startDate=2026-01-01&endDate=2026-01-31`, cookies.kumo!),
    );
    expect(foreign.status).toBe(404);

    expect((await callRoute(removeNote, sessionRequest("DELETE", `${BASE}/notes/${note.id}`, cookies.admin!))).status).toBe(200);
    expect((await annotations(cookies.admin!, "2026-01-01", "2026-01-31")).notes).toEqual([]);
  });

  it("refuses an empty note, a range that ends before it starts, and control characters", async () => {
    for (const body of [
      { startDate: "2026-01-10", endDate: "2026-01-10", text: "   " },
      { startDate: "2026-01-10", endDate: "2026-01-09", text: "Backwards" },
      { startDate: "2026-01-10", endDate: "2026-01-10", text: "Hidden\u202etext" },
    ])
      expect((await callRoute(addNote, sessionRequest("POST", `${BASE}/notes`, cookies.admin!, body))).status, body.text).toBe(400);
  });
});

describe("guarded actions as markers", () => {
  it("lists the store's removal with its Activity id around the dates asked", async () => {
    const pixels = (await (await proxyToUpstream(dashboardRequest(`/api/v1/pixels/${US_STORE}`, { cookie: cookies.admin }))).json()) as {
      pixels: { id: string; name: string }[];
    };
    const [pixel] = pixels.pixels;
    const removal = await proxyToUpstream(
      dashboardRequest(`/api/v1/pixels/${US_STORE}/${pixel!.id}`, {
        method: "DELETE",
        cookie: cookies.admin,
        headers: { "idempotency-key": randomUUID() },
      }),
    );
    expect(removal.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const { actions } = await annotations(cookies.manager!, today, today);
    const marker = actions.find((action) => action.label === `Removal of ${pixel!.name}`);
    expect(marker).toMatchObject({ action: "tracking-connection.remove", outcome: "succeeded" });
    expect(marker!.id).toMatch(/\S/);
    expect(
      (await annotations(cookies.admin!, "2026-01-01", "2026-01-02")).actions.find((action) => action.id === marker!.id),
    ).toBeUndefined();
  });
});
