import "server-only";
import { z } from "zod";

/** The kinds of value a setting holds, each failing with the setting's name and carrying its default and bounds in `.meta()` (docs). */

declare module "zod" {
  interface GlobalMeta {
    /** What the setting is when unset, as printed. */
    default?: string;
    /** What production asks of it. */
    production?: string;
    /** Masked by check-config. */
    secret?: boolean;
    min?: number;
    max?: number;
  }
}

/** A titled group of settings, as docs/configuration.md shows them. */
export const group = <S extends z.ZodRawShape>(title: string, intro: string, shape: S) => ({ title, intro, shape });

/** A whole number with no default: undefined when unset. */
export const optionalWholeNumber = (name: string, range: { min?: number; max?: number } = {}) => {
  const { min = 1, max = 2_147_483_647 } = range;
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined || raw.trim() === "") return undefined;
      const value = Number(raw);
      if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
        context.addIssue({ code: "custom", message: `${name} must be a whole number from ${min} to ${max}, got "${raw}".` });
        return z.NEVER;
      }
      return value;
    })
    .meta({ default: "none", min, max: range.max });
};

export const wholeNumber = (name: string, fallback: number, range: { min?: number; max?: number } = {}) =>
  optionalWholeNumber(name, range)
    .transform((value) => value ?? fallback)
    .meta({ default: `\`${fallback}\``, min: range.min ?? 1, max: range.max });

/** Secrets separated by commas, newest first, each at least `minLength` characters ("secret number 2 is 12 characters long"). */
export const secretList = (name: string, noun: string, minLength: number) =>
  z
    .string()
    .optional()
    .transform((raw, context) => {
      const secrets = (raw ?? "")
        .split(",")
        .map((secret) => secret.trim())
        .filter(Boolean);
      const short = secrets.findIndex((secret) => secret.length < minLength);
      if (short !== -1) {
        context.addIssue({
          code: "custom",
          message: `${name}: ${noun} number ${short + 1} is ${secrets[short]!.length} characters long; each must have at least ${minLength}.`,
        });
      }
      return secrets;
    })
    .meta({ secret: true });

/** A URL that may hold a password: checked for its protocol and host, never echoed in the message. */
export const urlWithCredentials = (protocol: RegExp, message: string) =>
  z
    .string()
    .optional()
    .transform((raw, context) => {
      if (!raw) return undefined;
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        // Reported below, without the value.
      }
      if (!url || !protocol.test(url.protocol) || !url.hostname) context.addIssue({ code: "custom", message });
      return raw;
    })
    .meta({ secret: true });

export const flag = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined || raw === "" || raw === "0") return false;
      if (raw === "1") return true;
      context.addIssue({ code: "custom", message: `${name} must be 1 or 0, got "${raw}".` });
      return z.NEVER;
    })
    .meta({ default: "off" });

/** 1, 0 or unset (undefined): for a setting whose default depends on others. */
export const onOff = (name: string) =>
  z
    .enum(["1", "0", ""], { message: `${name} must be 1, 0 or unset.` })
    .optional()
    .transform((raw) => (raw === "1" ? true : raw === "0" ? false : undefined));

export const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T, fallback: T[number]) =>
  z
    .string()
    .optional()
    .transform((raw, context): T[number] => {
      if (raw === undefined || raw === "") return fallback;
      if ((values as readonly string[]).includes(raw)) return raw as T[number];
      context.addIssue({ code: "custom", message: `${name} must be one of ${values.join(", ")}, got "${raw}".` });
      return z.NEVER;
    })
    .meta({ default: `\`${fallback}\`` });

/** A URL as it may be printed: its user, password and every query value masked (any may be a credential). */
export const maskedUrl = (raw: string) =>
  raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]*@/i, "$1***@").replace(/([?&][^=&#]*=)[^&#]*/g, "$1***");

export function httpUrl(name: string, raw: string, context: z.RefinementCtx): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    context.addIssue({ code: "custom", message: `${name} must be an http(s) URL, got "${maskedUrl(raw)}".` });
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    context.addIssue({ code: "custom", message: `${name} must be an http(s) URL, got "${maskedUrl(raw)}".` });
    return undefined;
  }
  return url;
}

/** A host name or address to listen on: letters, digits, dots, hyphens, colons (IPv6). */
export const host = (name: string, fallback: string) =>
  z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined || raw.trim() === "") return fallback;
      if (!/^[A-Za-z0-9.:-]{1,253}$/.test(raw.trim())) {
        context.addIssue({
          code: "custom",
          message: `${name} must be a host name or an address (0.0.0.0 for every interface), got "${raw}".`,
        });
        return z.NEVER;
      }
      return raw.trim();
    })
    .meta({ default: `\`${fallback}\`` });

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
