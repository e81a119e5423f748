import "server-only";

/** A raw path's problem before decoding: malformed percent-encoding or a dot segment in any encoding (browsers never send either). */
export function rawPathProblem(rawUrl: string | undefined): string | null {
  const path = (rawUrl ?? "/").split("?")[0]!;
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "the path has malformed percent-encoding";
    }
    if (decoded === "." || decoded === "..") return "the path has a dot segment";
  }
  return null;
}
