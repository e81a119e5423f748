"use client";

import { useQuery } from "@tanstack/react-query";
import { storeProfileQueryOptions } from "@/client/queries/store";
import { formatDateTime, formatYourDateTime } from "@/shared/format";

/**
 * The two clocks of the dashboard, each named where it is shown. A store's event (an action,
 * a run, a message, an alert, an export, a data change) is in the store's zone; a person's own
 * event (a sign-in, a grant, a saved view) is in the reader's zone, said to be theirs.
 */

/** The store's time zone as it gives it; undefined while it loads (shown in UTC, named, meanwhile). */
export function useStoreTimeZone(storeUrl: string | undefined, organizationId?: string): string | undefined {
  const profile = useQuery({ ...storeProfileQueryOptions(storeUrl ?? "", organizationId), enabled: Boolean(storeUrl), retry: false });
  return profile.data?.timezone ?? undefined;
}

/** An instant of a store's event, in that store's zone, named. */
export function StoreTime({
  at,
  storeUrl,
  timeZone,
  organizationId,
}: {
  at: string;
  storeUrl?: string;
  timeZone?: string | null;
  organizationId?: string;
}) {
  const looked = useStoreTimeZone(timeZone === undefined ? storeUrl : undefined, organizationId);
  return <time dateTime={at}>{formatDateTime(at, timeZone ?? looked)}</time>;
}

/** An instant of the reader's own event, in their zone, named "your time". */
export function YourTime({ at }: { at: string }) {
  return <time dateTime={at}>{formatYourDateTime(at)}</time>;
}
