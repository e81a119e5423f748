import "server-only";
import { EmailDocument, LINK_STYLE } from "@/server/email/document";

const CELL = { padding: "6px 10px", borderBottom: "1px solid #ddd", textAlign: "left" } as const;
const HEADINGS = ["Range, against", "Revenue", "Orders", "Units", "Average order value"];

/** A digest of several stores: what it shows, one table row per store (or why a store has no figures), the totals per currency. */
export function PortfolioEmail(props: {
  subject: string;
  shows: string;
  rows: string[][];
  totals: string;
  leftOut: string;
  links: { view: string; unsubscribe: string };
}) {
  return (
    <EmailDocument title={props.subject}>
      <main>
        <h1 style={{ fontSize: "20px" }}>All stores</h1>
        <p>{props.shows}</p>
        <table style={{ borderCollapse: "collapse" }}>
          <caption style={{ textAlign: "left", fontWeight: "bold" }}>Key figures by store, each in its own currency</caption>
          <thead>
            <tr>
              {["Store", ...HEADINGS].map((heading) => (
                <th key={heading} scope="col" style={CELL}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map(([store, ...cells]) => (
              <tr key={store}>
                <th scope="row" style={CELL}>
                  {store}
                </th>
                {cells.map((text, index) => (
                  <td key={index} style={CELL} colSpan={cells.length === 1 ? HEADINGS.length : undefined}>
                    {text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <strong>Totals per currency, never converted:</strong> {props.totals || "none"}
        </p>
        {props.leftOut && <p>{props.leftOut}</p>}
        <p>
          <a href={props.links.view} style={LINK_STYLE}>
            Open All stores in the dashboard
          </a>
        </p>
      </main>
      <footer>
        <p style={{ fontSize: "13px", color: "#444" }}>
          You receive this because a colleague scheduled this digest.{" "}
          <a href={props.links.unsubscribe} style={LINK_STYLE}>
            Unsubscribe from this digest
          </a>
        </p>
      </footer>
    </EmailDocument>
  );
}
