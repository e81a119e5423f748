import type { Metadata } from "next";
import { DataChanges } from "@/components/store/data-changes";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Data changes" };
export default storePage("/data-changes", DataChanges);
