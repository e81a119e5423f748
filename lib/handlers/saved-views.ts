import "server-only";
import { z } from "zod";
import { newSavedViewSchema, renameSavedViewSchema, type SavedViewItem } from "@/lib/schemas/saved-view";
import { DashboardError, jsonResponse } from "@/lib/server/http";
import { database } from "@/lib/store/database";
import { createView, listViews, renameView, restoreView, softDeleteView, UNDO_WINDOW_MS, type SavedView } from "@/lib/store/saved-views";
import { ACTION_BODY_LIMIT, route, type HandlerContext } from "./pipeline";

const PATH = /^\/api\/stores\/([^/]+)\/saved-views(?:\/(view_[0-9a-f-]{36}))?(\/restore)?\/?$/;
const storedViewSchema = z.object({ search: z.string() });

interface ViewPath {
  storeUrl: string;
  id?: string;
}

function matchViewPath(url: URL): ViewPath {
  const found = PATH.exec(url.pathname);
  if (!found) throw new DashboardError(404, "not_found", "No such saved view.");
  try {
    return { storeUrl: decodeURIComponent(found[1]!), id: found[2] };
  } catch {
    throw new DashboardError(400, "bad_request", "The store in the path has malformed percent-encoding.");
  }
}

function item(view: SavedView): SavedViewItem {
  return {
    id: view.id,
    name: view.name,
    search: storedViewSchema.safeParse(view.view).data?.search ?? "",
    createdByEmail: view.createdByEmail,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

/** Saved views belong to the organization the request works in. */
function organizationOf(context: HandlerContext<ViewPath, unknown, unknown>): string {
  if (!context.organizationId)
    throw new DashboardError(403, "forbidden", "Saved views belong to an organization, and this session has none.");
  return context.organizationId;
}

function requireId(path: ViewPath): string {
  if (!path.id) throw new DashboardError(404, "not_found", "No such saved view.");
  return path.id;
}

const gone = () => new DashboardError(404, "not_found", "This saved view no longer exists.");

/** GET /api/stores/{storeUrl}/saved-views */
export const listSavedViews = route({ route: "GET /api/stores/{storeUrl}/saved-views", match: matchViewPath }, async (context) => {
  const views = await listViews(await database(), organizationOf(context), context.match.storeUrl);
  return jsonResponse({ views: views.map(item) }, { requestId: context.requestId });
});

/** POST /api/stores/{storeUrl}/saved-views: saves the view under a name unique in the store. */
export const createSavedView = route(
  {
    route: "POST /api/stores/{storeUrl}/saved-views",
    match: matchViewPath,
    body: { schema: newSavedViewSchema, maxBytes: ACTION_BODY_LIMIT },
  },
  async (context) => {
    const view = await createView(
      await database(),
      {
        organizationId: organizationOf(context),
        storeUrl: context.match.storeUrl,
        name: context.body.name,
        view: { search: context.body.search },
        createdByEmail: context.session.data.user.email,
      },
      new Date(),
    );
    return jsonResponse(item(view), { status: 201, requestId: context.requestId });
  },
);

/** PATCH /api/stores/{storeUrl}/saved-views/{id}: renames. */
export const renameSavedView = route(
  {
    route: "PATCH /api/stores/{storeUrl}/saved-views/{id}",
    match: matchViewPath,
    body: { schema: renameSavedViewSchema, maxBytes: ACTION_BODY_LIMIT },
  },
  async (context) => {
    const view = await renameView(await database(), organizationOf(context), requireId(context.match), context.body.name, new Date());
    if (!view) throw gone();
    return jsonResponse(item(view), { requestId: context.requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/saved-views/{id}: deletes, restorable for ten seconds. */
export const deleteSavedView = route({ route: "DELETE /api/stores/{storeUrl}/saved-views/{id}", match: matchViewPath }, async (context) => {
  const db = await database();
  const organizationId = organizationOf(context);
  const id = requireId(context.match);
  const view = (await listViews(db, organizationId, context.match.storeUrl)).find((candidate) => candidate.id === id);
  const now = new Date();
  if (!view || !(await softDeleteView(db, organizationId, id, now))) throw gone();
  return jsonResponse(
    { view: item(view), undoUntil: new Date(now.getTime() + UNDO_WINDOW_MS).toISOString() },
    { requestId: context.requestId },
  );
});

/** POST /api/stores/{storeUrl}/saved-views/{id}/restore: undoes a deletion within ten seconds. */
export const restoreSavedView = route(
  { route: "POST /api/stores/{storeUrl}/saved-views/{id}/restore", match: matchViewPath },
  async (context) => {
    const view = await restoreView(await database(), organizationOf(context), requireId(context.match), new Date());
    if (!view) throw new DashboardError(404, "not_found", "This view can no longer be restored: the ten seconds have passed.");
    return jsonResponse(item(view), { requestId: context.requestId });
  },
);
