import "server-only";
import { resolve } from "node:path";
import { settings } from "@/server/config/settings";
import { DatabaseUnavailable } from "@/server/db/database";
import { DataDirInUse, DataDirUnusable } from "@/server/db/data-dir-lock";
import { DatabaseAhead } from "@/server/db/migrate";

/** A PostgreSQL URL as it may be shown: its host, port, user and database, never its password. */
function describeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.username ? `${decodeURIComponent(url.username)}@` : ""}${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** Why PostgreSQL refused, from its SQLSTATE or the network error, in words. */
function postgresCause(error: unknown, target: string): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof AggregateError && error.errors.length > 0) return postgresCause(error.errors[0], target);
  switch (code) {
    case "ECONNREFUSED":
      return `nothing accepts connections at ${target} (connection refused)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host of ${target} cannot be found`;
    case "28P01":
    case "28000":
      return `the server refused the user or password (${message})`;
    case "3D000":
      return `the database does not exist (${message})`;
    case "42501":
      return `the user lacks a privilege the migrations need (${message}); see docs/operations.md, "Database"`;
  }
  if (/timeout/i.test(message)) return `no answer from ${target} in time`;
  return message;
}

/** One line saying why the database could not be opened at start: the setting, the place and the cause, never a password. */
export function describeOpenFailure(error: unknown): string {
  const { url, dataDir } = settings().database;
  if (error instanceof DataDirInUse || error instanceof DataDirUnusable || error instanceof DatabaseAhead) return error.message;
  const cause = error instanceof DatabaseUnavailable ? (error.cause ?? error) : error;
  if (url) return `DATABASE_URL (${describeUrl(url)}) cannot be used: ${postgresCause(cause, describeUrl(url))}.`;
  return `DATA_DIR ${resolve(/* turbopackIgnore: true */ dataDir)} cannot be used: ${cause instanceof Error ? cause.message : String(cause)}.`;
}
