import { describe, expect, it } from "vitest";
import { anomalyRulesSchema } from "./anomalies";
import { DEMO_DROP_CHANNEL, DEMO_DROP_STORE, defaultDemoAnomalies } from "./demo-drop";

describe("the demo's default drop", () => {
  it("starts three days before today in the store's own zone, and is a valid anomaly rule", () => {
    // 20:00 UTC on 10 March is already 11 March in Sydney.
    const rules = defaultDemoAnomalies(new Date("2026-03-10T20:00:00Z"));
    expect(rules).toEqual([{ storeUrl: DEMO_DROP_STORE, channel: DEMO_DROP_CHANNEL, from: "2026-03-08" }]);
    expect(anomalyRulesSchema.parse(rules)).toEqual(rules);
  });
});
