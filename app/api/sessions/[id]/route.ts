import { endSession } from "@/server/routes/sessions";

export const dynamic = "force-dynamic";
export const DELETE = endSession;
