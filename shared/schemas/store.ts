import { z } from "zod";

/** GET /store-data/{storeUrl} */
export const storeProfileSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  type: z.string(),
  currency: z.string(),
  timezone: z.string(),
  /** Not in the contract: shown beside the URL when the upstream sends it. */
  name: z.string().optional(),
});

/** GET /store-data/{storeUrl}/catalogs: the fields of a catalog connection are not in the contract. */
const catalogConnectionSchema = z.record(z.string(), z.unknown());
export const catalogConnectionsSchema = z.array(catalogConnectionSchema);
