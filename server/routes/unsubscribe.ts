import "server-only";
import { withReach } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { liftSuppression, storeLinkOf, suppress } from "@/server/delivery/suppressions";
import { setSubscribed, storeOfToken, subscriptionOf } from "@/server/digests/store";
import { route, type RawParams } from "@/server/http/pipeline";
import { DashboardError } from "@/server/http/responses";
import { askPage, notValidPage, subscribedAgainPage, unsubscribedPage } from "./unsubscribe-page";

const PATH = "/api/unsubscribe/[token]";
/** The largest body read: a one-click POST carries `List-Unsubscribe=One-Click`, our button `action=subscribe`. */
const BODY_LIMIT = 1024;

function tokenPath(raw: RawParams): { token: string } {
  if (typeof raw.token !== "string" || !/^[\w-]{32}$/.test(raw.token))
    throw new DashboardError(404, "not_found", "This unsubscribe link is not valid.");
  return { token: raw.token };
}

/** What the POST asks: our "Subscribe again" button sends `action=subscribe`; anything else (RFC 8058 one-click, our Unsubscribe button) unsubscribes. */
async function wantsSubscribe(request: Request): Promise<boolean> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > BODY_LIMIT) return false;
  const text = (await request.text().catch(() => "")).slice(0, BODY_LIMIT);
  return new URLSearchParams(text).get("action") === "subscribe";
}

/** An alert e-mail's link: the same page and buttons, for the store's mail at that address. */
async function alertLinkPage(request: Request, db: Db, link: NonNullable<Awaited<ReturnType<typeof storeLinkOf>>>): Promise<Response> {
  const alerts = { alerts: true } as const;
  if (request.method !== "POST") return link.unsubscribed ? unsubscribedPage(link, null) : askPage(link, alerts);
  const subscribe = await wantsSubscribe(request);
  await withReach(db, [link.storeUrl], (tx) =>
    subscribe ? liftSuppression(tx, link, link.email) : suppress(tx, link, link.email, new Date()),
  );
  return subscribe ? subscribedAgainPage(link, alerts) : unsubscribedPage(link, alerts);
}

/**
 * GET (and HEAD, which Next.js answers with the GET handler): only a page with one button, so a
 * link scanner that opens or probes the link changes nothing. POST: the button's, or RFC 8058's
 * one-click (List-Unsubscribe-Post), which mail providers send from their own servers, so it is
 * not a same-origin request and needs no sign-in. Unsubscribing suppresses the address for the
 * store's mail; the page then offers to subscribe again, the only way back.
 */
export const unsubscribePage = route(
  {
    methods: ["GET", "POST"],
    path: PATH,
    scope: "none",
    reason: "a digest recipient without an account: the token alone names the subscription",
    session: false,
    mutation: false,
    params: tokenPath,
  },
  async ({ request, params }) => {
    const db = await database();
    const storeUrl = await storeOfToken(db, params.token);
    if (!storeUrl) return notValidPage();
    const link = await withReach(db, [storeUrl], (tx) => storeLinkOf(tx, params.token));
    if (link) return alertLinkPage(request, db, link);
    if (request.method !== "POST") {
      const found = await withReach(db, [storeUrl], (tx) => subscriptionOf(tx, params.token));
      if (!found) return notValidPage();
      return found.unsubscribed ? unsubscribedPage(found, null) : askPage(found, { digest: found.viewName });
    }
    const subscribe = await wantsSubscribe(request);
    const done = await withReach(db, [storeUrl], (tx) => setSubscribed(tx, params.token, subscribe, new Date()));
    if (!done) return notValidPage();
    const digest = { digest: done.viewName };
    return subscribe ? subscribedAgainPage(done, digest) : unsubscribedPage(done, digest);
  },
);
