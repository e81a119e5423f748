import "server-only";
import type { ReactNode } from "react";
import { EmailDocument, renderHtml } from "@/server/email/document";

/** The unsubscribe link's page: no app around it, rendered (and escaped) as the e-mails are. */
export function unsubscribeHtml(title: string, body: ReactNode): string {
  return renderHtml(
    <EmailDocument title={title} page>
      <main>
        <h1>{title}</h1>
        {body}
      </main>
    </EmailDocument>,
  );
}

export const confirmForm = (
  <>
    <p>Stop receiving this scheduled digest at this address?</p>
    <form method="post">
      <button type="submit" style={{ font: "inherit", padding: ".5rem 1rem" }}>
        Unsubscribe
      </button>
    </form>
  </>
);

export const notValid = <p>It may have been copied incompletely, or its digest was deleted.</p>;

export function unsubscribed(done: { email: string; viewName: string; storeUrl: string }) {
  return (
    <p>
      {done.email} will no longer receive the digest “{done.viewName}” of {done.storeUrl}.
    </p>
  );
}
