import { z } from "zod";
import { givenNameSchema } from "./common";
import { parseViewState, toSearchParams } from "@/shared/metrics/view-state";

/**
 * A saved product-metrics view: a name and the page's URL query, per organization and store, checked by the page's parser on both sides.
 */
export const savedViewNameSchema = givenNameSchema("view", 80);

/** Names differing only in case (Unicode folding: "Straße"/"STRASSE") or composition are the same name. */
export function savedViewNameKey(name: string): string {
  return name.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}

const viewSearchSchema = z
  .string()
  .max(4000, "This view is too large to save.")
  .refine(
    (search) => parseViewState(new URLSearchParams(search)).problems.length === 0,
    "This view has settings the page does not understand.",
  )
  // Stored in the page's own canonical form, so the same view is always the same text.
  .transform((search) => toSearchParams(parseViewState(new URLSearchParams(search)).state).toString());

export const newSavedViewSchema = z.strictObject({ name: savedViewNameSchema, search: viewSearchSchema });
export const renameSavedViewSchema = z.strictObject({ name: savedViewNameSchema });

export const savedViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  search: z.string(),
  createdByEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedViewItem = z.infer<typeof savedViewSchema>;

export const savedViewListSchema = z.strictObject({ views: z.array(savedViewSchema) });
/** DELETE answers with the view and until when it can be restored. */
export const deletedSavedViewSchema = z.strictObject({ view: savedViewSchema, undoUntil: z.string() });

/** The URL query a stored view holds (the database keeps `{ search }`); empty when it holds none. */
export function storedViewSearch(view: unknown): string {
  return z.object({ search: z.string() }).safeParse(view).data?.search ?? "";
}
