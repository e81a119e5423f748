import "server-only";
import { randomUUID } from "node:crypto";
import type { AuditEntry } from "@/lib/schemas/activity";

export type NewAuditEntry = Omit<AuditEntry, "id" | "at">;

/**
 * The change history of guarded actions. The memory log serves one dashboard process and
 * is lost on restart; a deployment that must keep its history implements this interface
 * on a database.
 */
export interface AuditLog {
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** The organization's entries, newest first. */
  list(organizationId: string, limit: number): Promise<AuditEntry[]>;
}

export class MemoryAuditLog implements AuditLog {
  private readonly entries: AuditEntry[] = [];

  constructor(private readonly options: { maxEntries?: number; now?: () => number } = {}) {}

  async append(input: NewAuditEntry): Promise<AuditEntry> {
    const entry: AuditEntry = { id: `act_${randomUUID()}`, at: new Date((this.options.now ?? Date.now)()).toISOString(), ...input };
    this.entries.push(entry);
    // Bounded memory: past the limit the oldest entries go.
    const overflow = this.entries.length - (this.options.maxEntries ?? 10_000);
    if (overflow > 0) this.entries.splice(0, overflow);
    return entry;
  }

  async list(organizationId: string, limit: number): Promise<AuditEntry[]> {
    const found: AuditEntry[] = [];
    for (let index = this.entries.length - 1; index >= 0 && found.length < limit; index--) {
      const entry = this.entries[index]!;
      if (entry.organizationId === organizationId) found.push(entry);
    }
    return found;
  }
}

const processGlobal = globalThis as typeof globalThis & { __auditLog?: AuditLog };

/** One log per process, whatever the bundling splits into separate module instances. */
export function auditLog(): AuditLog {
  return (processGlobal.__auditLog ??= new MemoryAuditLog());
}

/**
 * Appends the entry and writes it as one JSON line, so the history also reaches the
 * server's log collector. Only the entry's named fields are written.
 */
export async function recordAction(input: NewAuditEntry): Promise<AuditEntry> {
  const entry = await auditLog().append(input);
  console.info(JSON.stringify({ time: entry.at, msg: "audit", ...entry }));
  return entry;
}
