import { describe, expect, it } from "vitest";
import { ApiRequestError } from "@/client/queries/api-client";
import { attemptFor, endsAttempt, settledAttempt } from "./guarded-action";

const failure = (status: number, code?: string) => new ApiRequestError(status, "failed", code, "req_1");

describe("the life of an Idempotency-Key", () => {
  it("is minted for a new action and kept while the same action is retried", () => {
    const first = attemptFor(undefined, { pixelId: "px_1" });
    expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(attemptFor(first, { pixelId: "px_1" })).toBe(first);
    expect(attemptFor(first, { pixelId: "px_2" }).idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it("survives a try without an answer, and ends with a definitive one", () => {
    const first = attemptFor(undefined, "clone");
    for (const lost of [failure(0, "network"), failure(502), failure(503), failure(504), failure(409, "idempotency_in_progress")]) {
      const settled = settledAttempt(first, { ok: false, error: lost });
      expect(attemptFor(settled, "clone").idempotencyKey, String(lost.status)).toBe(first.idempotencyKey);
    }
    for (const definitive of [failure(400), failure(403), failure(404), failure(422), failure(500)]) {
      const settled = settledAttempt(first, { ok: false, error: definitive });
      expect(attemptFor(settled, "clone").idempotencyKey, String(definitive.status)).not.toBe(first.idempotencyKey);
    }
    expect(attemptFor(settledAttempt(first, { ok: true }), "clone").idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it("is new when asked for on purpose, even for the same action", () => {
    const first = attemptFor(undefined, "clone");
    expect(attemptFor(first, "clone", { fresh: true }).idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it("keeps an unknown outcome's key: the server, not the page, decides whether a retry may run", () => {
    expect(endsAttempt(failure(409, "outcome_unknown"))).toBe(false);
    expect(endsAttempt(new Error("not an answer"))).toBe(false);
  });
});
