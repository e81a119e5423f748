import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailDocument, renderHtml } from "@/server/email/document";
import { ActionButton } from "@/server/routes/unsubscribe-page";
import { DigestEmail } from "./email";
import { digestSummary } from "@/shared/digest-summary";
import type { ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { alertEmailHtml } from "@/server/alerts/email";
import type { DigestContent } from "./compose";
import { renderDigest } from "./render";

const NOW = new Date("2026-11-27T09:00:00Z");
const totals = (revenue: number) => ({ revenue, orders: 10, units: 12, averageOrderValue: revenue / 10 }) as ProductMetricsView["totals"];

function content(viewName: string, search: string): DigestContent {
  return {
    storeUrl: "shop.example.com",
    viewName,
    search,
    timeZone: "America/Toronto",
    sentAt: NOW,
    metrics: {
      startDate: "2026-10-28",
      endDate: "2026-11-26",
      currency: "CAD",
      totals: totals(1200),
      comparison: { startDate: "2026-09-28", endDate: "2026-10-27", totals: totals(1000) },
    } as unknown as ProductMetricsView,
    notes: [{ startDate: "2026-11-01", endDate: "2026-11-01", text: "Sale <b>& more</b>", authorEmail: "a@example.com" }],
    pacing: null,
    summary: digestSummary(search, "America/Toronto", NOW),
    restated: { days: [], lastDigest: true, asOf: NOW },
  };
}

const links = {
  view: 'https://dash.example/stores/x/products?country=CA&a="b"',
  unsubscribe: "https://dash.example/api/unsubscribe/t",
  dataChanges: "https://dash.example/stores/shop.example.com/data-changes?organizationId=o&x=<1>",
};

describe("renderDigest", () => {
  it("states the view's filters, attribution, range in the store's zone and comparison, in the HTML and the text alike", () => {
    const search = "country=CA&source=first_touch";
    const message = renderDigest(content("Canada", search), links);
    const summary = digestSummary(search, "America/Toronto", NOW);
    expect(summary.filters).toContain("Country: Canada");
    expect(summary.filters).toContain("credit to the first touch");
    for (const part of [summary.filters, summary.range, summary.comparison]) {
      expect(message.text).toContain(part);
      expect(message.html).toContain(part);
    }
    expect(summary.range).toContain("(America/Toronto)");
    expect(message.html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(message.html).toMatch(/<th scope="row"[^>]*>Revenue<\/th>/);
  });

  it("says a filtered digest's pacing is the whole store's, naming the digest's filter", () => {
    const pacing = { monthToDate: 500, target: 1000, projected: 900, status: "behind" } as unknown as DigestContent["pacing"];
    const filtered = renderDigest({ ...content("Canada", "country=CA"), pacing }, links);
    expect(filtered.text).toContain("Pacing of the whole store (all orders, not only this digest's filter: Country: Canada (CA)");
    const whole = renderDigest({ ...content("All", ""), pacing }, links);
    expect(whole.text).toContain("Pacing of the whole store: ");
    expect(whole.text).toContain("Nov 1, 2026: Sale");
  });

  it("names each figure's column on the figure itself, so a phone shows the table as readable blocks", () => {
    const message = renderDigest(content("Canada", ""), links);
    expect(message.html).toContain('<table class="figures"');
    expect(message.html).toContain('data-label="Comparison"');
    expect(message.html).toContain("@media (max-width: 480px)");
    // The style sheet survives escaping whole: no entity stands where CSS needs a character.
    expect(message.html).not.toMatch(/<style>[^<]*&[a-z#0-9]+;[^<]*<\/style>/);
  });

  it("escapes every name, note and link once, through React", () => {
    const message = renderDigest(content(`<script>alert("x")</script> & co`, ""), links);
    expect(message.html).not.toContain("<script>");
    expect(message.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co");
    expect(message.html).toContain("Sale &lt;b&gt;&amp; more&lt;/b&gt;");
    expect(message.html).toContain('href="https://dash.example/stores/x/products?country=CA&amp;a=&quot;b&quot;"');
    expect(message.html).not.toContain("&amp;amp;");
  });

  it("names each day restated since the last digest, once, in the HTML and the text, with the Data changes link", () => {
    const withRestated: DigestContent = {
      ...content("Canada", ""),
      restated: {
        lastDigest: true,
        asOf: NOW,
        days: [
          {
            day: "2026-10-03",
            currency: "CAD",
            revenue: { before: 1203.1, after: 1323.5 },
            orders: { before: 40, after: 40 },
            mostly: "face<book>",
          },
          { day: "2026-10-05", currency: null, revenue: { before: 10, after: 10 }, orders: { before: 4, after: 6 }, mostly: null },
        ],
      },
    };
    const message = renderDigest(withRestated, links);
    const first = "Oct 3, 2026 was restated since the last digest: revenue +CA$120.40 (was CA$1,203.10), mostly face<book>";
    const second = "Oct 5, 2026 was restated since the last digest: orders +2 (was 4)";
    expect(message.text.split(first)).toHaveLength(2);
    expect(message.text).toContain(`Restated days:\n- ${first}\n- ${second}\nWhat changed: ${links.dataChanges}`);
    expect(message.html.split("Oct 3, 2026 was restated")).toHaveLength(2);
    expect(message.html).toContain(
      `<h2 style="font-size:16px">Restated days</h2><ul><li>${first.replace("<book>", "&lt;book&gt;")}</li><li>${second}</li></ul>`,
    );
    expect(message.html).toContain('href="https://dash.example/stores/shop.example.com/data-changes?organizationId=o&amp;x=&lt;1&gt;"');
  });

  it("says which send it counts from before the first, and says nothing of restatements when none are found", () => {
    const first = renderDigest(
      {
        ...content("Canada", ""),
        restated: {
          lastDigest: false,
          asOf: NOW,
          days: [
            { day: "2026-10-03", currency: "CAD", revenue: { before: 5, after: 4 }, orders: { before: 1, after: 1 }, mostly: "google" },
          ],
        },
      },
      links,
    );
    expect(first.text).toContain("Oct 3, 2026 was restated since this digest was scheduled: revenue −CA$1.00 (was CA$5.00), mostly google");
    const none = renderDigest(content("Canada", ""), links);
    expect(none.text).not.toContain("restated");
    expect(none.html).not.toContain("Restated");
    expect(none.html).not.toContain("data-changes");
  });
});

describe("alertEmailHtml", () => {
  it("renders the title, what moved, the rule's link and the unsubscribe link, escaped", () => {
    const html = alertEmailHtml({
      heading: "What moved",
      title: "Revenue < 80% of usual",
      lines: ["Channel a&b: −$40"],
      ruleLink: "https://d.example/r?a=1&b=2",
      unsubscribeLink: "https://d.example/api/unsubscribe/t?x=<1>",
    });
    expect(html).toContain('href="https://d.example/api/unsubscribe/t?x=&lt;1&gt;"');
    expect(html).toContain("Unsubscribe from this store&#x27;s alert e-mails");
    expect(html).toContain("<title>Revenue &lt; 80% of usual</title>");
    expect(html).toContain('<h2 style="font-size:15px">What moved</h2><ul><li>Channel a&amp;b: −$40</li></ul>');
    expect(html).toContain('href="https://d.example/r?a=1&amp;b=2"');
  });
});

describe("the e-mail renderer", () => {
  it("writes the markup react-dom/server's renderToStaticMarkup writes for the same components", () => {
    const summary = digestSummary("country=CA,US&channel=a<b", "America/Toronto", NOW);
    const documents = [
      createElement(DigestEmail, {
        subject: `Q4 "best" <view> & 'more'`,
        viewName: "Q4 <view>",
        storeUrl: "shop.example.com",
        summary,
        sent: "Nov 27, 2026, 4:00 AM (America/Toronto)",
        table: {
          caption: "Key figures",
          headings: ["Figure", "This period"],
          rows: [
            ["Revenue", "$1"],
            ["A <store>", "cannot be read"],
          ],
        },
        sections: [
          { heading: "Biggest changes", items: ["Channel a&b: +$3"] },
          { heading: "Notes", items: ["2026-11-01: <i>note</i>"] },
        ],
        restated: ["Oct 3, 2026 was restated since the last digest: revenue +$1.00 (was $2.00), mostly a<b"],
        pace: "Pacing: ok",
        links,
      }),
      createElement(
        EmailDocument,
        { title: "Unsubscribe", page: true },
        createElement(ActionButton, { label: "Unsubscribe", action: "unsubscribe" }),
      ),
      createElement(
        EmailDocument,
        { title: "Done" },
        createElement("p", null, `a'b@example.com will no longer receive the digest “<x>” nor other mail of s&t.example.`),
        createElement(ActionButton, { label: "Subscribe again", action: "subscribe" }),
      ),
    ];
    for (const document of documents) expect(renderHtml(document)).toBe(`<!doctype html>${renderToStaticMarkup(document)}`);
  });
});
