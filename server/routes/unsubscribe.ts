import "server-only";
import { acrossStores } from "@/server/db/reach";
import { database } from "@/server/db/database";
import { unsubscribe } from "@/server/digests/store";
import { route, type RawParams } from "@/server/http/pipeline";
import { DashboardError } from "@/server/http/responses";

const PATH = "/api/unsubscribe/[token]";

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

/**
 * GET: a page with one button, so a link scanner opening the link unsubscribes no one.
 * POST: unsubscribes at once, with no sign-in: RFC 8058's one-click (List-Unsubscribe-Post),
 * which mail providers send from their own servers, so it is not a same-origin request.
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
    if (request.method === "GET") {
      return page(
        "Unsubscribe from this digest",
        `<p>Stop receiving this scheduled digest at this address?</p><form method="post"><button type="submit" style="font:inherit;padding:.5rem 1rem">Unsubscribe</button></form>`,
      );
    }
    // The token alone names the subscription, in whichever store: a deliberate path across stores.
    const done = await acrossStores(await database(), "one-click unsubscribe by token", (tx) => unsubscribe(tx, params.token, new Date()));
    if (!done) return page("This link is not valid", "<p>It may have been copied incompletely, or its digest was deleted.</p>", 404);
    return page(
      "You are unsubscribed",
      `<p>${escape(done.email)} will no longer receive the digest “${escape(done.viewName)}” of ${escape(done.storeUrl)}.</p>`,
    );
  },
);
