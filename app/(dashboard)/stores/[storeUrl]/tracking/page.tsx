import type { Metadata } from "next";
import { TrackingConnections } from "@/components/tracking/tracking-connections";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Tracking connections" };
export default storePage("/tracking", TrackingConnections);
