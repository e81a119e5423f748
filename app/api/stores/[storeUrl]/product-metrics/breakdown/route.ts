import { breakdown } from "@/server/routes/product-metrics";

export const dynamic = "force-dynamic";
export const GET = breakdown;
