import { createSession } from "@/server/auth/sessions";
import type { Db } from "@/server/db/database";

/** A session of the key `keyFingerprint`, begun at `at`, for a user of no organization and a browser that said nothing of itself. */
export function bareSession(db: Db, keyFingerprint: string, at: Date) {
  return createSession(
    db,
    {
      keyFingerprint,
      userEmail: "a@example.com",
      userName: "A",
      organizationId: null,
      organizationName: null,
      userAgent: "",
      clientAddress: "",
    },
    at,
  );
}
