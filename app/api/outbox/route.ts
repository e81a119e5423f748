import { listOutbox } from "@/server/routes/runs";

export const dynamic = "force-dynamic";
export { listOutbox as GET };
