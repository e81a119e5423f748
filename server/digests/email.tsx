import "server-only";
import type { DigestSummary } from "@/shared/digest-summary";
import { EmailDocument, LINK_STYLE } from "@/server/email/document";

export interface DigestFigure {
  label: string;
  current: string;
  previous: string;
  change: string;
}

interface DigestEmailProps {
  subject: string;
  viewName: string;
  storeUrl: string;
  summary: DigestSummary;
  sent: string;
  figures: DigestFigure[];
  moved: string[];
  /** One line per day restated since the last digest. */
  restated: string[];
  pace: string;
  notes: string[];
  links: { view: string; unsubscribe: string; dataChanges: string };
}

const CELL = { padding: "6px 10px", borderBottom: "1px solid #ddd", textAlign: "left" } as const;
const H2 = { fontSize: "16px" } as const;

/** A digest as an e-mail: what the view shows in words, a real table of figures, headings, links. */
export function DigestEmail(props: DigestEmailProps) {
  const { summary, figures, moved, restated, pace, notes, links } = props;
  return (
    <EmailDocument title={props.subject}>
      <main>
        <h1 style={{ fontSize: "20px" }}>
          {props.viewName} <span style={{ fontWeight: "normal" }}>— {props.storeUrl}</span>
        </h1>
        <p>
          <strong>Shows:</strong> {summary.filters}
        </p>
        <p>
          {summary.range}, {summary.comparison}. As of {props.sent}.
        </p>
        <table style={{ borderCollapse: "collapse" }}>
          <caption style={{ textAlign: "left", fontWeight: "bold" }}>Key figures</caption>
          <thead>
            <tr>
              {["Figure", "This period", "Comparison", "Change"].map((heading) => (
                <th key={heading} scope="col" style={CELL}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {figures.map((row) => (
              <tr key={row.label}>
                <th scope="row" style={CELL}>
                  {row.label}
                </th>
                <td style={CELL}>{row.current}</td>
                <td style={CELL}>{row.previous}</td>
                <td style={CELL}>{row.change}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {moved.length > 0 && (
          <>
            <h2 style={H2}>Biggest changes</h2>
            <ul>
              {moved.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </>
        )}
        {restated.length > 0 && (
          <>
            <h2 style={H2}>Restated days</h2>
            <ul>
              {restated.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p>
              <a href={links.dataChanges} style={LINK_STYLE}>
                See what changed on the store’s Data changes page
              </a>
            </p>
          </>
        )}
        {pace && (
          <>
            <h2 style={H2}>Pacing</h2>
            <p>{pace}</p>
          </>
        )}
        {notes.length > 0 && (
          <>
            <h2 style={H2}>Notes</h2>
            <ul>
              {notes.map((note, index) => (
                <li key={index}>{note}</li>
              ))}
            </ul>
          </>
        )}
        <p>
          <a href={links.view} style={LINK_STYLE}>
            Open this view in the dashboard
          </a>
        </p>
      </main>
      <footer>
        <p style={{ fontSize: "13px", color: "#444" }}>
          You receive this because a colleague scheduled this digest.{" "}
          <a href={links.unsubscribe} style={LINK_STYLE}>
            Unsubscribe from this digest
          </a>
        </p>
      </footer>
    </EmailDocument>
  );
}
