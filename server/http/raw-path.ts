import "server-only";

/**
 * What is wrong with a request's raw path, before anything decodes or resolves it: malformed percent-encoding, or a dot segment in any
 * encoding (`%2E%2e`), which a URL parser would resolve into another path. Browsers never send either.
 */
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
