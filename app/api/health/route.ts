import { health } from "@/lib/handlers/health";

export const dynamic = "force-dynamic";
export const GET = health;
