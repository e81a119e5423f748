import "server-only";
import type { ReactNode } from "react";
import { EmailDocument, renderHtml } from "@/server/email/document";

/** The unsubscribe link's page: no app around it, rendered (and escaped) as the e-mails are. */
function unsubscribePageResponse(title: string, body: ReactNode, status = 200): Response {
  const html = renderHtml(
    <EmailDocument title={title} page>
      <main>
        <h1>{title}</h1>
        {body}
      </main>
    </EmailDocument>,
  );
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/** A form posting `action` back to the link itself: a page view alone changes nothing. `proof` binds it to this page. */
export function ActionButton({ label, action, proof }: { label: string; action: "subscribe" | "unsubscribe"; proof?: string }) {
  return (
    <form method="post">
      <input type="hidden" name="action" value={action} />
      {proof && <input type="hidden" name="proof" value={proof} />}
      <button type="submit" style={{ font: "inherit", padding: ".5rem 1rem" }}>
        {label}
      </button>
    </form>
  );
}

export const notValidPage = () =>
  unsubscribePageResponse("This link is not valid", <p>It may have been copied incompletely, or its digest was deleted.</p>, 404);

interface Recipient {
  email: string;
  storeUrl: string;
}

/** What the address gets from the store: one digest, or the store's alert e-mails. */
type What = { digest: string } | { alerts: true };

export function askPage({ email, storeUrl }: Recipient, what: What): Response {
  return "digest" in what
    ? unsubscribePageResponse(
        "Unsubscribe from this digest",
        <>
          <p>
            Stop receiving the digest “{what.digest}” and other mail of {storeUrl} at {email}?
          </p>
          <ActionButton label="Unsubscribe" action="unsubscribe" />
        </>,
      )
    : unsubscribePageResponse(
        "Unsubscribe from these alerts",
        <>
          <p>
            Stop the alert e-mails and other mail of {storeUrl} at {email}?
          </p>
          <ActionButton label="Unsubscribe" action="unsubscribe" />
        </>,
      );
}

/** A "Subscribe again" that did not come from this link's page, or from one opened too long ago. */
export const staleButtonPage = () =>
  unsubscribePageResponse(
    "Open the link again",
    <p>Subscribing again is done from the page of the link in your e-mail. Open that link again and press “Subscribe again”.</p>,
    403,
  );

/** Unsubscribed (just now, or earlier): says so, and offers the only way back (the button carries the page's proof). */
export function unsubscribedPage({ email, storeUrl }: Recipient, what: What | null, proof: string): Response {
  const said =
    what === null
      ? `${email} receives no mail of ${storeUrl}. Changed your mind?`
      : "digest" in what
        ? `${email} will no longer receive the digest “${what.digest}” nor other mail of ${storeUrl}.`
        : `${email} will no longer receive alert e-mails nor other mail of ${storeUrl}.`;
  return unsubscribePageResponse(
    "You are unsubscribed",
    <>
      <p>{said}</p>
      <ActionButton label="Subscribe again" action="subscribe" proof={proof} />
    </>,
  );
}

export function subscribedAgainPage({ email, storeUrl }: Recipient, what: What): Response {
  return unsubscribePageResponse(
    "You are subscribed again",
    <p>
      {"digest" in what
        ? `${email} receives the digest “${what.digest}” of ${storeUrl} again.`
        : `${email} receives the alert e-mails and other mail of ${storeUrl} again.`}
    </p>,
  );
}
