/**
 * Reads a JSON array from a byte stream in batches, without holding the whole body; memory is
 * bounded by one chunk plus one element. Each chunk is cut after its last complete element and
 * that prefix is parsed by V8's native JSON.parse, as `[` + prefix + `]`.
 *
 * Finding the cut: the fast path tries the chunk's last `}` once, which is right for ordinary
 * flat rows. When that fails (the chunk ends inside a nested object or inside a string holding a
 * `}`, or an element spans chunks), a scanner that follows depth, strings and escapes reads the
 * pending text and then only each new chunk, until an element completes. So every character is
 * scanned and parsed a bounded number of times, however large an element is.
 */

export class MalformedJsonError extends Error {}

/** An element larger than this (or a body that never parses) is refused rather than buffered. */
const MAX_PENDING_CHARS = 8 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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

/** Follows the array from a point between two elements: depth 0 is between elements. */
class Scanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether an element has started since the last cut. */
  private inElement = false;
  /** Set at the array's closing bracket. */
  ended = false;

  /** Scans the next text; returns the index just past the last complete element in it, or -1. */
  scan(text: string): number {
    let cut = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
      } else if (code === QUOTE) {
        this.inString = true;
        this.inElement = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.depth += 1;
        this.inElement = true;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.depth === 0) {
          cut = i + 1;
          this.inElement = false;
        } else if (this.depth < 0) {
          if (text.slice(i + 1).trim() !== "") throw new MalformedJsonError("text follows the array");
          this.ended = true;
          return i;
        }
      } else if (this.depth === 0) {
        // Between elements: a comma ends a scalar element; anything else but whitespace is one.
        if (code === COMMA) {
          if (this.inElement) cut = i;
          this.inElement = false;
        } else if (code > 0x20) this.inElement = true;
      }
    }
    return cut;
  }
}

class ArraySplitter {
  private started = false;
  private ended = false;
  /** Text after the last cut, in the pieces it arrived in: joined once, when an element completes. */
  private pieces: string[] = [];
  private pendingChars = 0;
  /** Present while the scanner has read all of the pending text (an element spans chunks). */
  private scanner: Scanner | undefined;

  /** Takes the next decoded text; returns the elements it completes. `last` marks the end of the body. */
  push(raw: string, last = false): unknown[] {
    if (this.ended) {
      if (raw.trim() !== "") throw new MalformedJsonError("text follows the array");
      return [];
    }
    let text = raw;
    if (!this.started) {
      text = raw.trimStart();
      if (text === "") return [];
      if (!text.startsWith("[")) throw new MalformedJsonError("expected a JSON array");
      text = text.slice(1);
      this.started = true;
    }
    if (this.scanner) return this.cut(this.scanner.scan(text), text);

    this.pieces.push(text);
    const pending = this.pieces.join("");
    this.pieces = [];
    const end = last ? -1 : pending.lastIndexOf("}");
    const batch = end === -1 ? undefined : parseSequence(withoutSeparator(pending.slice(0, end + 1)));
    if (batch) {
      this.keep(pending.slice(end + 1));
      return batch;
    }
    this.scanner = new Scanner();
    return this.cut(this.scanner.scan(pending), pending);
  }

  /** Whether the array's closing bracket has been read. */
  get complete(): boolean {
    return this.ended;
  }

  private keep(text: string) {
    this.pieces.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars > MAX_PENDING_CHARS) throw new MalformedJsonError("an element is too large or not valid JSON");
  }

  /** Parses the pending text up to `at` in `text` (the scanner's cut), keeping the rest. */
  private cut(at: number, text: string): unknown[] {
    if (at === -1) {
      this.keep(text);
      return [];
    }
    const sequence = withoutSeparator(this.pieces.join("") + text.slice(0, at)).trim();
    this.ended = this.scanner?.ended ?? false;
    this.scanner = undefined;
    this.pieces = [];
    this.pendingChars = 0;
    if (!this.ended) this.keep(text.slice(at));
    if (sequence === "") return [];
    const batch = parseSequence(sequence);
    if (!batch) throw new MalformedJsonError("an element is not valid JSON");
    return batch;
  }
}

/**
 * The bytes of an array body, pushed as they arrive, turned into the elements they complete: the
 * same reading as readJsonArray, synchronously, for a caller that is handed chunks (a worker thread).
 */
export class JsonArrayDecoder {
  private readonly decoder = new TextDecoder();
  private readonly splitter = new ArraySplitter();

  push(chunk: Uint8Array): unknown[] {
    return this.splitter.push(this.decoder.decode(chunk, { stream: true }));
  }

  /** The elements the end of the body completes. */
  end(): unknown[] {
    return this.splitter.push(this.decoder.decode(), true);
  }

  /** Throws MalformedJsonError when the body ended before the array closed. */
  checkComplete(): void {
    if (!this.splitter.complete) throw new MalformedJsonError("the array ended early");
  }
}

/** Decodes an array body into batches of parsed elements; throws MalformedJsonError on bad JSON. */
export async function* readJsonArray(body: AsyncIterable<Uint8Array>): AsyncGenerator<unknown[]> {
  const decoder = new JsonArrayDecoder();
  for await (const chunk of body) {
    const batch = decoder.push(chunk);
    if (batch.length > 0) yield batch;
  }
  const batch = decoder.end();
  if (batch.length > 0) yield batch;
  decoder.checkComplete();
}
