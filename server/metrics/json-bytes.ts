/**
 * JSON read straight from UTF-8 bytes, one token at a time: whitespace, strings (scanned with a
 * hash of their bytes, decoded only when asked), numbers (exact, see readNumber) and any value
 * skipped with its grammar checked. The row scanner (row-scanner.ts) is built on it.
 *
 * The bytes of JSON's structure are ASCII, and UTF-8 never uses an ASCII byte inside a multi-byte
 * character (a decoder that meets one there ends the broken character with U+FFFD and reads the
 * ASCII byte as itself), so the tokens found in the bytes are the tokens of the decoded text.
 */
import { MalformedJsonError } from "./json-array-stream";

/** Thrown when the bytes end inside a token: the caller keeps them and retries with more. */
export const NEED_MORE: unique symbol = Symbol("need more bytes");

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** String flags: an escape, a byte outside ASCII. */
export const HAS_ESCAPE = 1;
const NON_ASCII = 2;

/** 10^0 … 10^22: every one exact as a double. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
/** Mantissas with at most this many significant digits are below 2^53, exact as doubles. */
const EXACT_DIGITS = 15;

const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const malformed = (): never => {
  throw new MalformedJsonError("an element is not valid JSON");
};

const isHex = (c: number) => (c >= ZERO && c <= NINE) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

const ESCAPES = new Uint8Array(128);
for (const c of '"\\/bfnrt') ESCAPES[c.charCodeAt(0)] = 1;

/** A reader over one buffer: `pos` moves as tokens are read. */
export class JsonBytes {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;
  end = 0;
  /** The last string scanned: its content's bytes [strStart, strEnd), flags and hash. */
  strStart = 0;
  strEnd = 0;
  strFlags = 0;
  strHash = 0;
  /** Open containers while skipping a value (1: object, 2: array). */
  private stack = new Uint8Array(64);
  private readonly utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

  reset(buf: Uint8Array, pos: number): void {
    this.buf = buf;
    this.pos = pos;
    this.end = buf.length;
  }

  /** Skips JSON whitespace; returns the next byte (not consumed). */
  space(): number {
    const { buf, end } = this;
    let pos = this.pos;
    while (pos < end) {
      const c = buf[pos]!;
      if (c > 0x20 || !isJsonSpace(c)) {
        this.pos = pos;
        return c;
      }
      pos++;
    }
    this.pos = pos;
    throw NEED_MORE;
  }

  /**
   * Reads a string from its opening quote; its content is then [strStart, strEnd). Its bytes are
   * hashed only when `hashed` (a value the StringCache takes, not a key or a skipped value).
   */
  scanString(hashed = false): void {
    const { buf, end } = this;
    let pos = this.pos + 1;
    const start = pos;
    if (!hashed) {
      // The common run: plain ASCII up to the closing quote.
      let c = 0;
      while (pos < end && (c = buf[pos]!) !== QUOTE && c !== BACKSLASH && c >= 0x20 && c < 0x80) pos++;
      if (pos < end && c === QUOTE) {
        this.strStart = start;
        this.strEnd = pos;
        this.strFlags = 0;
        this.pos = pos + 1;
        return;
      }
      pos = start;
    }
    let flags = 0;
    let hash = 0x811c9dc5 | 0;
    for (;;) {
      if (pos >= end) throw NEED_MORE;
      const c = buf[pos]!;
      if (c === QUOTE) break;
      hash = Math.imul(hash ^ c, 16777619);
      if (c === BACKSLASH) {
        flags |= HAS_ESCAPE;
        if (pos + 1 >= end) throw NEED_MORE;
        const e = buf[pos + 1]!;
        hash = Math.imul(hash ^ e, 16777619);
        if (e === 0x75) {
          if (pos + 5 >= end) throw NEED_MORE;
          for (let i = pos + 2; i < pos + 6; i++) {
            if (!isHex(buf[i]!)) malformed();
            hash = Math.imul(hash ^ buf[i]!, 16777619);
          }
          pos += 6;
        } else if (e < 128 && ESCAPES[e] === 1) pos += 2;
        else malformed();
        continue;
      }
      if (c < 0x20) malformed();
      if (c >= 0x80) flags |= NON_ASCII;
      pos++;
    }
    this.strStart = start;
    this.strEnd = pos;
    this.strFlags = flags;
    this.strHash = hash;
    this.pos = pos + 1;
  }

  /** The last string scanned, decoded exactly as TextDecoder and then JSON.parse would. */
  decodeString(): string {
    const { buf, strStart, strEnd } = this;
    if (this.strFlags & HAS_ESCAPE) return JSON.parse(this.utf8.decode(buf.subarray(strStart - 1, strEnd + 1))) as string;
    if (this.strFlags & NON_ASCII) return this.utf8.decode(buf.subarray(strStart, strEnd));
    return latin1(buf, strStart, strEnd);
  }

  /**
   * Reads a number from its first byte, with JSON's grammar. When its significant digits make an
   * integer m below 2^53 and its decimal exponent k is within ±22, m and 10^|k| are exact doubles
   * and one multiplication or division rounds correctly (Clinger's fast path): the same double as
   * JSON.parse. Anything else goes through Number() on its text.
   */
  readNumber(): number {
    const { buf, end } = this;
    const start = this.pos;
    let pos = start;
    let c = buf[pos]!;
    const negative = c === MINUS;
    if (negative) {
      if (++pos >= end) throw NEED_MORE;
      c = buf[pos]!;
    }
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    if (c === ZERO) pos++;
    else if (c > ZERO && c <= NINE) {
      while (pos < end && (c = buf[pos]!) >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        pos++;
      }
    } else malformed();
    if (pos >= end) throw NEED_MORE;
    c = buf[pos]!;
    if (c === DOT) {
      const first = ++pos;
      while (pos < end && (c = buf[pos]!) >= ZERO && c <= NINE) {
        if (mantissa !== 0 || c !== ZERO) {
          mantissa = mantissa * 10 + (c - ZERO);
          digits++;
        }
        scale--;
        pos++;
      }
      if (pos >= end) throw NEED_MORE;
      if (pos === first) malformed();
    }
    if ((c | 0x20) === 0x65) {
      if (++pos >= end) throw NEED_MORE;
      c = buf[pos]!;
      let sign = 1;
      if (c === MINUS || c === PLUS) {
        if (c === MINUS) sign = -1;
        if (++pos >= end) throw NEED_MORE;
      }
      const first = pos;
      let exponent = 0;
      while (pos < end && (c = buf[pos]!) >= ZERO && c <= NINE) {
        if (exponent < 100_000) exponent = exponent * 10 + (c - ZERO);
        pos++;
      }
      if (pos >= end) throw NEED_MORE;
      if (pos === first) malformed();
      scale += sign * exponent;
    }
    this.pos = pos;
    if (digits <= EXACT_DIGITS && scale >= -22 && scale <= 22) {
      const value = scale >= 0 ? mantissa * POW10[scale]! : mantissa / POW10[-scale]!;
      return negative ? -value : value;
    }
    return Number(latin1(buf, start, pos));
  }

  /** Reads `true`, `false` or `null` from its first byte. */
  private literal(c: number): void {
    const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : malformed();
    const { buf, end } = this;
    for (let i = 0; i < word.length; i++) {
      const at = this.pos + i;
      if (at >= end) throw NEED_MORE;
      if (buf[at] !== word[i]) malformed();
    }
    this.pos += word.length;
  }

  /** Skips a scalar from its first byte `c`: a string, a number or a literal. */
  private skipScalar(c: number): void {
    if (c === QUOTE) this.scanString();
    else if (c === MINUS || (c >= ZERO && c <= NINE)) this.readNumber();
    else this.literal(c);
  }

  /** Skips any value whose first byte `c` is at `pos`, checking its grammar; true when it was null. */
  skipValue(c: number): boolean {
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      this.skipScalar(c);
      return c === 0x6e;
    }
    const [OPEN, MEMBER, AFTER] = [0, 1, 2];
    let depth = 0;
    let state = OPEN;
    for (;;) {
      if (state === OPEN) {
        if (depth === this.stack.length) {
          const grown = new Uint8Array(depth * 2);
          grown.set(this.stack);
          this.stack = grown;
        }
        this.stack[depth++] = c === OPEN_BRACE ? 1 : 2;
        this.pos++;
        c = this.space();
        if (c === (this.stack[depth - 1] === 1 ? CLOSE_BRACE : CLOSE_BRACKET)) {
          this.pos++;
          if (--depth === 0) return false;
          state = AFTER;
        } else state = MEMBER;
        continue;
      }
      if (state === MEMBER) {
        if (this.stack[depth - 1] === 1) {
          if (c !== QUOTE) malformed();
          this.scanString();
          if (this.space() !== COLON) malformed();
          this.pos++;
          c = this.space();
        }
        if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          state = OPEN;
          continue;
        }
        this.skipScalar(c);
        state = AFTER;
        continue;
      }
      c = this.space();
      if (c === COMMA) {
        this.pos++;
        c = this.space();
        state = MEMBER;
      } else if (c === (this.stack[depth - 1] === 1 ? CLOSE_BRACE : CLOSE_BRACKET)) {
        this.pos++;
        if (--depth === 0) return false;
      } else malformed();
    }
  }
}

const [TRUE, FALSE, NULL] = ["true", "false", "null"].map((word) => new TextEncoder().encode(word)) as [Uint8Array, Uint8Array, Uint8Array];

/** ASCII bytes as a string. */
function latin1(buf: Uint8Array, start: number, end: number): string {
  if (end - start > 64) return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString("latin1");
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i]!);
  return text;
}
