import "server-only";
import type { DigestSummary } from "@/shared/digest-summary";
import { Fragment } from "react";
import { EmailDocument, LINK_STYLE } from "@/server/email/document";

interface DigestEmailProps {
  subject: string;
  viewName: string;
  storeUrl: string;
  summary: Pick<DigestSummary, "filters"> & { range: string; comparison: string };
  sent: string;
  /** The key figures: one row per figure (a store's digest) or per store (a digest of several stores), its first cell a row header. */
  table: { caption: string; headings: string[]; rows: string[][] };
  /** Lists under their headings: biggest changes, notes, totals… (empty ones are left out). */
  sections: { heading: string; items: string[] }[];
  /** One line per day restated since the last digest. */
  restated?: string[];
  pace?: string;
  links: { view: string; viewText?: string; unsubscribe: string; dataChanges?: string };
}

const CELL = { padding: "6px 10px", borderBottom: "1px solid #ddd", textAlign: "left" } as const;
const H2 = { fontSize: "16px" } as const;

/** A digest as an e-mail: what the view shows in words, a real table of figures, headings, links. */
export function DigestEmail(props: DigestEmailProps) {
  const { summary, table, sections, restated, pace, links } = props;
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
        <table className="figures" style={{ borderCollapse: "collapse" }}>
          <caption style={{ textAlign: "left", fontWeight: "bold" }}>{table.caption}</caption>
          <thead>
            <tr>
              {table.headings.map((heading) => (
                <th key={heading} scope="col" style={CELL}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map(([label, ...cells]) => (
              <tr key={label}>
                <th scope="row" style={CELL}>
                  {label}
                </th>
                {cells.map((cell, index) => (
                  <td
                    key={index}
                    data-label={table.headings[index + 1]}
                    style={CELL}
                    colSpan={cells.length === 1 ? table.headings.length - 1 : undefined}
                  >
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {sections
          .filter((section) => section.items.length > 0)
          .map((section) => (
            <Fragment key={section.heading}>
              <h2 style={H2}>{section.heading}</h2>
              <ul>
                {section.items.map((item, index) => (
                  <li key={index}>{item}</li>
                ))}
              </ul>
            </Fragment>
          ))}
        {restated && restated.length > 0 && (
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
        <p>
          <a href={links.view} style={LINK_STYLE}>
            {links.viewText ?? "Open this view in the dashboard"}
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
