import type { Metadata } from "next";
import { AlertRules } from "@/components/alerts/alert-rules";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/alerts");
  return <AlertRules storeUrl={storeUrl} organizationId={organizationId} />;
}
