/**
 * The end of a JSON element whose bytes arrive in pieces: the row scanner (row-scanner.ts) keeps an
 * element cut by the end of a chunk and scans only each new chunk for its end, so each byte is
 * scanned once however large the element is.
 */
// Constants of this module's own, as in row-scanner.ts: read through another module's exports under tsx, each would be a property read.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Follows an element kept across chunks until its end: depth, strings and escapes. */
export class ElementEnd {
  found = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  private started = false;

  begin() {
    this.found = this.inString = this.escaped = this.scalar = this.started = false;
    this.depth = 0;
  }

  scan(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (!this.started) {
        this.started = true;
        this.scalar = c !== OPEN_BRACE && c !== OPEN_BRACKET && c !== QUOTE;
      }
      if (this.scalar) {
        // A number or a literal ends at the first byte that cannot continue it.
        const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
        if (!letter && !(c >= 0x30 && c <= 0x39) && c !== 0x2b && c !== 0x2d && c !== 0x2e) return void (this.found = true);
      } else if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.depth === 0) return void (this.found = true);
        }
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--this.depth <= 0) return void (this.found = true);
      }
    }
  }
}
