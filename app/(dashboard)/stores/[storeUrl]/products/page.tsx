import type { Metadata } from "next";
import { ProductsView } from "@/components/products/products-view";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Product metrics" };
export default storePage("/products", ProductsView);
