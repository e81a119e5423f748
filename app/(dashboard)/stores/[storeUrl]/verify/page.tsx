import type { Metadata } from "next";
import { VerifyExport } from "@/components/products/verify-export";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Verify an export" };

export default async function VerifyPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/verify");
  return <VerifyExport storeUrl={storeUrl} organizationId={organizationId} />;
}
