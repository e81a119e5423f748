import { actionPermissions } from "@/server/routes/action-permissions";

export const dynamic = "force-dynamic";
export const GET = actionPermissions;
