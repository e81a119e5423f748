/**
 * Reads a JSON array of objects from a byte stream in batches, without holding the whole
 * body. Each chunk is decoded and cut after its last complete element: the cut is found by
 * letting JSON.parse accept `[` + prefix + `]`, which it does only when the prefix is a whole
 * sequence of elements. Parsing thus stays in V8's native parser, and memory is bounded by
 * one chunk plus one element.
 */

export class MalformedJsonError extends Error {}

/** An element larger than this (or a body that never parses) is refused rather than buffered. */
const MAX_PENDING_CHARS = 8 * 1024 * 1024;

function parseSequence(sequence: string): unknown[] | undefined {
  try {
    return JSON.parse(`[${sequence}]`) as unknown[];
  } catch {
    return undefined;
  }
}

/** Strips the comma that separates the previous element from this text. */
function withoutSeparator(text: string): string {
  const trimmed = text.trimStart();
  return trimmed.startsWith(",") ? trimmed.slice(1) : trimmed;
}

/** Decodes an array body into batches of parsed elements; throws MalformedJsonError on bad JSON. */
export async function* readJsonArray(body: AsyncIterable<Uint8Array>): AsyncGenerator<unknown[]> {
  const decoder = new TextDecoder();
  let pending = "";
  let started = false;

  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    if (!started) {
      const trimmed = pending.trimStart();
      if (trimmed === "") continue;
      if (!trimmed.startsWith("[")) throw new MalformedJsonError("expected a JSON array");
      pending = trimmed.slice(1);
      started = true;
    }
    // Try the last `}` first; one inside a string or a nested object fails to parse, so step back.
    for (let end = pending.lastIndexOf("}"); end !== -1; end = pending.lastIndexOf("}", end - 1)) {
      const batch = parseSequence(withoutSeparator(pending.slice(0, end + 1)));
      if (batch) {
        pending = pending.slice(end + 1);
        if (batch.length > 0) yield batch;
        break;
      }
    }
    if (pending.length > MAX_PENDING_CHARS) throw new MalformedJsonError("an element is too large or not valid JSON");
  }

  const rest = (pending + decoder.decode()).trim();
  if (!started || !rest.endsWith("]")) throw new MalformedJsonError("the array ended early");
  const tail = withoutSeparator(rest.slice(0, -1)).trim();
  if (tail === "") return;
  const batch = parseSequence(tail);
  if (!batch) throw new MalformedJsonError("an element is not valid JSON");
  yield batch;
}
