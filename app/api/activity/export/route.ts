import { activityExport } from "@/lib/handlers/activity";

export const dynamic = "force-dynamic";
export const GET = activityExport;
