import type { MetricRow } from "./aggregate";

/** How an ID was seen in the store's metrics rows. */
type SeenAs = "campaign" | "ad";

/** The most the enrich endpoint resolves in one call (the dashboard's own request limit). */
export const ENRICH_LIMIT = 500;

/**
 * The LinkedIn campaign and ad IDs seen in metrics rows (`campaign_id` when a row carries it, an
 * additional property of the contract's rows; `ad_id` always), the most revenue first, each once.
 */
export class LinkedInIds {
  private readonly seen = new Map<string, { id: string; seenAs: SeenAs; revenue: number }>();

  add(row: MetricRow): void {
    if (row.channel !== "linkedin") return;
    const campaignId = (row as unknown as Record<string, unknown>).campaign_id;
    const ids: [unknown, SeenAs][] = [
      [campaignId, "campaign"],
      [row.ad_id, "ad"],
    ];
    for (const [id, seenAs] of ids) {
      if (typeof id !== "string" || !id.trim()) continue;
      const found = this.seen.get(id);
      if (found) found.revenue += row.revenue;
      else this.seen.set(id, { id, seenAs, revenue: row.revenue });
    }
  }

  result(): { id: string; seenAs: SeenAs }[] {
    return [...this.seen.values()]
      .sort((a, b) => b.revenue - a.revenue || a.id.localeCompare(b.id))
      .slice(0, ENRICH_LIMIT)
      .map(({ id, seenAs }) => ({ id, seenAs }));
  }
}
