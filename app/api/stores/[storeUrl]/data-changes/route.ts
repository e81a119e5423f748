import { dataChanges } from "@/server/routes/data-changes";

export const dynamic = "force-dynamic";
export { dataChanges as GET };
