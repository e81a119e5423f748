import { z } from "zod";

export const userSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  image: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

const storeSummarySchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  type: z.string(),
  currency: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const organizationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: z.string(),
  role: z.string(),
  stores: z.array(storeSummarySchema),
});
export type Organization = z.infer<typeof organizationSchema>;

/** GET /context */
export const contextSchema = z.looseObject({
  user: userSchema,
  organizations: z.array(organizationSchema),
});
export type Context = z.infer<typeof contextSchema>;

export const contextQuerySchema = z.strictObject({
  organizationId: z.string().min(1).max(200).optional(),
});

/** GET /me: the user part of the context. */
export const meSchema = z.looseObject({ user: userSchema });

/** GET /organizations: the organizations without their stores. */
export const organizationsSchema = z.looseObject({
  organizations: z.array(organizationSchema.omit({ stores: true })),
});

/** GET /stores (needs x-service-organization-id). */
export const storesSchema = z.looseObject({ stores: z.array(storeSummarySchema) });
