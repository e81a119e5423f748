import { describe, expect, it } from "vitest";
import { auditEntrySchema } from "@/lib/schemas/activity";
import { MemoryAuditLog, type NewAuditEntry } from "./audit";

const entry = (organizationId: string | null, storeUrl: string): NewAuditEntry => ({
  userEmail: "maya@example.com",
  organizationId,
  storeUrl,
  action: "tracking-connection.remove",
  targetIds: ["px_1"],
  resultIds: [],
  outcome: "succeeded",
  status: 200,
  upstreamRequestId: "req_1",
});

describe("MemoryAuditLog", () => {
  it("lists one organization's entries, newest first, up to the limit", async () => {
    let now = Date.parse("2026-03-01T10:00:00Z");
    const log = new MemoryAuditLog({ now: () => (now += 1_000) });
    await log.append(entry("org_a", "first"));
    await log.append(entry("org_b", "other"));
    await log.append(entry("org_a", "second"));
    await log.append(entry(null, "nobody"));
    const listed = await log.list("org_a", 10);
    expect(listed.map((item) => item.storeUrl)).toEqual(["second", "first"]);
    expect(listed[0]!.at).toBe("2026-03-01T10:00:03.000Z");
    expect((await log.list("org_a", 1)).map((item) => item.storeUrl)).toEqual(["second"]);
    for (const item of listed) expect(auditEntrySchema.parse(item)).toEqual(item);
  });

  it("drops the oldest entries past its size limit", async () => {
    const log = new MemoryAuditLog({ maxEntries: 2 });
    for (const storeUrl of ["a", "b", "c"]) await log.append(entry("org", storeUrl));
    expect((await log.list("org", 10)).map((item) => item.storeUrl)).toEqual(["c", "b"]);
  });
});
