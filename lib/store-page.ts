import "server-only";
import { requirePageSession } from "@/lib/session/page-session";

type Params = Promise<{ storeUrl: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** What every store page starts with: its own session check, the store URL and the chosen organization. */
export async function storePageContext(params: Params, searchParams: SearchParams, section = "") {
  const { storeUrl } = await params;
  const { organizationId } = await searchParams;
  const decoded = decodeURIComponent(storeUrl);
  const selected = typeof organizationId === "string" && organizationId ? organizationId : undefined;
  const path = `/stores/${encodeURIComponent(decoded)}${section}${selected ? `?organizationId=${encodeURIComponent(selected)}` : ""}`;
  await requirePageSession(path);
  return { storeUrl: decoded, organizationId: selected };
}
