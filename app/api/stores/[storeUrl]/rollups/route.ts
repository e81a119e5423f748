import { rollups } from "@/server/routes/rollups";

export const dynamic = "force-dynamic";
export { rollups as GET };
