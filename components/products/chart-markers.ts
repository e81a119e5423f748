import type { Annotations } from "@/shared/schemas/annotation";
import { epochMsToZonedLocal } from "@/shared/time-zone";

/** A mark on the time chart: a guarded action on its store-local date (linked to Activity), or a note's first day. */
export interface ChartMarker {
  key: string;
  date: string;
  label: string;
  href?: string;
}

/** The store-local date of an instant. */
export const localDate = (at: string, zone: string) => epochMsToZonedLocal(Date.parse(at), zone).slice(0, 10);

export const activityHref = (id: string) => `/activity?entry=${encodeURIComponent(id)}`;

/** Markers of the range: actions on their store-local date, notes on their first day (or the range's). */
export function chartMarkers(
  annotations: Annotations | undefined,
  range: { startDate: string; endDate: string },
  zone: string,
): ChartMarker[] {
  if (!annotations) return [];
  const inRange = (date: string) => date >= range.startDate && date <= range.endDate;
  const actions = annotations.actions
    .map((action) => ({
      key: action.id,
      date: localDate(action.at, zone),
      label: action.action === "campaign-group.clone" ? "Clone" : "Removal",
      href: activityHref(action.id),
    }))
    .filter((marker) => inRange(marker.date));
  const notes = annotations.notes.map((note) => ({
    key: note.id,
    date: note.startDate < range.startDate ? range.startDate : note.startDate,
    label: "Note",
  }));
  return [...actions, ...notes];
}
