import { listTargets, putTarget } from "@/server/routes/targets";

export const dynamic = "force-dynamic";
export { listTargets as GET, putTarget as PUT };
