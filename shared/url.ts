/**
 * The one way the dashboard builds a path: every segment encoded (so no value can add a
 * segment or a query), then the query of the values that are set.
 */
export function buildPath(segments: readonly string[], query: Readonly<Record<string, string | undefined>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") search.set(name, value);
  const suffix = search.size > 0 ? `?${search}` : "";
  return `/${segments.map(encodeURIComponent).join("/")}${suffix}`;
}
