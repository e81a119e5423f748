import "server-only";
import { acrossStores } from "@/server/db/reach";
import { database } from "@/server/db/database";
import { unsubscribe } from "@/server/digests/store";
import { route, type RawParams } from "@/server/http/pipeline";
import { DashboardError } from "@/server/http/responses";
import type { ReactNode } from "react";
import { confirmForm, notValid, unsubscribed, unsubscribeHtml } from "./unsubscribe-page";

const PATH = "/api/unsubscribe/[token]";

function tokenPath(raw: RawParams): { token: string } {
  if (typeof raw.token !== "string" || !/^[\w-]{32}$/.test(raw.token))
    throw new DashboardError(404, "not_found", "This unsubscribe link is not valid.");
  return { token: raw.token };
}

function page(title: string, body: ReactNode, status = 200): Response {
  return new Response(unsubscribeHtml(title, body), {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
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
      return page("Unsubscribe from this digest", confirmForm);
    }
    // The token alone names the subscription, in whichever store: a deliberate path across stores.
    const done = await acrossStores(await database(), "one-click unsubscribe by token", (tx) => unsubscribe(tx, params.token, new Date()));
    if (!done) return page("This link is not valid", notValid, 404);
    return page("You are unsubscribed", unsubscribed(done));
  },
);
