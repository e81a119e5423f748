import { z } from "zod";

/** A calendar date as the contract writes it: YYYY-MM-DD, and a real day (no 2026-02-30). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, "is not a real calendar date");

/** The span of dates the dashboard works with (the contract sets none; PostgreSQL and the pages need one). */
export const EARLIEST_DATE = "1970-01-01";
export const LATEST_DATE = "2100-12-31";

/** A calendar date within the dashboard's span: anything else is a 400 naming the parameter, before any database. */
export const dashboardDateSchema = isoDateSchema.refine(
  (value) => value >= EARLIEST_DATE && value <= LATEST_DATE,
  `must be between ${EARLIEST_DATE} and ${LATEST_DATE}`,
);

/** A comma-separated list in a query string ("US,DE"); every item must be non-empty. */
export const commaListSchema = z
  .string()
  .max(4000, "is too long")
  .refine((value) => value.split(",").every((item) => item.trim().length > 0), "must be a comma-separated list without empty items");

/** A short free-text identifier (channel name, ad ID, organization ID). */
export const identifierSchema = z
  .string()
  .min(1, "must not be empty")
  .max(200, "is too long")
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain control characters");

export function splitCommaList(value: string | undefined): string[] {
  return value ? value.split(",").map((item) => item.trim()) : [];
}

/** Control characters (line breaks included) and the Unicode line and paragraph separators: they break a line of a message. */
export const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The marks, embeddings, overrides and isolates of direction: they make text read differently from what it is. */
export const DIRECTION_CHARACTERS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A name people give: NFC, trimmed, no control, separator or direction characters. `noun` says whose name it is. */
export function givenNameSchema(noun: string, max: number) {
  return z
    .string()
    .transform((value) => value.normalize("NFC").trim())
    .pipe(
      z
        .string()
        .min(1, `Give the ${noun} a name.`)
        .max(max, `A ${noun}'s name has at most ${max} characters.`)
        .refine((value) => !LINE_BREAKING.test(value), `A ${noun}'s name cannot hold control characters. It is one line of text.`)
        .refine(
          (value) => !DIRECTION_CHARACTERS.test(value),
          `A ${noun}'s name cannot hold direction overrides: they make a name read differently from what it is.`,
        )
        .refine((value) => /[^\p{Cf}\p{Z}\s]/u.test(value), `A ${noun}'s name needs at least one visible character.`),
    );
}
