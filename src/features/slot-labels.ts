/**
 * Per instance slot, its class and its kind, in typed arrays: a collector
 * gives a million slots each, and an array of a million strings grown one
 * push at a time cost ~25 ms per array on the thread that gathers every
 * slot, plus its copies and marking by the GC (docs/internals.md,
 * "Memory").
 */
import type { ClassName } from '../parse/records.js';
import { GrowableInt32 } from '../memory/growable.js';

/** Each slot's class. */
export class SlotClasses {
  private readonly codes = new GrowableInt32();

  at(slot: number): ClassName {
    return this.codes.data[slot] === 1 ? 'bad' : 'good';
  }

  /** `n` more slots of class `c`. */
  push(c: ClassName, n = 1): void {
    this.codes.repeat(c === 'bad' ? 1 : 0, n);
  }

  /** Room for `n` slots in all (see GrowableInt32.reserve). */
  reserve(n: number): void {
    this.codes.reserve(n);
  }

  includes(c: ClassName): boolean {
    const code = c === 'bad' ? 1 : 0;
    const { data, length } = this.codes;
    for (let s = 0; s < length; s++) if (data[s] === code) return true;
    return false;
  }

  clear(): void {
    this.codes.clear();
  }
}

/** Each slot's kind (the one its `I` record gave), or null: numbered by name. */
export class SlotKinds {
  private readonly codes = new GrowableInt32();
  private readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Slots that have a kind. */
  private given = 0;

  at(slot: number): string | null {
    const code = this.codes.data[slot] as number;
    return code < 0 ? null : (this.names[code] as string);
  }

  push(kind: string | null): void {
    if (kind === null) {
      this.codes.push(-1);
      return;
    }
    let code = this.numbers.get(kind);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(kind);
      this.numbers.set(kind, code);
    }
    this.codes.push(code);
    this.given++;
  }

  /** `n` more slots without a kind. */
  pushNone(n: number): void {
    this.codes.repeat(-1, n);
  }

  /** Room for `n` slots in all (see GrowableInt32.reserve). */
  reserve(n: number): void {
    this.codes.reserve(n);
  }

  /** Whether some slot has a kind. */
  any(): boolean {
    return this.given > 0;
  }

  toArray(): (string | null)[] {
    return Array.from({ length: this.codes.length }, (_, s) => this.at(s));
  }

  clear(): void {
    this.codes.clear();
    this.given = 0;
  }
}
