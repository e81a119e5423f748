import { describe, expect, it } from "vitest";
import type { AlertMessageInput } from "@/shared/schemas/alert";
import { alertBadge, alertTitle, baselineWords, whatMovedLines } from "./alert-message";

const fired: AlertMessageInput = {
  kind: "alert_fired",
  ruleName: "Jacket revenue",
  metric: "revenue",
  target: { kind: "product", productId: "7855730609953" },
  targetName: "Alpine Shell Jacket",
  period: "2026-11-23",
  value: 120,
  baseline: 980,
  currency: "USD",
  rule: { concern: "down", weeks: 6 },
  whatMoved: {
    net: -860,
    channels: [{ key: "facebook", current: 20, baseline: 700, change: -680, share: 0.79 }],
    products: [{ key: "7855730609953", name: "Alpine Shell Jacket", current: 120, baseline: 980, change: -860, share: 1 }],
  },
};

describe("alert messages in names", () => {
  it("names the product and says what the baseline is", () => {
    const title = alertTitle(fired);
    expect(title).toContain("product Alpine Shell Jacket fell to $120.00 on 2026-11-23");
    expect(title).toContain("against $980.00 (the median of the same weekday (Monday) over 6 weeks)");
    expect(title).not.toContain("7855730609953");
    expect(baselineWords({ ...fired, period: "2026-11-23 14:00" })).toBe(
      "the median of the same hour of the same weekday (Monday 14:00) over 6 weeks",
    );
    expect(baselineWords({ ...fired, rule: { concern: "down" } })).toBe("the rule's threshold");
  });

  it("lists what moved by name, the ID only when no name is known", () => {
    const lines = whatMovedLines(fired);
    expect(lines[0]).toMatch(/^Channel facebook: \$20\.00 against \$700\.00/);
    expect(lines[1]).toMatch(/^Product Alpine Shell Jacket: /);
    const unnamed = whatMovedLines({
      ...fired,
      whatMoved: { ...fired.whatMoved!, products: [{ ...fired.whatMoved!.products[0]!, name: undefined }] },
    });
    expect(unnamed[1]).toMatch(/^Product 7855730609953: /);
  });

  it("says Alert only for the move the rule watches for", () => {
    expect(alertBadge(fired)).toEqual({ label: "Alert", tone: "bad" });
    expect(alertBadge({ ...fired, value: 2000 })).toEqual({ label: "Rise, not a drop", tone: "info" });
    expect(alertBadge({ ...fired, rule: { concern: "up", weeks: 6 } })).toEqual({ label: "Drop, not a rise", tone: "info" });
    expect(alertBadge({ ...fired, rule: { concern: "both", weeks: 6 }, value: 2000 })).toEqual({ label: "Alert", tone: "bad" });
    expect(alertBadge({ ...fired, kind: "alert_resolved" })).toEqual({ label: "Resolved", tone: "good" });
    // A message written before rules said their concern stays an alert.
    expect(alertBadge({ ...fired, rule: undefined })).toEqual({ label: "Alert", tone: "bad" });
  });
});

it("keeps a change's sign joined to its amount, so a narrow screen never breaks a line between − and $", () => {
  const [channel] = whatMovedLines(fired);
  expect(channel).toContain("(\u2212\u2060$680.00, 79% of the change)");
});
