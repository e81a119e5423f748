/**
 * Canonicalizes the path the browser asked for (everything after /api/v1) into decoded segments, refusing anything that could name another
 * path once decoded or re-encoded: empty segments (`//`), `.` and `..` in any encoding, slashes or backslashes inside a segment (`%2F`,
 * `%5C`), control characters, and malformed percent-encoding.
 */
type CanonicalPath = { ok: true; segments: string[] } | { ok: false; reason: string };

const MAX_PATH_LENGTH = 2048;

export function canonicalizePath(rawPath: string): CanonicalPath {
  if (rawPath.length > MAX_PATH_LENGTH) return { ok: false, reason: "path is too long" };
  if (rawPath.includes("\\")) return { ok: false, reason: "path contains a backslash" };
  const trimmed = rawPath.startsWith("/") ? rawPath.slice(1) : rawPath;
  if (trimmed === "") return { ok: false, reason: "path is empty" };
  const segments: string[] = [];
  for (const raw of trimmed.split("/")) {
    if (raw === "") return { ok: false, reason: "path has an empty segment" };
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return { ok: false, reason: "path has malformed percent-encoding" };
    }
    if (decoded === "." || decoded === "..") return { ok: false, reason: "path has a dot segment" };
    if (/[/\\]/.test(decoded)) return { ok: false, reason: "path segment contains a slash" };
    // A decoded "%" would only matter to an upstream that decodes twice; no store URL or ID has one.
    if (decoded.includes("%")) return { ok: false, reason: "path is encoded more than once" };
    if (/[\u0000-\u001f\u007f]/.test(decoded)) return { ok: false, reason: "path contains control characters" };
    segments.push(decoded);
  }
  return { ok: true, segments };
}
