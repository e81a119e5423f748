import { z } from "zod";
import { auditActions, auditOutcomes } from "./activity";
import { dashboardDateSchema } from "./common";
import { noteSchema } from "./note";

/** The dates a time chart shows: notes and actions are read for them. */
export const annotationsQuerySchema = z
  .strictObject({ startDate: dashboardDateSchema, endDate: dashboardDateSchema })
  .refine((query) => query.endDate >= query.startDate, { path: ["endDate"], message: "must not be before the start date" });

/** A guarded action as a chart marker: `at` is an instant, placed on the store-local date and linked to its Activity entry. */
const actionMarkerSchema = z.strictObject({
  id: z.string(),
  at: z.string(),
  action: z.enum(auditActions),
  outcome: z.enum(auditOutcomes),
  userEmail: z.string(),
  /** What it was aimed at, in words ("Clone of Spring Sale", "Removal of Meta Pixel"). */
  label: z.string(),
});
export type ActionMarker = z.infer<typeof actionMarkerSchema>;

export const annotationsSchema = z.strictObject({
  notes: z.array(noteSchema),
  actions: z.array(actionMarkerSchema),
  /** Who is reading: the page offers to change or delete the notes this user wrote. */
  viewerEmail: z.string(),
});
export type Annotations = z.infer<typeof annotationsSchema>;
