import type { Metadata } from "next";
import { AlertRulePage } from "@/components/alerts/alert-rule-page";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Alert rule" };

export default async function AlertRuleRoute(props: {
  params: Promise<{ storeUrl: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await props.params;
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, `/alerts/${encodeURIComponent(id)}`);
  return <AlertRulePage storeUrl={storeUrl} id={id} organizationId={organizationId} />;
}
