import "server-only";
import { EmailDocument, LINK_STYLE, renderHtml } from "@/server/email/document";

/** An alert as an e-mail: its title, what moved, and the link to its rule. */
function AlertEmail({ title, lines, ruleLink }: { title: string; lines: string[]; ruleLink: string }) {
  return (
    <EmailDocument title={title}>
      <main>
        <h1 style={{ fontSize: "18px" }}>{title}</h1>
        {lines.length > 0 && (
          <>
            <h2 style={{ fontSize: "15px" }}>What moved</h2>
            <ul>
              {lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
        <p>
          <a href={ruleLink} style={LINK_STYLE}>
            Open the rule
          </a>
        </p>
      </main>
    </EmailDocument>
  );
}

export function alertEmailHtml(props: { title: string; lines: string[]; ruleLink: string }): string {
  return renderHtml(<AlertEmail {...props} />);
}
