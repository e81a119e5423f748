import type { Metadata } from "next";
import { DigestsView } from "@/components/digests/digests-view";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Digests" };
export default storePage("/digests", DigestsView);
