"use client";

import type { AlertRule } from "@/shared/schemas/alert";
import { formatMetric, periodWords } from "@/shared/alert-message";
import { Badge, Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";
import { StoreTime } from "@/components/ui/times";
import { ColumnHeadings } from "@/components/ui/column-headings";

/** A rule's name and state at the top of its page: firing or not, muted, snoozed. */
export function RuleHeading({ rule }: { rule: AlertRule }) {
  return (
    <header className="space-y-1">
      <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold break-words">
        <bdi>{rule.name}</bdi>
        {rule.state === "firing" ? <Badge tone="bad">Firing</Badge> : <Badge tone="good">OK</Badge>}
        {rule.muted && <Badge tone="neutral">Muted</Badge>}
        {rule.snoozed && <Badge tone="warn">Snoozed</Badge>}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="rule-state">
        {rule.state === "firing"
          ? "Firing now: its last complete period met the condition."
          : "Not firing: its last complete period did not meet the condition."}
      </p>
    </header>
  );
}

/** Every episode of the rule, newest first: when it fired, at what value against the usual, and when it stopped. */
export function RuleEpisodes({
  rule,
  storeUrl,
  currency,
  organizationId,
}: {
  rule: AlertRule;
  storeUrl: string;
  currency: string | null;
  organizationId?: string;
}) {
  const episodes = rule.episodes ?? [];
  return (
    <Card title="Episodes">
      {episodes.length === 0 ? (
        <EmptyState title="No episode yet">This rule has not fired since it was added.</EmptyState>
      ) : (
        <table className="cards-on-phone w-full text-left text-sm">
          <caption className="sr-only">Episodes of {rule.name}, newest first</caption>
          <thead className="text-xs tracking-wide text-slate-600 uppercase dark:text-slate-400">
            <ColumnHeadings headings={["Fired on", "Value", "Against", "Stopped on"]} />
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {episodes.map((episode) => (
              <tr key={episode.openedAt}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {periodWords(episode.openedPeriod)}
                  <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                    seen <StoreTime at={episode.openedAt} storeUrl={storeUrl} organizationId={organizationId} />
                  </span>
                </th>
                <td data-label="Value" className="py-2 pr-4 whitespace-nowrap tabular-nums">
                  {formatMetric(rule.metric, episode.value, currency)}
                </td>
                <td data-label="Against" className="py-2 pr-4 whitespace-nowrap tabular-nums">
                  {episode.baseline === null ? "—" : formatMetric(rule.metric, episode.baseline, currency)}
                </td>
                <td data-label="Stopped on" className="py-2 pr-4">
                  {episode.resolvedPeriod ? periodWords(episode.resolvedPeriod) : <Badge tone="bad">Still firing</Badge>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
