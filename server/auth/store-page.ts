import "server-only";
import { createElement, type ComponentType } from "react";
import { activePageSession, requirePageSession } from "./page-session";
import { ringReach } from "./ring";
import { newRequestId } from "@/server/http/responses";

type Params = Promise<{ storeUrl: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** What every store page starts with: its own session check (returning to this view after sign-in), the store URL and the organization. */
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

/** A store page whose whole content is one view given the store and organization. */
export function storePage(section: string, View: ComponentType<{ storeUrl: string; organizationId?: string }>) {
  return async function StorePage(props: { params: Params; searchParams: SearchParams }) {
    return createElement(View, await storePageContext(props.params, props.searchParams, section));
  };
}

/** A page across stores whose one view is given the chosen organization; sign-in returns to it. */
export function organizationPage(path: string, View: ComponentType<{ organizationId?: string }>) {
  return async function OrganizationPage(props: { searchParams: SearchParams }) {
    const { organizationId } = await props.searchParams;
    const organization = typeof organizationId === "string" && organizationId ? organizationId : undefined;
    await requirePageSession(organization ? `${path}?organizationId=${encodeURIComponent(organization)}` : path);
    return createElement(View, { organizationId: organization });
  };
}

/** Whether a key of the ring reaches this store (`false` makes the page a 404); undefined when that cannot be decided now. */
export async function storeWithinReach(storeUrl: string): Promise<boolean | undefined> {
  const session = await activePageSession();
  if (!session) return undefined;
  try {
    // The ring's reach: a store whose key was removed, or refused, is outside it at once.
    return (await ringReach(session, newRequestId())).keyOfStore(storeUrl) !== undefined;
  } catch {
    return undefined;
  }
}
