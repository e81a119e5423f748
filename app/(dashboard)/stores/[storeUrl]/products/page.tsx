import type { Metadata } from "next";
import { ComingSoon } from "@/components/store/coming-soon";
import { storePageContext } from "@/lib/store-page";

export const metadata: Metadata = { title: "Product metrics" };

export default async function ProductsPage(props: { params: Promise<{ storeUrl: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await storePageContext(props.params, props.searchParams, "/products");
  return <ComingSoon title="Product metrics" description="Revenue, orders and units per product, by channel and ad, will show here." />;
}
