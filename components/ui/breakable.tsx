import { Fragment } from "react";

/** Separators after which an address, an e-mail or an ID may break; never inside a word. */
const SEPARATOR = /([./@_\-:?&=#+])/;
/** A run this long without a separator (a hash, a token) is cut short on screen, whole on hover and focus. */
const LONG_RUN = 24;

/** The text in pieces that each end after a separator, as in a printed URL. */
export function breakablePieces(text: string): string[] {
  const parts: string[] = [];
  for (const part of text.split(SEPARATOR)) {
    if (part === "") continue;
    if (SEPARATOR.test(part) && parts.length > 0) parts[parts.length - 1] += part;
    else parts.push(part);
  }
  return parts;
}

/**
 * A URL, e-mail address or ID that may wrap only after its own separators (dots, slashes,
 * "@"…), so "northwindoutfitters.com" never shows as "northwindoutfitt / ers.com". A piece too
 * long for any line (a hash) is truncated with an ellipsis; the whole value is its title, and
 * the piece opens in full when it has the focus.
 */
export function Breakable({ text, className = "" }: { text: string; className?: string }) {
  const parts = breakablePieces(text);
  const long = parts.some((part) => part.length > LONG_RUN);
  return (
    <span className={`break-normal ${className}`} title={long ? text : undefined}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part.length > LONG_RUN ? (
            <span
              tabIndex={0}
              className="inline-block max-w-full truncate align-bottom focus:whitespace-normal focus:[overflow-wrap:anywhere]"
            >
              {part}
            </span>
          ) : (
            part
          )}
        </Fragment>
      ))}
    </span>
  );
}
