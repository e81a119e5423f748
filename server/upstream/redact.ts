import "server-only";

/** Upstream text may quote what it was sent: before it reaches a response, log or table, the key and anything key-shaped is replaced. */
const REDACTED = "[redacted]";

/** Key-shaped words: a known prefix (sk_, rk_, pk_, key_, api_…) and a long tail, or a bearer credential. */
const KEY_SHAPED = /\b(?:sk|rk|pk|ak|key|api[_-]?key|secret|token)[_-][A-Za-z0-9_-]{10,}|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `text` with known secrets (raw, URL-encoded or JSON-escaped) replaced, and with `keyShaped` every key-shaped word. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = [], { keyShaped = true } = {}): string {
  let cleaned = text;
  for (const secret of knownSecrets) {
    if (secret.length < 4) continue;
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) cleaned = cleaned.replace(new RegExp(escapeRegExp(form), "gi"), REDACTED);
  }
  return keyShaped ? cleaned.replace(KEY_SHAPED, REDACTED) : cleaned;
}
