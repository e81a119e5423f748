import { sendDigestNow } from "@/server/routes/digests";

export const dynamic = "force-dynamic";
export { sendDigestNow as POST };
