import "server-only";
import { Fragment, type ReactElement, type ReactNode } from "react";

/*
 * Every e-mail and the page the unsubscribe link opens are React components rendered to static
 * HTML here, with one escaping function for every text and attribute. Not react-dom/server: the
 * server runs under the "react-server" export condition (Next.js route handlers, `npm run dev`,
 * the CLI), where react-dom/server refuses to load ("not supported in React Server Components").
 * The output is the markup renderToStaticMarkup gives for these components (render.test.ts compares).
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** A text as it may stand in HTML, in an element or an attribute. */
export const escapeText = (value: string) => value.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const ATTRIBUTE_NAMES: Record<string, string> = { className: "class", htmlFor: "for", httpEquiv: "http-equiv" };

function styleText(style: Record<string, string | number | undefined>): string {
  return Object.entries(style)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([name, value]) => `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}:${String(value).trim()}`)
    .join(";");
}

function attributes(props: Record<string, unknown>): string {
  let out = "";
  for (const [name, value] of Object.entries(props)) {
    if (name === "children" || value === undefined || value === null || value === false || typeof value === "function") continue;
    const shown = name === "style" ? styleText(value as Record<string, string | number>) : value === true ? "" : String(value);
    if (name === "style" && !shown) continue;
    out += ` ${ATTRIBUTE_NAMES[name] ?? name}="${escapeText(shown)}"`;
  }
  return out;
}

interface Element {
  type: unknown;
  props: Record<string, unknown> & { children?: ReactNode };
}

const isElement = (node: unknown): node is Element =>
  typeof node === "object" && node !== null && "$$typeof" in node && "type" in node && "props" in node;

function render(node: ReactNode | unknown): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number" || typeof node === "bigint") return escapeText(String(node));
  if (Array.isArray(node)) return node.map(render).join("");
  if (!isElement(node)) throw new Error("An e-mail holds only elements, text and numbers.");
  const { type, props } = node;
  if (type === Fragment) return render(props.children);
  if (typeof type === "function") return render((type as (props: unknown) => ReactNode)(props));
  if (typeof type !== "string") throw new Error("An e-mail's components are plain functions.");
  return VOID.has(type) ? `<${type}${attributes(props)}/>` : `<${type}${attributes(props)}>${render(props.children)}</${type}>`;
}

/** A document's HTML, with its doctype. */
export function renderHtml(document: ReactElement): string {
  return `<!doctype html>${render(document)}`;
}

export const LINK_STYLE = { color: "#3730a3" } as const;

/** The frame of a message: language, charset, title, readable type on a white ground. */
/**
 * Below 480 px (a phone's mail app, the Outbox on a phone) a table of figures reads as one block
 * per row, each value under its column's name: no column is cut. No ">" or quotes here: the
 * text is escaped like any other, and a style element does not decode entities.
 */
const NARROW_TABLES = `@media (max-width: 480px) {
  table.figures, table.figures caption, table.figures tbody, table.figures tr, table.figures th, table.figures td { display: block; width: auto; }
  table.figures thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.figures tr { border-bottom: 1px solid #ddd; padding: 6px 0; }
  table.figures th, table.figures td { border: 0 !important; padding: 2px 0 !important; }
  table.figures td::before { content: attr(data-label); display: block; font-size: 12px; color: #444; }
}`;

export function EmailDocument({ title, children, page = false }: { title: string; children?: ReactNode; page?: boolean }) {
  return (
    <html lang="en">
      {/* eslint-disable-next-line @next/next/no-head-element -- an e-mail's own document, not a Next.js page */}
      <head>
        <meta charSet="utf-8" />
        {page && <meta name="viewport" content="width=device-width, initial-scale=1" />}
        <title>{title}</title>
        <style>{NARROW_TABLES}</style>
      </head>
      <body
        style={{
          fontFamily: "system-ui,sans-serif",
          color: "#111",
          background: "#fff",
          lineHeight: 1.5,
          ...(page ? { maxWidth: "36rem", margin: "3rem auto", padding: "0 1rem" } : {}),
        }}
      >
        {children}
      </body>
    </html>
  );
}
