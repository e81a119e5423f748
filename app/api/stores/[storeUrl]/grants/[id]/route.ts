import { revokeStoreGrant } from "@/server/routes/grants";

export const dynamic = "force-dynamic";
export { revokeStoreGrant as DELETE };
