import fc from "fast-check";
import type { z } from "zod";

/**
 * fast-check arbitraries built from the zod schemas, for property tests: values as odd as
 * the contract allows. Where it says string, any string (empty, 300 characters, right to
 * left, emoji, control characters, names like "__proto__"); where it says number, any finite
 * number (0, negative, 10^12); nulls where null is allowed; optional fields absent or not;
 * empty and large arrays.
 */

export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ minLength: 280, maxLength: 300 }),
  fc.constantFrom(
    "",
    " ",
    "שלום עולם — מוצר",
    "منتج عربي طويل",
    "🛒🔥 Emoji 👩🏽‍💻",
    "x".repeat(300),
    "__proto__",
    "constructor",
    "bucket",
    "Other",
    '=HYPERLINK("x")',
    "line\nbreak",
    "(GMT-05:00) Eastern Time (US & Canada)",
    "America/Atlantis_New",
    "USDT",
    "usd",
    "ACTIVE",
    "PENDING_REVIEW",
  ),
);

export const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.01, -49.99, 1e12, -1e12, 999_999_999_999.99),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
);

interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

export type Overrides = ReadonlyMap<z.ZodType, fc.Arbitrary<unknown>>;

/** An arbitrary of the schema's input; parse it with the schema to get the typed value. */
export function arbitraryOf(schema: z.ZodType, overrides: Overrides = new Map(), large = 300): fc.Arbitrary<unknown> {
  const override = overrides.get(schema);
  if (override) return override;
  const def = defOf(schema);
  const of = (inner: z.ZodType) => arbitraryOf(inner, overrides, large);
  switch (def.type) {
    case "string":
      if (def.checks?.length) throw new Error("a string with checks needs an override");
      return oddString;
    case "number":
      if (def.checks?.length) throw new Error("a number with checks needs an override");
      return oddNumber;
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "unknown":
    case "any":
      return fc.jsonValue({ maxDepth: 2 });
    case "literal":
      return fc.constantFrom(...(def.values ?? []));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case "optional":
      return fc.option(of(def.innerType!), { nil: undefined });
    case "nullable":
      return fc.option(of(def.innerType!), { nil: null });
    case "default":
      return of(def.innerType!);
    case "pipe":
      return of(def.in!);
    case "union":
      return fc.oneof(...def.options!.map(of));
    case "array": {
      const element = of(def.element!);
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 4, arbitrary: fc.array(element, { maxLength: 8 }) },
        { weight: 1, arbitrary: fc.array(element, { minLength: large, maxLength: large }) },
      );
    }
    case "record":
      return fc.dictionary(oddString, of(def.valueType!), { maxKeys: 4 });
    case "object": {
      const shape = def.shape ?? {};
      const model = Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, of(value)]));
      const requiredKeys = Object.keys(shape).filter((key) => defOf(shape[key]!).type !== "optional");
      const record = fc.record(model, { requiredKeys });
      // A loose object may carry properties the contract does not list.
      if (def.catchall && defOf(def.catchall).type !== "never") {
        return fc
          .tuple(record, fc.dictionary(oddString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }))
          .map(([known, extra]) => ({ ...Object.fromEntries(Object.entries(extra).filter(([key]) => !(key in shape))), ...known }));
      }
      return record;
    }
    default:
      throw new Error(`no arbitrary for zod type ${def.type}`);
  }
}

/** Calendar dates the contract writes YYYY-MM-DD, for the date fields of rows. */
export const isoDate: fc.Arbitrary<string> = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
