"use client";

import { useRollupStatus } from "@/client/queries/rollups";
import { rollupWords } from "@/shared/rollup-words";

/**
 * How much of the store the day rollups keep, as one quiet line: the months held and when they
 * were read, or the warm-up's progress. Nothing while it loads, on an error, or with the rollups off.
 */
export function RollupLine({ storeUrl, organizationId, timeZone }: { storeUrl: string; organizationId?: string; timeZone: string }) {
  const status = useRollupStatus(storeUrl, organizationId);
  const words = status.data ? rollupWords(status.data, timeZone) : null;
  if (!words) return null;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400" role="status" data-testid="rollup-line">
      {words}
    </p>
  );
}
