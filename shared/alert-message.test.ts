import { describe, expect, it } from "vitest";
import { alertRuleInputSchema, type AlertMessageInput } from "@/shared/schemas/alert";
import { storeRule, UNDER_ONE } from "@/test/alert-rules";
import { alertBadge, alertTitle, baselineWords, slackBody, whatMovedLines } from "./alert-message";

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
    expect(title).toContain("product Alpine Shell Jacket fell to $120.00 on Nov 23, 2026");
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

const message = (ruleName: string): AlertMessageInput => ({
  kind: "alert_fired",
  ruleName,
  metric: "orders",
  target: { kind: "channel", channel: "a<b>&c" },
  period: "2026-11-23",
  value: 3,
  baseline: 40,
  currency: null,
  whatMoved: { net: -37, channels: [{ key: "<!here>", current: 3, baseline: 40, change: -37, share: 1 }], products: [] },
});

describe("text reaching Slack", () => {
  it("escapes <, > and &, so a name cannot mention everyone or hide a link", () => {
    const body = slackBody(message("<!channel> <https://evil.example|Click> & co"), "https://dash.example.com/stores/s/alerts/rule_1");
    const shown = [body.text, JSON.stringify(body.blocks)].join("\n");
    expect(shown).not.toContain("<!channel>");
    expect(shown).not.toContain("<!here>");
    expect(shown).not.toContain("<https://evil.example");
    expect(body.text).toContain("&lt;!channel&gt; &lt;https://evil.example|Click&gt; &amp; co");
    expect(body.text).toContain("channel a&lt;b&gt;&amp;c");
    expect(JSON.stringify(body.blocks)).toContain("&lt;!here&gt;");
    // Our own link stays a link; the figures for other receivers stay as given.
    expect(JSON.stringify(body.blocks)).toContain("<https://dash.example.com/stores/s/alerts/rule_1|Open the rule>");
    expect(body.alert.ruleName).toBe("<!channel> <https://evil.example|Click> & co");
  });
});

describe("rule names", () => {
  const rule = (name: string) => alertRuleInputSchema.safeParse(storeRule(name, UNDER_ONE, { metric: "orders" }));

  it.each([
    ["a line break", "Orders\nBcc: x", "A rule's name cannot hold control characters."],
    ["a carriage return", "Orders\rX", "A rule's name cannot hold control characters."],
    ["a right-to-left override", "Orders \u202egnp.exe", "A rule's name cannot hold direction overrides"],
    ["an isolate", "Orders \u2066x\u2069", "A rule's name cannot hold direction overrides"],
    ["nothing visible", " \u200b ", "A rule's name needs at least one visible character."],
  ])("refuses %s in words", (_label, name, words) => {
    const parsed = rule(name);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toContain(words);
  });

  it("keeps a name in any script, composed and trimmed", () => {
    expect(rule("  Umsatz gefallen — مبيعات  ").data?.name).toBe("Umsatz gefallen — مبيعات");
  });
});
