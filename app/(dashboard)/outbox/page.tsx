import type { Metadata } from "next";
import { OutboxView } from "@/components/runs/outbox-view";
import { organizationPage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Outbox" };
export default organizationPage("/outbox", OutboxView);
