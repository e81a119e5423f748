"use client";

import Form from "next/form";
import Link from "next/link";
import { auditActions, auditOutcomes, type ActivityFilters } from "@/shared/schemas/activity";
import { Button } from "@/components/ui/button";
import { actionLabels, outcomeLabels } from "./activity-table";

const control =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950 dark:[color-scheme:dark]";
const label = "block text-sm font-medium";

/**
 * The filters as a GET form to /activity: applying them is a navigation, so they live in the
 * URL (reload and share keep them), and it works before any script runs. Empty fields are
 * left out of the URL.
 */
export function ActivityFiltersForm({ filters, stores }: { filters: ActivityFilters; stores: readonly string[] }) {
  return (
    <Form
      action="/activity"
      aria-label="Filter the activity"
      onSubmit={(event) => {
        // Only the filters that are set go into the URL.
        for (const element of event.currentTarget.elements) {
          if ((element instanceof HTMLInputElement || element instanceof HTMLSelectElement) && element.name && element.value === "") {
            element.disabled = true;
            setTimeout(() => (element.disabled = false));
          }
        }
      }}
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
    >
      <div>
        <label htmlFor="activity-action" className={label}>
          Action
        </label>
        <select id="activity-action" name="action" defaultValue={filters.action ?? ""} className={control}>
          <option value="">All actions</option>
          {auditActions.map((action) => (
            <option key={action} value={action}>
              {actionLabels[action]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="activity-outcome" className={label}>
          Outcome
        </label>
        <select id="activity-outcome" name="outcome" defaultValue={filters.outcome ?? ""} className={control}>
          <option value="">All outcomes</option>
          {auditOutcomes.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcomeLabels[outcome]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="activity-store" className={label}>
          Store
        </label>
        <input
          id="activity-store"
          name="store"
          list="activity-stores"
          defaultValue={filters.store ?? ""}
          placeholder="All stores"
          autoComplete="off"
          spellCheck={false}
          className={control}
        />
        <datalist id="activity-stores">
          {stores.map((store) => (
            <option key={store} value={store} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor="activity-person" className={label}>
          Person (email)
        </label>
        <input
          id="activity-person"
          name="person"
          type="email"
          defaultValue={filters.person ?? ""}
          placeholder="Everyone"
          autoComplete="off"
          className={control}
        />
      </div>
      <div>
        <label htmlFor="activity-from" className={label}>
          From (day in each store&apos;s zone)
        </label>
        <input id="activity-from" name="from" type="date" defaultValue={filters.from ?? ""} className={control} />
      </div>
      <div>
        <label htmlFor="activity-to" className={label}>
          To (day in each store&apos;s zone, included)
        </label>
        <input id="activity-to" name="to" type="date" defaultValue={filters.to ?? ""} className={control} />
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-3">
        <Button type="submit">Apply filters</Button>
        <Link href="/activity" className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Clear filters
        </Link>
      </div>
    </Form>
  );
}
