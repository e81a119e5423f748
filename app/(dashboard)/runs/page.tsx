import type { Metadata } from "next";
import { RunsView } from "@/components/runs/runs-view";
import { organizationPage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Runs and deliveries" };
export default organizationPage("/runs", RunsView);
