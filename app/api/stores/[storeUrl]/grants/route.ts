import { grantStore, listStoreGrants } from "@/server/routes/grants";

export const dynamic = "force-dynamic";
export { listStoreGrants as GET, grantStore as POST };
