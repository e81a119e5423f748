import "server-only";
import { randomUUID } from "node:crypto";
import type { NewNote, Note } from "@/shared/schemas/note";
import type { Db } from "@/server/db/database";

/** Notes on a store's charts, shared in an organization; only a note's author changes or deletes it. */
type NoteRow = { id: string; startDate: string; endDate: string; text: string; authorEmail: string; createdAt: Date; updatedAt: Date };

const COLUMNS = `id, to_char(start_date, 'YYYY-MM-DD') as "startDate", to_char(end_date, 'YYYY-MM-DD') as "endDate", text,
  author_email as "authorEmail", created_at as "createdAt", updated_at as "updatedAt"`;

const toNote = (row: NoteRow): Note => ({ ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() });

export async function createNote(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  note: NewNote,
  authorEmail: string,
  now: Date,
): Promise<Note> {
  const [row] = await db.query<NoteRow>(
    `insert into notes (id, organization_id, store_url, start_date, end_date, text, author_email, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning ${COLUMNS}`,
    [`note_${randomUUID()}`, scope.organizationId, scope.storeUrl, note.startDate, note.endDate, note.text, authorEmail, now],
  );
  return toNote(row!);
}

/** The store's notes that overlap a range of dates, oldest first. */
export async function notesInRange(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  range: { startDate: string; endDate: string },
): Promise<Note[]> {
  const rows = await db.query<NoteRow>(
    `select ${COLUMNS} from notes where organization_id = $1 and store_url = $2 and start_date <= $4 and end_date >= $3
     order by start_date, created_at`,
    [scope.organizationId, scope.storeUrl, range.startDate, range.endDate],
  );
  return rows.map(toNote);
}

/** Changes a note, by its author only; null when there is no such note of theirs. */
export async function updateNote(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  id: string,
  authorEmail: string,
  note: NewNote,
  now: Date,
): Promise<Note | null> {
  const [row] = await db.query<NoteRow>(
    `update notes set start_date = $5, end_date = $6, text = $7, updated_at = $8
     where organization_id = $1 and store_url = $2 and id = $3 and lower(author_email) = lower($4) returning ${COLUMNS}`,
    [scope.organizationId, scope.storeUrl, id, authorEmail, note.startDate, note.endDate, note.text, now],
  );
  return row ? toNote(row) : null;
}

/** Deletes a note, by its author only; false when there is no such note of theirs. */
export async function deleteNote(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  id: string,
  authorEmail: string,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    "delete from notes where organization_id = $1 and store_url = $2 and id = $3 and lower(author_email) = lower($4) returning id",
    [scope.organizationId, scope.storeUrl, id, authorEmail],
  );
  return rows.length > 0;
}
