import type { Db } from "@/server/db/database";
import { createGrant } from "@/server/grants/store";
import { createView } from "@/server/saved-views/repository";
import { unique } from "./databases";
import { ADMIN_KEY, US_STORE } from "./harness";

/** The demo's US store, in its organization. */
const US_SCOPE = { organizationId: "org_northwind", storeUrl: US_STORE };

/** A saved view of the US store under a fresh name starting with `name`. */
export async function createUsView(db: Db, name: string, search: string, createdByEmail: string) {
  return createView(db, { ...US_SCOPE, name: unique(name), view: { search }, createdByEmail }, new Date());
}

/** A 90-day grant of the US store through `apiKey`, under a fresh key fingerprint, as its owner consents now. */
export async function createUsGrant(db: Db, ownerEmail: string, apiKey = ADMIN_KEY) {
  return createGrant(db, { ...US_SCOPE, keyFingerprint: unique("fp"), ownerEmail, apiKey, ttlDays: 90 }, new Date());
}
