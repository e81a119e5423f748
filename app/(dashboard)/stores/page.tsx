import type { Metadata } from "next";
import { PortfolioView } from "@/components/portfolio/portfolio-view";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "All stores" };

export default async function AllStoresPage(props: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(await props.searchParams)) if (typeof value === "string") search.set(name, value);
  const session = await requirePageSession(search.size > 0 ? `/stores?${search}` : "/stores");
  // Every store of the key ring, each shown as "reading" until its row arrives.
  const stores = [...new Set([...session.stores.map((store) => store.url), ...(session.keys ?? []).flatMap((key) => key.storeUrls)])];
  return <PortfolioView stores={stores} />;
}
