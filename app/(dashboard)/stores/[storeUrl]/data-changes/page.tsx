import type { Metadata } from "next";
import { DataChanges } from "@/components/store/data-changes";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Data changes" };

export default async function DataChangesPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/data-changes");
  return <DataChanges storeUrl={storeUrl} organizationId={organizationId} />;
}
