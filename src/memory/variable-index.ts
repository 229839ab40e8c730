import { tooManyVariables } from './limits.js';

/** Interned variable names of one log kind, in order of first appearance. */
export class VariableIndex {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();
  /** At most this many names (the CLI sets it from the heap size): one more is an InputError, not an out-of-memory abort. */
  limit = Infinity;

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      if (this.names.length >= this.limit) throw tooManyVariables(this.names, this.limit);
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  has(name: string): boolean {
    return this.ids.has(name);
  }

  indexOf(name: string): number {
    return this.ids.get(name) ?? -1;
  }
}
