/**
 * Seeded randomness. Every piece of demo data comes from here (never Math.random), so the
 * same seed and the same request always give the same bytes.
 */

/** cyrb53-style string hash folded to 32 bits: cheap, well mixed, stable across runs. */
function hashString(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

function seedFrom(...parts: Array<string | number>): number {
  return hashString(parts.join("|"));
}

/** mulberry32: tiny and fast, plenty for synthetic data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static from(...parts: Array<string | number>): Rng {
    return new Rng(seedFrom(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += String(Math.floor(this.next() * 10));
    return out;
  }

  hex(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  /** Fisher–Yates on a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy;
  }
}

/** Weighted choice by binary search over cumulative weights (hot path of row generation). */
export class WeightedPicker<T> {
  readonly values: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    if (entries.length === 0) throw new Error("a weighted picker needs at least one entry");
    this.values = entries.map(([value]) => value);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, weight], index) => {
      sum += weight;
      this.cumulative[index] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): T {
    const target = rng.next() * this.total;
    const cumulative = this.cumulative;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) > target) high = mid;
      else low = mid + 1;
    }
    return this.values[low] as T;
  }
}
