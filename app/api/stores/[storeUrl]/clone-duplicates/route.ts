import { cloneDuplicates } from "@/server/routes/clone-attempts";

export const dynamic = "force-dynamic";
export const GET = cloneDuplicates;
