/**
 * Product metric rows (contract 2.4) read straight from a body's bytes, as they arrive in chunks:
 * the same rows, and the same errors, as JsonArrayDecoder followed by isMetricRow, without
 * decoding the body to text or parsing each row with JSON.parse.
 *
 * Each element's keys are matched by their bytes; the row's ten properties are read (strings
 * through a StringCache, numbers exactly: json-bytes.ts) and any other property's value is skipped
 * with its grammar checked. A key written with escapes is decoded and matched by name; a key given
 * twice keeps its last value, as JSON.parse does. Every element goes to `onRow` in one row object,
 * reused for the next: a consumer keeps its strings and numbers, never the object.
 *
 * An element cut by the end of a chunk is kept from its first byte; later chunks are only scanned
 * for its end (depth, strings and escapes), then it is read once, whole. So each byte is read a
 * bounded number of times however large an element is, and at most MAX_PENDING_BYTES are held.
 */
import type { MetricRow } from "./aggregate";
import { MalformedJsonError } from "./json-array-stream";
import { ElementEnd } from "./element-end";
import { HAS_ESCAPE, JsonBytes, NEED_MORE } from "./json-bytes";
import { RowShapeError } from "./row-sums";
import { StringCache } from "./string-cache";

// Bytes of JSON's structure. Constants of this module's own: read through another module's
// exports, as the sources run under tsx, each would be a property read on the hot path.
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** An element larger than this is refused rather than buffered (JsonArrayDecoder's bound, in bytes). */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/** The row's properties, by index: the first six are required, the last four optional strings. */
const FIELDS = ["date", "channel", "product_id", "orders", "units", "revenue", "ad_id", "product_name", "product_sku", "currency"] as const;
const FIELD_BYTES = FIELDS.map((name) => new TextEncoder().encode(name));
const FIELD_BY_NAME = new Map<string, number>(FIELDS.map((name, index) => [name, index]));
/** The first field of each name length, and the next field of the same length (-1: none). */
const BY_LENGTH = new Int8Array(16).fill(-1);
const NEXT_OF_LENGTH = new Int8Array(FIELDS.length).fill(-1);
for (let field = FIELDS.length - 1; field >= 0; field--) {
  NEXT_OF_LENGTH[field] = BY_LENGTH[FIELDS[field]!.length]!;
  BY_LENGTH[FIELDS[field]!.length] = field;
}
const REQUIRED = 0b111111;
const isNumberField = (field: number) => field >= 3 && field <= 5;

/** Where the scanner is in the array. */
const enum At {
  /** Before the opening bracket. */
  Start,
  /** Just after the opening bracket: an element or the closing bracket. */
  First,
  /** After a comma: an element. */
  Next,
  /** After an element: a comma or the closing bracket. */
  After,
  /** After the closing bracket: only whitespace. */
  Ended,
}

/** Whitespace that JavaScript's trim() removes, in ASCII: allowed around the array, as JsonArrayDecoder allows it. */
const isEdgeSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

type RowHandler = (row: MetricRow) => void;

export class RowScanner {
  private at = At.Start;
  private readonly reader = new JsonBytes();
  private readonly strings = new StringCache();
  private readonly row: MetricRow = {
    date: "",
    channel: "",
    product_id: "",
    orders: 0,
    units: 0,
    revenue: 0,
    ad_id: undefined,
    product_name: undefined,
    product_sku: undefined,
    currency: undefined,
  };
  /** The bytes of an element cut by the end of a chunk, from its first byte, and their length. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly elementEnd = new ElementEnd();
  /** Text outside JSON's whitespace before or after the array, which JavaScript's trim() may still allow. */
  private readonly edge = new TextDecoder();

  /** Reads the next bytes of the body, handing each row they complete to `onRow`. */
  push(chunk: Uint8Array, onRow: RowHandler): void {
    if (this.pendingBytes === 0) return this.read(chunk, 0, onRow);
    if (!this.elementEnd.found) this.elementEnd.scan(chunk);
    this.pending.push(chunk.slice());
    this.pendingBytes += chunk.length;
    if (!this.elementEnd.found) return this.checkPending();
    const whole = new Uint8Array(this.pendingBytes);
    let at = 0;
    for (const piece of this.pending) {
      whole.set(piece, at);
      at += piece.length;
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.read(whole, 0, onRow);
  }

  /** At the end of the body: checks what followed the array. */
  end(): void {
    this.checkEdge(this.edge.decode());
  }

  /** Throws MalformedJsonError when the body ended before the array closed. */
  checkComplete(): void {
    if (this.at !== At.Ended) throw new MalformedJsonError("the array ended early");
  }

  private read(buf: Uint8Array, from: number, onRow: RowHandler): void {
    const reader = this.reader;
    reader.reset(buf, from);
    let element = -1;
    try {
      for (;;) {
        if (this.at === At.Start || this.at === At.Ended) {
          const first = this.readEdge(buf, reader.pos);
          if (first === -1) return;
          reader.pos = first;
          continue;
        }
        const c = reader.space();
        if (this.at === At.After) {
          reader.pos++;
          if (c === COMMA) this.at = At.Next;
          else if (c === CLOSE_BRACKET) this.at = At.Ended;
          else throw new MalformedJsonError("an element is not valid JSON");
          continue;
        }
        if (c === CLOSE_BRACKET && this.at === At.First) {
          reader.pos++;
          this.at = At.Ended;
          continue;
        }
        element = reader.pos;
        if (c !== OPEN_BRACE) {
          reader.skipValue(c);
          throw new RowShapeError("a row in an unexpected shape");
        }
        this.readRow();
        element = -1;
        this.at = At.After;
        onRow(this.row);
      }
    } catch (error) {
      if (error !== NEED_MORE) throw error;
      if (element !== -1) this.keep(buf, element);
    }
  }

  /** Keeps an element cut by the end of the bytes, from its first byte. */
  private keep(buf: Uint8Array, from: number) {
    const piece = buf.slice(from);
    this.pending = [piece];
    this.pendingBytes = piece.length;
    this.elementEnd.begin();
    this.elementEnd.scan(piece);
    this.checkPending();
  }

  private checkPending() {
    if (this.pendingBytes > MAX_PENDING_BYTES) throw new MalformedJsonError("an element is too large or not valid JSON");
  }

  /** Reads one object from its opening brace into `row`; throws RowShapeError when it is not a row. */
  private readRow(): void {
    const { reader, row } = this;
    row.ad_id = row.product_name = row.product_sku = row.currency = undefined;
    let seen = 0;
    let bad = 0;
    reader.pos++;
    let c = reader.space();
    if (c !== CLOSE_BRACE) {
      for (;;) {
        if (c !== QUOTE) throw new MalformedJsonError("an element is not valid JSON");
        reader.scanString();
        const field = this.fieldOf();
        if (reader.space() !== COLON) throw new MalformedJsonError("an element is not valid JSON");
        reader.pos++;
        c = reader.space();
        if (field !== -1) {
          const bit = 1 << field;
          seen |= bit;
          if (this.readField(field, c)) bad &= ~bit;
          else bad |= bit;
        } else reader.skipValue(c);
        c = reader.space();
        if (c === CLOSE_BRACE) break;
        if (c !== COMMA) throw new MalformedJsonError("an element is not valid JSON");
        reader.pos++;
        c = reader.space();
      }
    }
    reader.pos++;
    if ((seen & REQUIRED) !== REQUIRED || bad !== 0) throw new RowShapeError("a row in an unexpected shape");
  }

  /** The index of the key just scanned among FIELDS, or -1. */
  private fieldOf(): number {
    const { buf, strStart, strEnd, strFlags } = this.reader;
    // A key with escapes may still spell a field's name; one outside ASCII cannot.
    if (strFlags !== 0) return strFlags & HAS_ESCAPE ? (FIELD_BY_NAME.get(this.reader.decodeString()) ?? -1) : -1;
    const length = strEnd - strStart;
    if (length >= BY_LENGTH.length) return -1;
    // The fields of this length (at most two), told apart by their bytes.
    for (let field = BY_LENGTH[length]!; field !== -1; field = NEXT_OF_LENGTH[field]!) {
      const name = FIELD_BYTES[field]!;
      let i = 0;
      while (i < length && name[i] === buf[strStart + i]) i++;
      if (i === length) return field;
    }
    return -1;
  }

  /** Reads a row property's value from its first byte `c`; false when it has the wrong type. */
  private readField(field: number, c: number): boolean {
    const { reader, row } = this;
    if (isNumberField(field)) {
      if (c !== 0x2d && (c < 0x30 || c > 0x39)) return (reader.skipValue(c), false);
      const value = reader.readNumber();
      if (field === 3) row.orders = value;
      else if (field === 4) row.units = value;
      else row.revenue = value;
      return Number.isFinite(value);
    }
    let value: string | null;
    if (c === QUOTE) {
      reader.scanString(true);
      value = this.strings.take(reader);
    } else if (reader.skipValue(c) && field >= 6) value = null;
    else return false;
    switch (field) {
      case 0:
        row.date = value!;
        break;
      case 1:
        row.channel = value!;
        break;
      case 2:
        row.product_id = value!;
        break;
      case 6:
        row.ad_id = value;
        break;
      case 7:
        row.product_name = value;
        break;
      case 8:
        row.product_sku = value;
        break;
      default:
        row.currency = value;
    }
    return true;
  }

  /**
   * Before the opening bracket or after the closing one: whitespace, and the bracket itself.
   * Returns where the array's elements begin, or -1 at the end of the bytes.
   */
  private readEdge(buf: Uint8Array, from: number): number {
    let i = from;
    for (; i < buf.length; i++) {
      const c = buf[i]!;
      if (c >= 0x80) {
        let j = i + 1;
        while (j < buf.length && buf[j]! >= 0x80) j++;
        this.checkEdge(this.edge.decode(buf.subarray(i, j), { stream: true }));
        i = j - 1;
        continue;
      }
      if (isEdgeSpace(c)) continue;
      if (c === OPEN_BRACKET && this.at === At.Start) {
        this.checkEdge(this.edge.decode());
        this.at = At.First;
        return i + 1;
      }
      throw new MalformedJsonError(this.at === At.Start ? "expected a JSON array" : "text follows the array");
    }
    return -1;
  }

  private checkEdge(text: string) {
    if (text.trim() !== "") throw new MalformedJsonError(this.at === At.Start ? "expected a JSON array" : "text follows the array");
  }
}
