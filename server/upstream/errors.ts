import type { ErrorCode } from "@/shared/schemas/error";

/** Which of the contract's 401 reasons an upstream message names. */
export function unauthorizedCode(message: string): Extract<ErrorCode, "key_expired" | "key_revoked" | "key_invalid"> {
  if (/expired/i.test(message)) return "key_expired";
  if (/revoked/i.test(message)) return "key_revoked";
  return "key_invalid";
}

/** A 403 caused by an old key without store scope (contract part 5.5) rather than a missing permission. */
export function forbiddenCode(message: string): Extract<ErrorCode, "key_unscoped" | "forbidden"> {
  return /scope/i.test(message) && /(legacy|older|replace|without|no store)/i.test(message) ? "key_unscoped" : "forbidden";
}
