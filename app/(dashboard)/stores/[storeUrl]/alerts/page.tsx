import type { Metadata } from "next";
import { AlertRules } from "@/components/alerts/alert-rules";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Alerts" };
export default storePage("/alerts", AlertRules);
