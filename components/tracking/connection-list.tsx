import type { ReactNode } from "react";
import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { yesNo } from "./flags";
import { Breakable } from "@/components/ui/breakable";

type When = (value: number) => ReactNode;

/** The fields every view of a connection shows, in one order: the table's columns and the cards' lines. */
const fields: { label: string; className: string; value: (connection: TrackingConnection, when: When) => ReactNode }[] = [
  { label: "Channel", className: "break-words", value: (c) => c.channel },
  { label: "Pixel ID", className: "font-mono text-xs", value: (c) => <Breakable text={c.pixel} /> },
  { label: "Enabled", className: "", value: (c) => yesNo(c.enabled) },
  { label: "Published", className: "", value: (c) => yesNo(c.published) },
  { label: "Unpublished changes", className: "", value: (c) => yesNo(c.hasUnpublishedChanges, true) },
  { label: "Base domain", className: "", value: (c) => <Breakable text={c.settings.baseDomain} /> },
  { label: "Created", className: "", value: (c, when) => when(c.createdAt) },
  { label: "Updated", className: "", value: (c, when) => when(c.updatedAt) },
];
/** Table cells only: wide enough that IDs and dates do not wrap to one character per line. */
const tableMinWidth: Record<string, string> = { "Pixel ID": "min-w-32", Created: "min-w-24", Updated: "min-w-24" };

const rowAction = "rounded-lg px-2 py-1 text-sm font-medium transition-colors";

function Actions({
  connection,
  selected,
  onDetails,
  onRemove,
  removeRefusedBy,
  removeBlocked,
}: ListProps & { connection: TrackingConnection; selected: boolean }) {
  return (
    <div className="flex">
      <button
        type="button"
        aria-label={`Details of ${connection.name}`}
        aria-expanded={selected}
        aria-controls={selected ? "connection-details" : undefined}
        onClick={() => onDetails(connection)}
        className={`${rowAction} text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800`}
      >
        Details
      </button>
      <button
        type="button"
        aria-label={`Remove ${connection.name}`}
        onClick={() => onRemove(connection)}
        disabled={removeBlocked || removeRefusedBy !== undefined}
        aria-describedby={removeRefusedBy}
        className={`${rowAction} text-rose-700 hover:bg-rose-50 disabled:cursor-not-allowed disabled:text-slate-500 disabled:hover:bg-transparent dark:text-rose-400 dark:hover:bg-rose-950/50 dark:disabled:text-slate-400`}
      >
        Remove
      </button>
    </div>
  );
}

interface ListProps {
  storeUrl: string;
  connections: TrackingConnection[];
  selectedId?: string;
  when: When;
  onDetails: (connection: TrackingConnection) => void;
  onRemove: (connection: TrackingConnection) => void;
  /** Set when this key was refused removals: the id of the note that says why, and the buttons are disabled. */
  removeRefusedBy?: string;
  /** Whether this key may remove is not known yet: nobody is asked to type a name for a removal that may be refused. */
  removeBlocked?: boolean;
}

/** A table from 640 px up; below, one card per connection with every field and both actions. */
export function ConnectionList(props: ListProps) {
  const { storeUrl, connections, selectedId, when } = props;
  const highlight = (connection: TrackingConnection) => (connection.id === selectedId ? "bg-indigo-50 dark:bg-indigo-950/40" : "");
  return (
    <>
      {/* relative: the hidden "Actions" heading is positioned inside the scroll box, not beside it. */}
      <div className="relative hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Tracking connections of {storeUrl}</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">
            <tr>
              {["Name", ...fields.map((field) => field.label)].map((heading) => (
                <th key={heading} scope="col" className="py-2 pr-3 align-bottom">
                  {heading}
                </th>
              ))}
              <th scope="col" className="py-2 align-bottom">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {connections.map((connection) => (
              <tr key={connection.id} className={highlight(connection)}>
                <th scope="row" className="min-w-40 py-2 pr-3 font-medium">
                  {connection.name}
                </th>
                {fields.map((field) => (
                  <td key={field.label} className={`py-2 pr-3 ${field.className} ${tableMinWidth[field.label] ?? ""}`}>
                    {field.value(connection, when)}
                  </td>
                ))}
                <td className="py-2">
                  <Actions {...props} connection={connection} selected={connection.id === selectedId} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 sm:hidden" aria-label={`Tracking connections of ${storeUrl}`}>
        {connections.map((connection) => (
          <li
            key={connection.id}
            data-testid="connection-card"
            className={`rounded-lg border border-slate-200 p-3 dark:border-slate-800 ${highlight(connection)}`}
          >
            <h3 className="font-medium">{connection.name}</h3>
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              {fields.map((field) => (
                <div key={field.label} className="contents">
                  <dt className="text-slate-600 dark:text-slate-400">{field.label}</dt>
                  <dd className={`min-w-0 ${field.className}`}>{field.value(connection, when)}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-2 flex justify-end">
              <Actions {...props} connection={connection} selected={connection.id === selectedId} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
