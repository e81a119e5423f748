/**
 * Reads a JSON array of objects from a byte stream in batches, without holding the whole
 * body: each chunk is scanned for the ends of top-level elements (tracking only nesting
 * and strings), and the complete ones are handed to JSON.parse together, so parsing stays
 * in V8's fast path while memory stays bounded by one chunk plus one element.
 */

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export class MalformedJsonError extends Error {}

/** Decodes an array body into batches of parsed elements; throws MalformedJsonError on bad JSON. */
export async function* readJsonArray(body: AsyncIterable<Uint8Array>): AsyncGenerator<unknown[]> {
  const decoder = new TextDecoder();
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  let finished = false;
  /** Bytes of elements not yet parsed: the tail of earlier chunks. */
  let pending: Uint8Array[] = [];

  for await (const chunk of body) {
    let batchEnd = -1;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (!started) {
          if (byte !== OPEN_BRACKET) throw new MalformedJsonError("expected a JSON array");
          started = true;
        }
        depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 1) batchEnd = index + 1;
        else if (depth === 0) {
          finished = true;
          batchEnd = index;
        } else if (depth < 0) throw new MalformedJsonError("unbalanced brackets");
      } else if (byte === COMMA && depth === 1) batchEnd = index;
    }
    if (batchEnd === -1) {
      pending.push(chunk);
      continue;
    }
    const text = decoder.decode(concat([...pending, chunk.subarray(0, batchEnd)]), { stream: false });
    pending = batchEnd < chunk.length ? [chunk.slice(batchEnd)] : [];
    const batch = parseElements(text);
    if (batch.length > 0) yield batch;
  }
  if (!started || !finished || depth !== 0 || inString) throw new MalformedJsonError("the array ended early");
  const rest = decoder.decode(concat(pending)).trim();
  if (rest !== "" && rest !== "]") throw new MalformedJsonError("unexpected content after the array");
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** `text` holds whole elements separated by commas, maybe with the array's `[` in front. */
function parseElements(text: string): unknown[] {
  let body = text.trim();
  if (body.startsWith("[")) body = body.slice(1);
  if (body.startsWith(",")) body = body.slice(1);
  if (body.trim() === "") return [];
  try {
    const parsed: unknown = JSON.parse(`[${body}]`);
    return parsed as unknown[];
  } catch {
    throw new MalformedJsonError("an element is not valid JSON");
  }
}
