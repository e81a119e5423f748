/** Field names and status values of the upstream, read as words. */

const ACRONYMS = new Set(["id", "url", "ip", "sku", "gtin", "api", "utc"]);

/** "productCount" → "Product count", "feed_url" → "Feed URL", "campaign_paused" → "Campaign paused". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  if (words.length === 0) return key;
  const [first = "", ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}

/** A status value as words: `campaign_paused` → "Campaign paused", `ACTIVE` → "Active". */
export function statusWords(value: string): string {
  return /^[A-Za-z\d]+([_\-\s][A-Za-z\d]+)*$/.test(value.trim()) ? fieldLabel(value.trim()) : value;
}

/** Whether a number under a time-like key is an instant: epoch ms or seconds of a date between 1973 and 5138 (as tracking dates). */
export function epochOf(key: string, value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 1e8) return undefined;
  if (!/(time|at|date|timestamp)$/i.test(key)) return undefined;
  return value < 1e11 ? value * 1000 : value;
}

const LOOPBACK = new Set(["::1", "127.0.0.1", "::ffff:127.0.0.1", "localhost"]);

/** A client address as people read it: loopback is "this computer", a mapped IPv4 loses its IPv6 prefix. */
export function addressWords(address: string | null | undefined): string {
  const value = address?.trim() ?? "";
  if (!value) return "Unknown address";
  if (LOOPBACK.has(value.toLowerCase()) || /^127\./.test(value) || /^::ffff:127\./i.test(value)) return "this computer";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  return mapped?.[1] ?? value;
}
