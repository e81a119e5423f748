import { productMetricsRoute } from "@/lib/metrics/routes";

export const dynamic = "force-dynamic";
export const GET = productMetricsRoute;
