/**
 * Strings decoded once per distinct run of bytes: a product-rows body repeats its dates, channels,
 * product IDs, names, SKUs and currencies on every row. A direct-mapped table keyed by the bytes'
 * hash (JsonBytes.scanString's), confirmed by comparing the bytes; a collision replaces the entry.
 * The same bytes always decode to the same string, so a hit returns what decoding would.
 */
import type { JsonBytes } from "./json-bytes";

const SLOTS = 4096;
/** Longer strings are decoded each time (rare in rows, and they would crowd the table). */
const MAX_BYTES = 64;

export class StringCache {
  private readonly keys: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
  private readonly values: string[] = new Array<string>(SLOTS).fill("");

  /** The string `reader` last scanned, decoded. */
  take(reader: JsonBytes): string {
    const { buf, strStart, strEnd } = reader;
    const length = strEnd - strStart;
    if (length > MAX_BYTES) return reader.decodeString();
    const slot = (reader.strHash ^ (reader.strHash >>> 12)) & (SLOTS - 1);
    const key = this.keys[slot];
    if (key !== undefined && key.length === length) {
      let same = true;
      for (let i = 0; i < length; i++)
        if (key[i] !== buf[strStart + i]) {
          same = false;
          break;
        }
      if (same) return this.values[slot]!;
    }
    const text = reader.decodeString();
    this.keys[slot] = buf.slice(strStart, strEnd);
    this.values[slot] = text;
    return text;
  }
}
