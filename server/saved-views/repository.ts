import "server-only";
import { randomUUID } from "node:crypto";
import { savedViewNameKey } from "@/shared/schemas/saved-view";
import type { Db } from "@/server/db/database";

/**
 * Named product-metrics views of an organization, per store; names unique (case folded, `savedViewNameKey`) among views not deleted. Every
 * statement names organization and store; a deletion can be undone for a few seconds.
 */
export interface SavedView {
  id: string;
  organizationId: string;
  storeUrl: string;
  name: string;
  /** The view's settings as the page keeps them; validated by the caller's schema. */
  view: unknown;
  createdByEmail: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export const UNDO_WINDOW_MS = 10_000;

/** Another view of the store already has this name. */
export class SavedViewNameTaken extends Error {
  readonly status = 409;
  readonly code = "view_name_taken";
  constructor(readonly viewName: string) {
    super(`A view named "${viewName}" already exists for this store.`);
  }
}

const COLUMNS = `id, organization_id as "organizationId", store_url as "storeUrl", name, view, created_by_email as "createdByEmail",
  created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletedAt"`;

const UNIQUE_VIOLATION = "23505";

async function uniqueName<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw new SavedViewNameTaken(name);
    throw error;
  }
}

export function createView(
  db: Db,
  input: { organizationId: string; storeUrl: string; name: string; view: unknown; createdByEmail: string },
  now: Date,
): Promise<SavedView> {
  return uniqueName(input.name, async () => {
    const [row] = await db.query<SavedView>(
      `insert into saved_views (id, organization_id, store_url, name, name_key, view, created_by_email, created_at, updated_at)
       values ($1, $2, $3, $4, $5, ($6::text)::jsonb, $7, $8, $8) returning ${COLUMNS}`,
      [
        `view_${randomUUID()}`,
        input.organizationId,
        input.storeUrl,
        input.name,
        savedViewNameKey(input.name),
        JSON.stringify(input.view),
        input.createdByEmail,
        now,
      ],
    );
    return row!;
  });
}

/** The store's views, by name. */
export function listViews(db: Db, organizationId: string, storeUrl: string): Promise<SavedView[]> {
  return db.query<SavedView>(
    `select ${COLUMNS} from saved_views where organization_id = $1 and store_url = $2 and deleted_at is null order by name_key, id`,
    [organizationId, storeUrl],
  );
}

/** One view of the store, not deleted; null otherwise. */
export async function findView(db: Db, organizationId: string, storeUrl: string, id: string): Promise<SavedView | null> {
  const [row] = await db.query<SavedView>(
    `select ${COLUMNS} from saved_views where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null`,
    [organizationId, storeUrl, id],
  );
  return row ?? null;
}

export function renameView(
  db: Db,
  organizationId: string,
  storeUrl: string,
  id: string,
  name: string,
  now: Date,
): Promise<SavedView | null> {
  return uniqueName(name, async () => {
    const [row] = await db.query<SavedView>(
      `update saved_views set name = $4, name_key = $5, updated_at = $6
       where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null returning ${COLUMNS}`,
      [organizationId, storeUrl, id, name, savedViewNameKey(name), now],
    );
    return row ?? null;
  });
}

/** Deletes a view (restorable for UNDO_WINDOW_MS); the view as it was, or null when there was none. */
export async function softDeleteView(db: Db, organizationId: string, storeUrl: string, id: string, now: Date): Promise<SavedView | null> {
  const [row] = await db.query<SavedView>(
    `update saved_views set deleted_at = $4 where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null
     returning ${COLUMNS}`,
    [organizationId, storeUrl, id, now],
  );
  return row ?? null;
}

/** Undoes a deletion made less than UNDO_WINDOW_MS ago; null when too late or not deleted. */
export async function restoreView(db: Db, organizationId: string, storeUrl: string, id: string, now: Date): Promise<SavedView | null> {
  const [deleted] = await db.query<{ name: string }>(
    "select name from saved_views where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is not null",
    [organizationId, storeUrl, id],
  );
  if (!deleted) return null;
  return uniqueName(deleted.name, async () => {
    const [row] = await db.query<SavedView>(
      `update saved_views set deleted_at = null, updated_at = $4
       where organization_id = $1 and store_url = $2 and id = $3 and deleted_at > $4::timestamptz - make_interval(secs => $5)
       returning ${COLUMNS}`,
      [organizationId, storeUrl, id, now, UNDO_WINDOW_MS / 1000],
    );
    return row ?? null;
  });
}

/** Deletes for good the views deleted longer ago than the undo window. */
export async function purgeViews(db: Db, now: Date): Promise<number> {
  const rows = await db.query<{ id: string }>("delete from saved_views where deleted_at <= $1 returning id", [
    new Date(now.getTime() - UNDO_WINDOW_MS),
  ]);
  return rows.length;
}
