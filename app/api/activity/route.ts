import { activity } from "@/server/routes/activity";

export const dynamic = "force-dynamic";
export const GET = activity;
