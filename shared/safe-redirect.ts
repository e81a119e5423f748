// The home: a user with one store opens on its numbers, with several on the list of stores.
const FALLBACK = "/";
const BASE = "http://dashboard.invalid";
const MAX_LENGTH = 2048;

/** Percent-decodes until nothing changes (at most a few rounds), or undefined when malformed. */
function fullyDecoded(value: string): string | undefined {
  let current = value;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/** Where to go after sign-in: a path on this site only, judged after decoding and normalizing, so no encoding can lead off the site. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > MAX_LENGTH) return FALLBACK;
  const decoded = fullyDecoded(next);
  if (decoded === undefined) return FALLBACK;
  for (const candidate of [next, decoded]) {
    if (!candidate.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(candidate)) return FALLBACK;
  }
  try {
    // Both the value as sent and as decoded must stay on this site once resolved.
    for (const candidate of [decoded, next]) {
      const url = new URL(candidate, BASE);
      if (url.origin !== BASE || url.pathname.startsWith("//")) return FALLBACK;
    }
    const url = new URL(next, BASE);
    const path = url.pathname;
    if (path === "/sign-in" || path.startsWith("/sign-in/") || path.startsWith("/api/")) return FALLBACK;
    return `${path}${url.search}${url.hash}`;
  } catch {
    return FALLBACK;
  }
}
