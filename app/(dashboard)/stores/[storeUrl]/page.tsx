import type { Metadata } from "next";
import { StoreOverview } from "@/components/store/store-overview";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Store" };
export default storePage("", StoreOverview);
