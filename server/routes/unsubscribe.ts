import "server-only";
import { withReach } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { liftSuppression, storeLinkOf, suppress } from "@/server/delivery/suppressions";
import { setSubscribed, storeOfToken, subscriptionOf } from "@/server/digests/store";
import { route, type RawParams } from "@/server/http/pipeline";
import { DashboardError } from "@/server/http/responses";

const PATH = "/api/unsubscribe/[token]";
/** The largest body read: a one-click POST carries `List-Unsubscribe=One-Click`, our button `action=subscribe`. */
const BODY_LIMIT = 1024;

function tokenPath(raw: RawParams): { token: string } {
  if (typeof raw.token !== "string" || !/^[\w-]{32}$/.test(raw.token))
    throw new DashboardError(404, "not_found", "This unsubscribe link is not valid.");
  return { token: raw.token };
}

const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(title: string, body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><main><h1>${escape(title)}</h1>${body}</main></body></html>`,
    { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  );
}

const button = (label: string, action: string) =>
  `<form method="post"><input type="hidden" name="action" value="${action}"><button type="submit" style="font:inherit;padding:.5rem 1rem">${label}</button></form>`;

const invalid = () => page("This link is not valid", "<p>It may have been copied incompletely, or its digest was deleted.</p>", 404);

/** What the POST asks: our "Subscribe again" button sends `action=subscribe`; anything else (RFC 8058 one-click, our Unsubscribe button) unsubscribes. */
async function wantsSubscribe(request: Request): Promise<boolean> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > BODY_LIMIT) return false;
  const text = (await request.text().catch(() => "")).slice(0, BODY_LIMIT);
  return new URLSearchParams(text).get("action") === "subscribe";
}

/** An alert e-mail's link: the same page and buttons, for the store's mail at that address. */
async function alertLinkPage(request: Request, db: Db, link: NonNullable<Awaited<ReturnType<typeof storeLinkOf>>>): Promise<Response> {
  if (request.method !== "POST")
    return link.unsubscribed
      ? page(
          "You are unsubscribed",
          `<p>${escape(link.email)} receives no mail of ${escape(link.storeUrl)}. Changed your mind?</p>${button("Subscribe again", "subscribe")}`,
        )
      : page(
          "Unsubscribe from these alerts",
          `<p>Stop the alert e-mails and other mail of ${escape(link.storeUrl)} at ${escape(link.email)}?</p>${button("Unsubscribe", "unsubscribe")}`,
        );
  const subscribe = await wantsSubscribe(request);
  await withReach(db, [link.storeUrl], (tx) =>
    subscribe ? liftSuppression(tx, link, link.email) : suppress(tx, link, link.email, new Date()),
  );
  return subscribe
    ? page(
        "You are subscribed again",
        `<p>${escape(link.email)} receives the alert e-mails and other mail of ${escape(link.storeUrl)} again.</p>`,
      )
    : page(
        "You are unsubscribed",
        `<p>${escape(link.email)} will no longer receive alert e-mails nor other mail of ${escape(link.storeUrl)}.</p>${button("Subscribe again", "subscribe")}`,
      );
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
    if (!storeUrl) return invalid();
    const link = await withReach(db, [storeUrl], (tx) => storeLinkOf(tx, params.token));
    if (link) return alertLinkPage(request, db, link);
    if (request.method !== "POST") {
      const found = await withReach(db, [storeUrl], (tx) => subscriptionOf(tx, params.token));
      if (!found) return invalid();
      if (found.unsubscribed)
        return page(
          "You are unsubscribed",
          `<p>${escape(found.email)} receives no mail of ${escape(found.storeUrl)}. Changed your mind?</p>${button("Subscribe again", "subscribe")}`,
        );
      return page(
        "Unsubscribe from this digest",
        `<p>Stop receiving the digest “${escape(found.viewName)}” and other mail of ${escape(found.storeUrl)} at ${escape(found.email)}?</p>${button("Unsubscribe", "unsubscribe")}`,
      );
    }
    const subscribe = await wantsSubscribe(request);
    const done = await withReach(db, [storeUrl], (tx) => setSubscribed(tx, params.token, subscribe, new Date()));
    if (!done) return invalid();
    if (subscribe)
      return page(
        "You are subscribed again",
        `<p>${escape(done.email)} receives the digest “${escape(done.viewName)}” of ${escape(done.storeUrl)} again.</p>`,
      );
    return page(
      "You are unsubscribed",
      `<p>${escape(done.email)} will no longer receive the digest “${escape(done.viewName)}” nor other mail of ${escape(done.storeUrl)}.</p>${button("Subscribe again", "subscribe")}`,
    );
  },
);
