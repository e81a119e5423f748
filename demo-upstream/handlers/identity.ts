/** Discovery: GET /context, /me, /organizations, /stores, all narrowed to the key's scope. */

import { contextQuerySchema } from "@/shared/schemas/context";
import type { RequestContext } from "@/demo-upstream/context";
import { HttpError } from "@/demo-upstream/errors";
import { findStore, findUser, type OrganizationFixture, type StoreFixture } from "@/demo-upstream/fixtures";
import { noQuerySchema, parseQuery } from "@/demo-upstream/input";

function userView(ctx: RequestContext) {
  const user = findUser(ctx.key.userId);
  if (!user) throw new HttpError(500, "the key's user is missing");
  return { id: user.id, email: user.email, emailVerified: user.emailVerified, name: user.name, image: user.image };
}

function role(ctx: RequestContext, organization: OrganizationFixture): string {
  return findUser(ctx.key.userId)?.roles[organization.id] ?? "member";
}

function storeSummary(store: StoreFixture) {
  return {
    id: store.id,
    url: store.url,
    type: store.type,
    currency: store.currency,
    createdAt: store.createdAt,
    updatedAt: store.updatedAt,
  };
}

/** A store-scoped key sees one store: the one it was created for. */
function visibleStores(ctx: RequestContext): StoreFixture[] {
  const store = findStore(ctx.key.storeUrl);
  return store ? [store] : [];
}

function organizationView(ctx: RequestContext) {
  const { organization } = ctx;
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    createdAt: organization.createdAt,
    role: role(ctx, organization),
  };
}

export function context(ctx: RequestContext) {
  const query = parseQuery(contextQuerySchema, ctx.query);
  if (query.organizationId !== undefined && query.organizationId !== ctx.key.organizationId) {
    throw new HttpError(403, `organization ${query.organizationId} is outside this key's scope`);
  }
  return {
    json: {
      user: userView(ctx),
      organizations: [{ ...organizationView(ctx), stores: visibleStores(ctx).map(storeSummary) }],
    },
  };
}

export function me(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  return { json: { user: userView(ctx) } };
}

export function organizations(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  return { json: { organizations: [organizationView(ctx)] } };
}

export function stores(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  return { json: { stores: visibleStores(ctx).map(storeSummary) } };
}
