import type { Metadata } from "next";
import { VerifyExport } from "@/components/products/verify-export";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Verify an export" };
export default storePage("/verify", VerifyExport);
