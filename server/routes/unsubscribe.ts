import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecrets } from "@/server/auth/secrets";
import { isSameOrigin } from "@/server/http/origin";
import { withReach } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { liftSuppression, storeLinkOf, suppress } from "@/server/delivery/suppressions";
import { setSubscribed, storeOfToken, subscriptionOf } from "@/server/digests/store";
import { route, type RawParams } from "@/server/http/pipeline";
import { DashboardError } from "@/server/http/responses";
import { askPage, notValidPage, staleButtonPage, subscribedAgainPage, unsubscribedPage } from "./unsubscribe-page";

const PATH = "/api/unsubscribe/[token]";
/** The largest body read: a one-click POST carries `List-Unsubscribe=One-Click`, our button `action=subscribe`. */
const BODY_LIMIT = 1024;

function tokenPath(raw: RawParams): { token: string } {
  if (typeof raw.token !== "string" || !/^[\w-]{32}$/.test(raw.token))
    throw new DashboardError(404, "not_found", "This unsubscribe link is not valid.");
  return { token: raw.token };
}

/** How long the page's "Subscribe again" button stays good. */
const PROOF_MS = 60 * 60_000;

/** What binds a "Subscribe again" to the page of this link opened at `issuedAt`: only this server can make it. */
function pageProof(token: string, issuedAt: number): string {
  const secret = Object.values(sessionSecrets().sealing)[0]!;
  return `${issuedAt}.${createHmac("sha256", secret).update(`subscribe-again:${token}:${issuedAt}`).digest("base64url")}`;
}

/** A proof for the page shown now. */
const freshProof = (token: string) => pageProof(token, Date.now());

function provenFromPage(token: string, proof: string | null): boolean {
  const issuedAt = Number(proof?.split(".")[0]);
  if (!proof || !Number.isSafeInteger(issuedAt) || Date.now() - issuedAt > PROOF_MS || issuedAt > Date.now()) return false;
  const expected = Buffer.from(pageProof(token, issuedAt));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What the POST asks: anything but `action=subscribe` (RFC 8058 one-click, our Unsubscribe button)
 * unsubscribes, from anywhere. Subscribing again lifts an opt-out, so only the address itself may:
 * it is the page's own button (same origin, with the proof the page carries), never a bare
 * cross-site POST. Null: a subscribe that is not the page's.
 */
async function wantsSubscribe(request: Request, token: string): Promise<boolean | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > BODY_LIMIT) return false;
  const form = new URLSearchParams((await request.text().catch(() => "")).slice(0, BODY_LIMIT));
  if (form.get("action") !== "subscribe") return false;
  return isSameOrigin(request) && provenFromPage(token, form.get("proof")) ? true : null;
}

/** An alert e-mail's link: the same page and buttons, for the store's mail at that address. */
async function alertLinkPage(
  request: Request,
  db: Db,
  token: string,
  link: NonNullable<Awaited<ReturnType<typeof storeLinkOf>>>,
): Promise<Response> {
  const alerts = { alerts: true } as const;
  if (request.method !== "POST") return link.unsubscribed ? unsubscribedPage(link, null, freshProof(token)) : askPage(link, alerts);
  const subscribe = await wantsSubscribe(request, token);
  if (subscribe === null) return staleButtonPage();
  await withReach(db, [link.storeUrl], (tx) =>
    subscribe ? liftSuppression(tx, link, link.email) : suppress(tx, link, link.email, new Date()),
  );
  return subscribe ? subscribedAgainPage(link, alerts) : unsubscribedPage(link, alerts, freshProof(token));
}

/**
 * GET (and HEAD, which Next.js answers with the GET handler): only a page with one button, so a
 * link scanner that opens or probes the link changes nothing. POST: the button's, or RFC 8058's
 * one-click (List-Unsubscribe-Post), which mail providers send from their own servers, so it is
 * not a same-origin request and needs no sign-in. Unsubscribing suppresses the address for the
 * store's mail; the page then offers to subscribe again, the only way back, which only that page's
 * own button may take (a bare cross-site POST of `action=subscribe` is refused).
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
    if (link) return alertLinkPage(request, db, params.token, link);
    if (request.method !== "POST") {
      const found = await withReach(db, [storeUrl], (tx) => subscriptionOf(tx, params.token));
      if (!found) return notValidPage();
      return found.unsubscribed ? unsubscribedPage(found, null, freshProof(params.token)) : askPage(found, { digest: found.viewName });
    }
    const subscribe = await wantsSubscribe(request, params.token);
    if (subscribe === null) return staleButtonPage();
    const done = await withReach(db, [storeUrl], (tx) => setSubscribed(tx, params.token, subscribe, new Date()));
    if (!done) return notValidPage();
    const digest = { digest: done.viewName };
    return subscribe ? subscribedAgainPage(done, digest) : unsubscribedPage(done, digest, freshProof(params.token));
  },
);
