import { decideDelivery } from "@/server/routes/delivery-decisions";

export const dynamic = "force-dynamic";
export { decideDelivery as POST };
