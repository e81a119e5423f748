import { listRunsAndDeliveries } from "@/server/routes/runs";

export const dynamic = "force-dynamic";
export { listRunsAndDeliveries as GET };
