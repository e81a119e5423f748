import { describe, expect, it } from "vitest";
import type { AlertMessageInput } from "@/shared/schemas/alert";
import { alertRuleInputSchema } from "@/shared/schemas/alert";
import { slackBody } from "./alert-message";

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
  const rule = (name: string) =>
    alertRuleInputSchema.safeParse({
      name,
      metric: "orders",
      target: { kind: "store" },
      savedViewId: null,
      granularity: "day",
      condition: { kind: "threshold", operator: "below", threshold: 1 },
      emails: [],
      webhookUrl: null,
    });

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
