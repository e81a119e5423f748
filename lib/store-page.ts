import "server-only";
import { requirePageSession } from "@/lib/session/page-session";

type Params = Promise<{ storeUrl: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * What every store page starts with: its own session check (returning to this very view,
 * query included, after sign-in), the store URL and the chosen organization.
 */
export async function storePageContext(params: Params, searchParams: SearchParams, section = "") {
  const { storeUrl } = await params;
  const query = await searchParams;
  const decoded = decodeURIComponent(storeUrl);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of [value ?? []].flat()) search.append(name, item);
  const suffix = search.size > 0 ? `?${search}` : "";
  await requirePageSession(`/stores/${encodeURIComponent(decoded)}${section}${suffix}`);
  const organizationId = typeof query.organizationId === "string" && query.organizationId ? query.organizationId : undefined;
  return { storeUrl: decoded, organizationId };
}
