import type { Metadata } from "next";
import Link from "next/link";
import { safeNextPath } from "@/shared/safe-redirect";

export const metadata: Metadata = { title: "Temporarily unavailable" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Where pages go while the dashboard's database cannot be reached: nothing is lost, try again shortly. */
export default async function UnavailablePage({ searchParams }: { searchParams: SearchParams }) {
  const { next } = await searchParams;
  const back = safeNextPath(typeof next === "string" ? next : undefined);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold">The dashboard is temporarily unavailable</h1>
      <p className="text-slate-700 dark:text-slate-300">
        Its database cannot be reached right now, so it cannot check your session. Nothing was sent to the analytics service. The dashboard
        recovers by itself as soon as the database is back.
      </p>
      <Link href={back} className="self-start rounded-lg bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-700">
        Try again
      </Link>
    </main>
  );
}
