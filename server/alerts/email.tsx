import "server-only";
import { EmailDocument, LINK_STYLE, renderHtml } from "@/server/email/document";

interface AlertEmailProps {
  title: string;
  /** What `lines` are: "What moved" in an alert, "Why" in a summary of alerts held back. */
  heading: string;
  lines: string[];
  ruleLink: string;
  /** The link's words: the rule's by default; the inbox's in a summary of alerts held back. */
  linkText?: string;
  /** The recipient's own link to stop this store's alert e-mails. */
  unsubscribeLink: string;
}

/** An alert as an e-mail: its title, what moved, the link to its rule and the recipient's unsubscribe link. */
function AlertEmail({ title, heading, lines, ruleLink, linkText = "Open the rule", unsubscribeLink }: AlertEmailProps) {
  return (
    <EmailDocument title={title}>
      <main>
        <h1 style={{ fontSize: "18px" }}>{title}</h1>
        {lines.length > 0 && (
          <>
            <h2 style={{ fontSize: "15px" }}>{heading}</h2>
            <ul>
              {lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
        <p>
          <a href={ruleLink} style={LINK_STYLE}>
            {linkText}
          </a>
        </p>
        <p style={{ fontSize: "12px" }}>
          <a href={unsubscribeLink} style={LINK_STYLE}>
            Unsubscribe from this store&apos;s alert e-mails
          </a>
        </p>
      </main>
    </EmailDocument>
  );
}

export function alertEmailHtml(props: AlertEmailProps): string {
  return renderHtml(<AlertEmail {...props} />);
}
