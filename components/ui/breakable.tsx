import { Fragment } from "react";

/** Separators after which an address, an e-mail or an ID may break; never inside a word. */
const SEPARATOR = /([./@_\-:?&=#+])/;
/** A run this long without a separator (a hash, a long ID) may break every so many characters. */
const LONG_RUN = 16;

function pieces(text: string): string[] {
  const parts: string[] = [];
  for (const part of text.split(SEPARATOR)) {
    if (part === "") continue;
    if (SEPARATOR.test(part)) {
      // The separator stays on the line it ends, as in a printed URL.
      if (parts.length > 0) parts[parts.length - 1] += part;
      else parts.push(part);
      continue;
    }
    for (let start = 0; start < part.length; start += LONG_RUN) parts.push(part.slice(start, start + LONG_RUN));
  }
  return parts;
}

/**
 * A URL, e-mail address or ID that may wrap only after its own separators (dots, slashes,
 * "@"…), so "northwindoutfitters.com" never shows as "northwindo / utfitters.co / m".
 */
export function Breakable({ text, className = "" }: { text: string; className?: string }) {
  const parts = pieces(text);
  return (
    <span className={`break-normal ${className}`}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
