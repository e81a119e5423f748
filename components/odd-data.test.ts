import fc from "fast-check";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { QueryClientProvider } from "@tanstack/react-query";
import { activityQueryOptions } from "@/client/queries/activity";
import { makeQueryClient } from "@/client/queries/query-client";
import { storeKeys, storeProfileQueryOptions } from "@/client/queries/store";
import { trackingConnectionsQueryOptions } from "@/client/queries/tracking-connections";
import { activityResponseSchema, auditEntrySchema } from "@/shared/schemas/activity";
import { cloneCampaignResponseSchema, type CloneCampaignRequest } from "@/shared/schemas/campaign-clone";
import { organizationSchema, userSchema } from "@/shared/schemas/context";
import { productMetricsViewSchema } from "@/shared/schemas/product-metrics-view";
import { catalogConnectionsSchema, storeProfileSchema } from "@/shared/schemas/store";
import { trackingConnectionSchema } from "@/shared/schemas/tracking-connection";
import { productRows, tablePage } from "@/shared/metrics/presentation";
import { interpretTimeZone } from "@/shared/store-locale";
import { arbitraryOf, oddNumber, oddString } from "@/test/zod-arbitrary";
import { CloneResult } from "./campaigns/clone-result";
import { CloneReview } from "./campaigns/clone-review";
import { OrganizationCard } from "./context/organization-card";
import { UserCard } from "./context/user-card";
import { AttributionComparison } from "./products/attribution-comparison";
import ProductCharts from "./products/charts";
import { KpiCards } from "./products/kpi-cards";
import { ProductTable } from "./products/product-table";
import { ActivityList } from "./activity/activity-list";
import { StoreOverview } from "./store/store-overview";
import { ConnectionDetails } from "./tracking/connection-details";
import { TrackingConnections } from "./tracking/tracking-connections";
import { PanelBoundary } from "./ui/panel-boundary";

/**
 * The panels drawn (on the server renderer) from contract-valid data as odd as it gets:
 * none may throw, and what they draw names every value it was given.
 */

/** Audit statuses are whole numbers, the one checked number of these schemas. */
const overrides = new Map([[auditEntrySchema.shape.status, fc.integer({ min: 100, max: 599 })]]);
const parsed = <T>(schema: { parse: (value: unknown) => T }, large?: number) =>
  arbitraryOf(schema as never, overrides, large).map((value) => schema.parse(value));
/** The markup without the break points that addresses and IDs carry (`<wbr>`), so values read whole. */
const draw = (element: ReactElement) => renderToStaticMarkup(element).replace(/<wbr\/>/g, "");
const noop = () => {};
/** How React writes text into HTML. */
const escaped = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

describe("product-metrics panels", () => {
  it("draw any view in any currency and zone", () => {
    fc.assert(
      fc.property(parsed(productMetricsViewSchema, 40), fc.option(oddString, { nil: null }), oddString, (view, currency, zone) => {
        const money = currency ?? "";
        const range = { startDate: view.startDate, endDate: view.endDate };
        const comparisons = view.comparison
          ? [{ prefix: "vs previous", against: "the previous period", totals: view.comparison.totals }]
          : [];
        draw(createElement(KpiCards, { totals: view.totals, series: view.series, range, comparisons, currency: money }));
        const table = draw(
          createElement(ProductTable, {
            storeUrl: "odd.example",
            view,
            filters: { startDate: "2026-01-01", endDate: "2026-01-31" },
            currency: money,
            table: { q: "", sort: "revenue", direction: "desc", page: 1 },
            onTableChange: noop,
          }),
        );
        const shown = tablePage(productRows(view.products, view.totals.revenue), {
          q: "",
          sort: "revenue",
          direction: "desc",
          page: 1,
          pageSize: 25,
        });
        for (const row of shown.rows) expect(table).toContain(escaped(row.productId));
        const charts = draw(
          createElement(ProductCharts, {
            view,
            currency: money,
            timeZone: zone,
            granularity: "week",
            onGranularityChange: noop,
            comparisons: view.comparison ? [{ key: "previous", label: "Previous period", series: view.comparison.series }] : [],
            partialBucket: view.endDate,
            markers: [{ key: "m", date: view.startDate, label: "Clone", href: "/activity?entry=x" }],
            targets: new Map([[view.startDate.slice(0, 7), 3000]]),
          }),
        );
        // Channels unknown or odd are listed, never dropped.
        expect(charts.match(/<li>/g)?.length ?? 0).toBe(view.channels.length);
        draw(createElement(AttributionComparison, { conversion: view.channels, firstTouch: view.channels.slice(1), currency: money }));
      }),
      { numRuns: 25 },
    );
  });
});

describe("clone panels", () => {
  it("review any request in any zone, and show any result", () => {
    fc.assert(
      fc.property(
        oddString,
        oddString,
        fc.option(oddNumber, { nil: undefined }),
        parsed(cloneCampaignResponseSchema),
        (zone, name, budget, response) => {
          const request: CloneCampaignRequest = {
            adAccountId: "512345678",
            payload: {
              sourceCampaignGroupId: "612345678",
              name,
              status: "PAUSED",
              startTime: 1_767_225_600_000,
              budget,
              currencyCode: "USD",
            },
          };
          const reading = interpretTimeZone(zone);
          const review = draw(createElement(CloneReview, { request, zone: reading, pending: false, onBack: noop, onConfirm: noop }));
          if (reading.fallbackNote) expect(review).toContain(escaped(reading.fallbackNote));
          const result = draw(createElement(CloneResult, { response, currency: zone, replayed: false, onCloneAnother: noop }));
          expect(result).toContain(escaped(response.asset.assetId));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("context and tracking panels", () => {
  it("draw any user, organization and tracking connection", () => {
    fc.assert(
      fc.property(
        parsed(userSchema),
        parsed(organizationSchema, 40),
        parsed(trackingConnectionSchema),
        (user, organization, connection) => {
          draw(createElement(UserCard, { user }));
          // Each store's week is read in the browser: here the rows only say it is on its way.
          const card = draw(
            createElement(QueryClientProvider, { client: makeQueryClient() }, createElement(OrganizationCard, { organization })),
          );
          if (organization.stores.length === 0) expect(card).toContain("No stores");
          draw(createElement(ConnectionDetails, { connection, onClose: noop }));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("pages that read their data through queries", () => {
  /** The page drawn with its answers already in the cache, as after they arrived. */
  function drawWithData(element: ReactElement, answers: Array<[readonly unknown[], unknown]>) {
    const client = makeQueryClient();
    for (const [key, data] of answers) client.setQueryData(key, data);
    return draw(createElement(QueryClientProvider, { client }, element));
  }

  it("draw any tracking connections, catalogs and activity in any zone, dates no calendar holds included", () => {
    const connections = parsed(trackingConnectionSchema).map((connection) => [
      connection,
      { ...connection, id: `${connection.id}-far`, createdAt: 1e20 },
    ]);
    fc.assert(
      fc.property(
        parsed(storeProfileSchema),
        connections,
        parsed(catalogConnectionsSchema, 20),
        parsed(activityResponseSchema, 20),
        (profile, pixels, catalogs, activity) => {
          const storeUrl = "odd.example";
          const profileAnswer: [readonly unknown[], unknown] = [storeProfileQueryOptions(storeUrl).queryKey, profile];
          const tracking = drawWithData(createElement(TrackingConnections, { storeUrl }), [
            profileAnswer,
            [trackingConnectionsQueryOptions(storeUrl).queryKey, { storeUrl, pixels }],
          ]);
          expect(tracking).toContain(String(1e20));
          const note = interpretTimeZone(profile.timezone).fallbackNote;
          if (note) expect(tracking).toContain(escaped(note));
          drawWithData(createElement(StoreOverview, { storeUrl }), [profileAnswer, [storeKeys.catalogs(storeUrl), catalogs]]);
          const history = drawWithData(createElement(ActivityList, { filters: {} }), [
            [activityQueryOptions({}).queryKey, { pages: [activity], pageParams: [undefined] }],
          ]);
          for (const entry of activity.entries) expect(history).toContain(escaped(entry.userEmail));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("PanelBoundary", () => {
  it("says which panel could not be drawn, why, and the request id", () => {
    const boundary = new PanelBoundary({ name: "The charts", requestId: "req_123", children: null });
    boundary.state = { ...boundary.state, ...PanelBoundary.getDerivedStateFromError(new RangeError("Invalid time zone specified")) };
    const html = draw(boundary.render() as ReactElement);
    expect(html).toContain("The charts could not be drawn");
    expect(html).toContain("Invalid time zone specified");
    expect(html).toContain("req_123");
    expect(
      PanelBoundary.getDerivedStateFromProps({ name: "x", resetKey: 2, children: null }, { error: new Error("e"), resetKey: 1 }),
    ).toEqual({
      error: null,
      resetKey: 2,
    });
  });
});
