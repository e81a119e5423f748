import { exportRoute } from "@/lib/metrics/routes";

export const dynamic = "force-dynamic";
export const GET = exportRoute;
