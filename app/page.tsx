import { redirect } from "next/navigation";
import { pageSessionSummary } from "@/server/auth/page-session";

/** The home: a user with one store opens on that store's numbers; with several, on the list of stores. */
export default async function HomePage() {
  const summary = await pageSessionSummary();
  if (!summary) redirect("/sign-in");
  const [only, ...others] = summary.stores;
  redirect(only && others.length === 0 ? `/stores/${encodeURIComponent(only.url)}` : "/context");
}
