import { endSession } from "@/lib/handlers/sessions";

export const dynamic = "force-dynamic";
export const DELETE = endSession;
