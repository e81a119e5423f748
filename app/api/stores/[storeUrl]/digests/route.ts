import { createDigest, listDigests } from "@/server/routes/digests";

export const dynamic = "force-dynamic";
export { listDigests as GET, createDigest as POST };
