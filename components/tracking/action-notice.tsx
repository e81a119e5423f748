import Link from "next/link";
import { activityEntryHref } from "@/client/queries/activity";

export interface Notice {
  tone: "success" | "info" | "error";
  text: string;
  requestId?: string;
  /** The action's entry in the Activity list. */
  auditId?: string;
}

const tones: Record<Notice["tone"], string> = {
  success: "border-emerald-200 bg-emerald-50 text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100",
  info: "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100",
  error: "border-rose-200 bg-rose-50 text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100",
};

/** How an action ended, with the request id support needs; errors are announced at once. */
export function ActionNotice({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div
      role={notice.tone === "error" ? "alert" : "status"}
      className={`flex flex-wrap items-start justify-between gap-3 rounded-lg border p-4 text-sm ${tones[notice.tone]}`}
    >
      <div>
        <p>{notice.text}</p>
        {notice.requestId && (
          <p className="mt-1 text-xs">
            Reference for support:{" "}
            <code className="select-all font-mono" data-testid="request-id">
              {notice.requestId}
            </code>
          </p>
        )}
        {notice.auditId && (
          <p className="mt-1 text-xs">
            <Link href={activityEntryHref(notice.auditId)} className="font-medium underline">
              See it in Activity
            </Link>
          </p>
        )}
      </div>
      <button type="button" onClick={onDismiss} className="text-xs font-medium underline">
        Dismiss
      </button>
    </div>
  );
}
