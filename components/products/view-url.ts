"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import type { ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { parseViewState, toSearchParams, type ViewState } from "@/shared/metrics/view-state";

export function useViewState() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const parsed = useMemo(() => parseViewState(new URLSearchParams(searchParams.toString())), [searchParams]);
  const { state, problems } = parsed;
  /**
   * Changes the view: the URL first, in the same moment, through the History API (Next.js
   * follows it in useSearchParams without asking the server), so reload, back and a copied
   * link always carry what is on screen; fetching follows the URL. A change is applied to the
   * state the URL holds when it is made, not to the last render's, so quick changes in a row
   * (a key held down, two ticks) each build on the one before. Any change but paging or
   * sorting goes back to the first page. Typing replaces history.
   */
  const update = (change: Partial<ViewState> | ((current: ViewState) => Partial<ViewState> | null), mode: "push" | "replace" = "push") => {
    const current = parseViewState(new URLSearchParams(window.location.search)).state;
    const patch = typeof change === "function" ? change(current) : change;
    if (!patch) return;
    const params = toSearchParams({ ...current, ...patch, page: patch.page ?? 1 });
    // The organization chosen on the context page belongs to the store, not to the view: keep it.
    const organizationId = new URLSearchParams(window.location.search).get("organizationId");
    if (organizationId) params.set("organizationId", organizationId);
    const query = params.toString();
    window.history[mode === "push" ? "pushState" : "replaceState"](null, "", `${pathname}${query ? `?${query}` : ""}`);
  };
  return { state, problems, update };
}

/** What the comparisons are called: a short prefix on the tiles, the words of the sentence and of the chart. */
export const comparisonWords = {
  previous: { prefix: "vs previous", against: "the previous period", label: "Previous period" },
  year: { prefix: "vs last year", against: "the same weekdays a year earlier", label: "A year earlier (same weekdays)" },
};

export function comparisonsOf(views: { mode: "previous" | "year"; view: ProductMetricsView | undefined }[]) {
  return views.flatMap(({ mode, view }) => (view?.comparison ? [{ mode, view, comparison: view.comparison }] : []));
}
