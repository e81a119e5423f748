import { changeDigest, deleteDigest } from "@/server/routes/digests";

export const dynamic = "force-dynamic";
export { changeDigest as PATCH, deleteDigest as DELETE };
