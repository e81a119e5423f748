import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Store not found" };

/** A store outside the key's reach: one message, and the way back to the stores it does reach. */
export default function StoreNotFound() {
  return (
    <section className="mx-auto max-w-xl space-y-3 rounded-xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
      <h1 className="text-xl font-semibold">Store not found</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This store is not among the stores your API key can reach: it may belong to another organization, or the key was made for another
        store. Sign in with a key made for this store to see it.
      </p>
      <Link href="/context" className="inline-block text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
        See the stores this key reaches
      </Link>
    </section>
  );
}
