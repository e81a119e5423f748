import { addRingKey } from "@/server/routes/key-ring";

export const dynamic = "force-dynamic";
export { addRingKey as POST };
