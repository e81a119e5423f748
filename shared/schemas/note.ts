import { z } from "zod";
import { dashboardDateSchema, DIRECTION_CHARACTERS, LINE_BREAKING } from "./common";

/** A note on a store's charts: a store-local date or range and a short text, shared in the organization, with its author. */
const noteTextSchema = z
  .string()
  .transform((value) => value.normalize("NFC").trim())
  .pipe(
    z
      .string()
      .min(1, "Write the note.")
      .max(280, "A note has at most 280 characters.")
      .refine(
        (value) => !LINE_BREAKING.test(value) && !DIRECTION_CHARACTERS.test(value),
        "A note cannot hold control characters, line separators or direction characters.",
      ),
  );

export const newNoteSchema = z
  .strictObject({ startDate: dashboardDateSchema, endDate: dashboardDateSchema, text: noteTextSchema })
  .refine((note) => note.endDate >= note.startDate, { path: ["endDate"], message: "must not be before the start date" });
export type NewNote = z.infer<typeof newNoteSchema>;

export const noteSchema = z.strictObject({
  id: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  text: z.string(),
  authorEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof noteSchema>;
