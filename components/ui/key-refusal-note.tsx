import { YourTime } from "@/components/ui/times";
import { plainServiceWords } from "@/shared/error-words";
import type { KeyRefusal } from "@/shared/schemas/session";

/**
 * Says up front that an action is unavailable to this key, and why: the contract lists no
 * permissions, so the page can only repeat what the analytics service answered, and when.
 */
export function KeyRefusalNote({
  refusal,
  what,
  id,
  noteRef,
}: {
  refusal: KeyRefusal;
  what: string;
  id?: string;
  /** Told when the note is shown (to take the focus when it appears as a dialog was about to open). */
  noteRef?: (node: HTMLDivElement | null) => void;
}) {
  return (
    <div
      ref={noteRef}
      id={id}
      role="note"
      tabIndex={-1}
      aria-label={`${what}: unavailable`}
      className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-semibold">
        {what} is unavailable with this API key: this key was refused {what.toLowerCase()} on <YourTime at={refusal.refusedAt} />.
      </p>
      <p className="mt-1">The analytics service answered: “{plainServiceWords(refusal.message)}”</p>
      <p className="mt-1 text-xs">
        The service does not list what a key may do, so this is what it answered last time. Sign in with a key that has this permission.
      </p>
    </div>
  );
}
