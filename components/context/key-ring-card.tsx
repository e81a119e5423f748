import { errorWords } from "@/shared/error-words";
import { errorCodeSchema } from "@/shared/schemas/error";
import { RING_LIMIT, type DemoKeyOption, type RingKeyView } from "@/shared/schemas/session";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Breakable } from "@/components/ui/breakable";

/** What the last add or removal said, read from the page's URL (codes and store URLs only, never a key). */
interface RingOutcome {
  added?: string;
  removed?: string;
  error?: string;
  requestId?: string;
}

function OutcomeNote({ outcome }: { outcome: RingOutcome }) {
  if (outcome.error) {
    const code = errorCodeSchema.safeParse(outcome.error);
    return (
      <div
        role="alert"
        className="mb-4 rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100"
      >
        <p>The key was not added. {code.success ? errorWords[code.data] : "The key could not be checked."}</p>
        {outcome.requestId && (
          <p className="mt-1 text-xs">
            Reference for support: <code className="font-mono">{outcome.requestId}</code>
          </p>
        )}
      </div>
    );
  }
  const text = outcome.added
    ? `Added ${outcome.added} to your key ring.`
    : outcome.removed
      ? `Removed ${outcome.removed} from your key ring: its pages are closed to this session.`
      : undefined;
  if (!text) return null;
  return (
    <p
      role="status"
      className="mb-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100"
    >
      {text}
    </p>
  );
}

/**
 * The key ring: the stores whose keys this session holds, each removable, and "Add a store".
 * Plain forms posted to the server, so they work before any script runs; the key goes in the
 * body of a POST, never in a URL.
 */
export function KeyRingCard({ keys, demoKeys, outcome }: { keys: RingKeyView[]; demoKeys: DemoKeyOption[]; outcome: RingOutcome }) {
  const full = keys.length >= RING_LIMIT;
  return (
    <Card title="Key ring">
      <OutcomeNote outcome={outcome} />
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Each store is read with its own key. This session holds {keys.length} of at most {RING_LIMIT} keys.
      </p>
      <ul className="mb-4 divide-y divide-slate-100 dark:divide-slate-800" aria-label="Keys of this session">
        {keys.map((key) => (
          <li key={key.label} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0 text-sm">
              {key.storeUrls.map((url) => (
                <Breakable key={url} className="font-medium" text={url} />
              ))}{" "}
              <Badge>{key.label}</Badge>
              {key.organization && <span className="text-slate-500 dark:text-slate-400"> · {key.organization.name}</span>}
            </span>
            {key.storeUrls[0] && (
              <form method="post" action="/api/session/keys/remove">
                <input type="hidden" name="storeUrl" value={key.storeUrls[0]} />
                <Button type="submit" variant="secondary" aria-label={`Remove ${key.storeUrls.join(", ")}`}>
                  {keys.length === 1 ? "Remove and sign out" : "Remove"}
                </Button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <form id="add-store-form" method="post" action="/api/session/keys" className="space-y-2">
        <label htmlFor="ring-api-key" className="block text-sm font-medium">
          Add a store: its API key
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id="ring-api-key"
            name="apiKey"
            type="password"
            autoComplete="off"
            spellCheck={false}
            disabled={full}
            className="block min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
          />
          <Button type="submit" disabled={full}>
            Add a store
          </Button>
        </div>
        {full && <p className="text-sm text-amber-800 dark:text-amber-300">{errorWords.ring_full}</p>}
      </form>
      {demoKeys.length > 0 && !full && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer">Add a demo key</summary>
          <ul className="mt-2 space-y-2">
            {demoKeys.map((demoKey) => (
              <li key={demoKey.id}>
                <Button type="submit" form="add-store-form" name="demoKeyId" value={demoKey.id} variant="secondary">
                  Add {demoKey.label}
                </Button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}
