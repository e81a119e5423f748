import { z } from "zod";
import { keyRefusalSchema } from "./session";

/** GET /api/stores/{storeUrl}/action-permissions: the guarded actions the store's key is refused, learnt before any try. */
export const actionPermissionsSchema = z.strictObject({ refusals: z.array(keyRefusalSchema) });
export type ActionPermissions = z.infer<typeof actionPermissionsSchema>;
