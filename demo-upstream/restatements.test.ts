import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "./server";

const KEY = "sk_demo_admin_nw_us_5d8e2f41c7a9";
const STORE = "northwind-outfitters.myshopify.com";
let upstream: DemoUpstream;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
});
afterAll(() => upstream.close());

async function rows(date: string) {
  const response = await fetch(`${upstream.baseUrl}/ad-metrics/${STORE}/products?startDate=${date}&endDate=${date}`, {
    headers: { "x-api-key": KEY },
  });
  return (await response.json()) as { revenue: number; orders: number; units: number }[];
}

const restate = (body: unknown) =>
  fetch(`${upstream.origin}/__control/restate`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("PUT /__control/restate", () => {
  it("multiplies one store-day's revenue from then on, leaves orders, units and other days alone, and a reset undoes it", async () => {
    const [day, next] = await Promise.all([rows("2026-10-03"), rows("2026-10-04")]);
    const response = await restate({ storeUrl: STORE, date: "2026-10-03", factor: 1.5 });
    expect(response.status).toBe(200);
    const restated = await rows("2026-10-03");
    expect(restated).toHaveLength(day.length);
    restated.forEach((row, index) => {
      expect(Math.abs(row.revenue - day[index]!.revenue * 1.5)).toBeLessThanOrEqual(0.0051);
      expect(row.orders).toBe(day[index]!.orders);
      expect(row.units).toBe(day[index]!.units);
    });
    expect(await rows("2026-10-04")).toEqual(next);
    const state = (await (await fetch(`${upstream.origin}/__control/state`)).json()) as { restatements: unknown[] };
    expect(state.restatements).toEqual([{ storeUrl: STORE, date: "2026-10-03", factor: 1.5 }]);
    await fetch(`${upstream.origin}/__control/reset`, { method: "POST" });
    expect(await rows("2026-10-03")).toEqual(day);
  });

  it("refuses a body without a real date, a factor above zero or a store of the demo, saying which field", async () => {
    for (const [body, field] of [
      [{ storeUrl: STORE, date: "3 Oct", factor: 1.5 }, "date"],
      [{ storeUrl: STORE, date: "2026-02-30", factor: 1.5 }, "date"],
      [{ storeUrl: STORE, date: "2026-10-03", factor: -1 }, "factor"],
      [{ storeUrl: "no-such-store.myshopify.com", date: "2026-10-03", factor: 1.5 }, "storeUrl"],
    ] as const) {
      const answer = await restate(body);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(await answer.json())).toContain(field);
    }
    const state = (await (await fetch(`${upstream.origin}/__control/state`)).json()) as { restatements: unknown[] };
    expect(state.restatements).toEqual([]);
  });
});
