import { removeRingKey } from "@/server/routes/key-ring";

export const dynamic = "force-dynamic";
export { removeRingKey as POST };
