import { z } from "zod";

/** A store of the session's reach as the organization-wide pages name it: its name if known, else its URL. */
const reachStoreSchema = z.strictObject({ url: z.string(), name: z.string() });
export type ReachStoreItem = z.infer<typeof reachStoreSchema>;

/** The stores an organization-wide page covers (a filter is offered when there are several). */
export const reachStoresSchema = z.array(reachStoreSchema);

/** `?store=`: narrows an organization-wide page to one store of the reach. */
export const storeFilterSchema = z.strictObject({ store: z.string().trim().min(1).max(300).optional() });
