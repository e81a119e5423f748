import { deleteDigest } from "@/server/routes/digests";

export const dynamic = "force-dynamic";
export { deleteDigest as DELETE };
