import type { BiggestChanges, ChangeRanking, RevenueChange } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatDate, formatPercent } from "@/shared/format";
import { Badge, Card } from "@/components/ui/card";

function ChangeItem({ item, currency, onSelect }: { item: RevenueChange; currency: string; onSelect: () => void }) {
  const up = item.change > 0;
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        data-testid="change-item"
        data-key={item.key}
        className="flex w-full flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 rounded-lg px-2 py-1.5 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <span className="flex min-w-0 flex-wrap items-center gap-2 font-medium">
          <span className="sr-only">Show only </span>
          <span className="break-words">{item.name ?? item.key}</span>
          {item.presence !== "both" && <Badge tone={item.presence === "new" ? "info" : "warn"}>{item.presence}</Badge>}
        </span>
        <span className="tabular-nums">
          <span className={`font-semibold ${up ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400"}`}>
            {formatCurrency(item.change, currency, true)}
          </span>{" "}
          <span className="text-slate-600 dark:text-slate-400">
            ({item.percent === null ? (item.presence === "new" ? "new" : "from nothing") : formatPercent(item.percent, 1, true)})
            {item.shareOfChange !== null && <> · {formatPercent(item.shareOfChange)} of the net change</>}
          </span>
        </span>
      </button>
    </li>
  );
}

function Ranking({
  title,
  ranking,
  currency,
  onSelect,
}: {
  title: string;
  ranking: ChangeRanking;
  currency: string;
  onSelect: (key: string) => void;
}) {
  const lists = [
    { label: "Rose most", items: ranking.risers, none: "Nothing rose." },
    { label: "Fell most", items: ranking.fallers, none: "Nothing fell." },
  ];
  return (
    <section aria-label={`${title}: biggest changes`} className="min-w-0">
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {lists.map((list) => (
          <div key={list.label} className="min-w-0">
            <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{list.label}</h4>
            {list.items.length === 0 ? (
              <p className="px-2 text-sm text-slate-600 dark:text-slate-400">{list.none}</p>
            ) : (
              <ul aria-label={`${title} that ${list.label.toLowerCase()}`}>
                {list.items.map((item) => (
                  <ChangeItem key={item.key} item={item} currency={currency} onSelect={() => onSelect(item.key)} />
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

/** Which products and channels moved revenue most against the comparison period; a click filters the page to one. */
export function BiggestChangesPanel({
  changes,
  comparison,
  currency,
  onProduct,
  onChannel,
}: {
  changes: BiggestChanges;
  comparison: { startDate: string; endDate: string };
  currency: string;
  onProduct: (productId: string) => void;
  onChannel: (channel: string) => void;
}) {
  const day = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");
  return (
    <Card title="Biggest changes">
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        Revenue against {day(comparison.startDate)} – {day(comparison.endDate)}: net change{" "}
        <span className="font-semibold tabular-nums" data-testid="net-change">
          {formatCurrency(changes.totalChange, currency, true)}
        </span>
        . Choose one to filter the page to it.
      </p>
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-2">
        <Ranking title="Products" ranking={changes.products} currency={currency} onSelect={onProduct} />
        <Ranking title="Channels" ranking={changes.channels} currency={currency} onSelect={onChannel} />
      </div>
    </Card>
  );
}
