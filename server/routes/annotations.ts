import "server-only";
import { database } from "@/server/db/database";
import { listAudit } from "@/server/audit/audit";
import { createNote, deleteNote, notesInRange, updateNote } from "@/server/notes/notes";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { ACTION_BODY_LIMIT, route, type RawParams } from "@/server/http/pipeline";
import { annotationsQuerySchema, type ActionMarker } from "@/shared/schemas/annotation";
import { isUpstreamAction, type AuditEntry } from "@/shared/schemas/activity";
import { newNoteSchema } from "@/shared/schemas/note";
import { DAY_MS, dateToUtcMs } from "@/shared/days";

/** Store-local dates lie within a day of UTC either way (offsets run from −12 to +14 hours). */
const ZONE_MARGIN_MS = DAY_MS;
/** Actions shown as markers: the ones that happened, or may have. */
const MARKED = new Set(["succeeded", "unknown"]);

function label(entry: AuditEntry): string {
  const { target } = entry;
  return entry.action === "campaign-group.clone"
    ? `Clone of ${target.sourceCampaignGroupName ?? target.sourceCampaignGroupId ?? "a campaign group"}`
    : `Removal of ${target.connectionName ?? target.connectionId ?? "a tracking connection"}`;
}

/** GET …/annotations?startDate&endDate: the store's notes overlapping the dates, and its guarded actions around them. */
export const listAnnotations = route(
  { methods: ["GET"], path: "/api/stores/[storeUrl]/annotations", scope: "store", query: annotationsQuerySchema },
  async ({ scope, session, query, requestId }) => {
    const db = await database();
    const store = { organizationId: scope.organizationId!, storeUrl: scope.store!.url };
    const from = new Date(Date.parse(`${query.startDate}T00:00:00Z`) - ZONE_MARGIN_MS);
    const to = new Date(dateToUtcMs(query.endDate) + DAY_MS + ZONE_MARGIN_MS);
    const [notes, audit] = await Promise.all([
      notesInRange(db, store, query),
      listAudit(db, { storeUrls: [store.storeUrl], filters: { from, to } }, { limit: 500 }),
    ]);
    const actions: ActionMarker[] = audit.entries
      .filter((entry) => isUpstreamAction(entry.action) && MARKED.has(entry.outcome))
      .map((entry) => ({
        id: entry.id,
        at: entry.at,
        action: entry.action,
        outcome: entry.outcome,
        userEmail: entry.userEmail,
        label: label(entry),
      }))
      .reverse();
    return jsonResponse({ notes, actions, viewerEmail: session.data.user.email }, { requestId });
  },
);

/** The id of a note in a path: anything else names no note. */
function notePath(raw: RawParams): { storeUrl: string; noteId: string } {
  const { storeUrl, noteId } = raw;
  if (typeof storeUrl !== "string" || typeof noteId !== "string" || !/^note_[0-9a-f-]{36}$/.test(noteId)) {
    throw new DashboardError(404, "not_found", "No such note.");
  }
  return { storeUrl, noteId };
}

const notYours = () => new DashboardError(404, "not_found", "No such note of yours: only its author can change or delete a note.");

/** POST /api/stores/{storeUrl}/notes: a note on a date or a range, shared in the organization. */
export const addNote = route(
  { methods: ["POST"], path: "/api/stores/[storeUrl]/notes", scope: "store", body: { schema: newNoteSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, body, requestId }) => {
    const note = await createNote(
      await database(),
      { organizationId: scope.organizationId!, storeUrl: scope.store!.url },
      body,
      session.data.user.email,
      new Date(),
    );
    return jsonResponse(note, { status: 201, requestId });
  },
);

const ONE = "/api/stores/[storeUrl]/notes/[noteId]";

/** PATCH /api/stores/{storeUrl}/notes/{noteId}: by its author only. */
export const changeNote = route(
  { methods: ["PATCH"], path: ONE, scope: "store", params: notePath, body: { schema: newNoteSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, params, body, requestId }) => {
    const store = { organizationId: scope.organizationId!, storeUrl: scope.store!.url };
    const note = await updateNote(await database(), store, params.noteId, session.data.user.email, body, new Date());
    if (!note) throw notYours();
    return jsonResponse(note, { requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/notes/{noteId}: by its author only. */
export const removeNote = route(
  { methods: ["DELETE"], path: ONE, scope: "store", params: notePath },
  async ({ scope, session, params, requestId }) => {
    const store = { organizationId: scope.organizationId!, storeUrl: scope.store!.url };
    if (!(await deleteNote(await database(), store, params.noteId, session.data.user.email))) throw notYours();
    return jsonResponse({ deleted: params.noteId }, { requestId });
  },
);
