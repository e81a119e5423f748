import "server-only";
import { newSavedViewSchema, renameSavedViewSchema, storedViewSearch, type SavedViewItem } from "@/shared/schemas/saved-view";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { database } from "@/server/db/database";
import {
  createView,
  listViews,
  renameView,
  restoreView,
  softDeleteView,
  UNDO_WINDOW_MS,
  type SavedView,
} from "@/server/saved-views/repository";
import { ACTION_BODY_LIMIT, route, type RawParams } from "@/server/http/pipeline";

/** The id of a saved view in a path: anything else names no view. */
function viewPath(raw: RawParams): { storeUrl: string; id: string } {
  const { storeUrl, id } = raw;
  if (typeof storeUrl !== "string" || typeof id !== "string" || !/^view_[0-9a-f-]{36}$/.test(id)) {
    throw new DashboardError(404, "not_found", "No such saved view.");
  }
  return { storeUrl, id };
}

function item(view: SavedView): SavedViewItem {
  return {
    id: view.id,
    name: view.name,
    search: storedViewSearch(view.view),
    createdByEmail: view.createdByEmail,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

const gone = () => new DashboardError(404, "not_found", "This saved view no longer exists.");

const COLLECTION = "/api/stores/[storeUrl]/saved-views";
const ONE = "/api/stores/[storeUrl]/saved-views/[id]";

/** GET /api/stores/{storeUrl}/saved-views */
export const listSavedViews = route({ methods: ["GET"], path: COLLECTION, scope: "store" }, async ({ scope, requestId }) => {
  const views = await listViews(await database(), scope.organizationId!, scope.store!.url);
  return jsonResponse({ views: views.map(item) }, { requestId });
});

/** POST /api/stores/{storeUrl}/saved-views: saves the view under a name unique in the store. */
export const createSavedView = route(
  { methods: ["POST"], path: COLLECTION, scope: "store", body: { schema: newSavedViewSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, body, requestId }) => {
    const view = await createView(
      await database(),
      {
        organizationId: scope.organizationId!,
        storeUrl: scope.store!.url,
        name: body.name,
        view: { search: body.search },
        createdByEmail: session.data.user.email,
      },
      new Date(),
    );
    return jsonResponse(item(view), { status: 201, requestId });
  },
);

/** PATCH /api/stores/{storeUrl}/saved-views/{id}: renames. */
export const renameSavedView = route(
  { methods: ["PATCH"], path: ONE, scope: "store", params: viewPath, body: { schema: renameSavedViewSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, params, body, requestId }) => {
    const view = await renameView(await database(), scope.organizationId!, scope.store!.url, params.id, body.name, new Date());
    if (!view) throw gone();
    return jsonResponse(item(view), { requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/saved-views/{id}: deletes, restorable for ten seconds. */
export const deleteSavedView = route(
  { methods: ["DELETE"], path: ONE, scope: "store", params: viewPath },
  async ({ scope, params, requestId }) => {
    const now = new Date();
    const view = await softDeleteView(await database(), scope.organizationId!, scope.store!.url, params.id, now);
    if (!view) throw gone();
    return jsonResponse({ view: item(view), undoUntil: new Date(now.getTime() + UNDO_WINDOW_MS).toISOString() }, { requestId });
  },
);

/** POST /api/stores/{storeUrl}/saved-views/{id}/restore: undoes a deletion within ten seconds. */
export const restoreSavedView = route(
  { methods: ["POST"], path: `${ONE}/restore`, scope: "store", params: viewPath },
  async ({ scope, params, requestId }) => {
    const view = await restoreView(await database(), scope.organizationId!, scope.store!.url, params.id, new Date());
    if (!view) throw new DashboardError(404, "not_found", "This view can no longer be restored: the ten seconds have passed.");
    return jsonResponse(item(view), { requestId });
  },
);
