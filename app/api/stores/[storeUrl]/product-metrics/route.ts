import { productMetrics } from "@/lib/handlers/product-metrics";

export const dynamic = "force-dynamic";
export const GET = productMetrics;
