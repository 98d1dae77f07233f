/** mulberry32: a small seeded PRNG so a device with the same seed and inputs behaves the same every run. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  hex(digits: number): string {
    let s = '';
    while (s.length < digits) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}

/** A stable 7-hex-digit identity like the object hashes in dumpsys output, derived from a name. */
export function identityHash(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return (h >>> 4).toString(16).padStart(7, '0');
}
