import type { Metadata } from "next";
import { ProductsView } from "@/components/products/products-view";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Product metrics" };

export default async function ProductsPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/products");
  return <ProductsView storeUrl={storeUrl} organizationId={organizationId} />;
}
