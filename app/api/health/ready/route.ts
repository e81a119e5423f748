import { readiness } from "@/server/routes/health";

export const dynamic = "force-dynamic";
export const GET = readiness;
