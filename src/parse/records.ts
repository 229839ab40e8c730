/**
 * The three records every log line becomes after translation (SPEC §1), with
 * the paper's API names: setInstance, logEventTime, logStateValue.
 */
export interface RecordSink {
  /**
   * Following records belong to instance `id` (the paper's setInstance),
   * optionally of a `kind` (a request type; SPEC §2 "Instance kinds").
   */
  instance(id: string, kind?: string): void;
  /** Event `name` happened at time `t` seconds (logEventTime). */
  event(t: number, name: string): void;
  /** State variable `name` held `value` at time `t` seconds (logStateValue). */
  state(t: number, name: string, value: number): void;
  /**
   * Optional: event variable `name` is a span's (its start, end or reply:
   * parse/spans.ts), said once before its records. Its waits (`gap`,
   * `gap.after`, `wait`) are measured among span records only, and a log
   * line's among log lines only (docs/method.md, "Waits within one source").
   * A sink between a reader and the collector passes it on.
   */
  eventFromSpans?(name: string): void;
  /**
   * Optional fast lane for readers that parse names from bytes: the same
   * records as `event`/`state`, with the names numbered once (see RecordIntake).
   * A sink that sees every record itself (counting, joining, translating) has none.
   */
  readonly intake?: RecordIntake | undefined;
}

/**
 * Records by variable number: `eventVariable(name)` / `stateVariable(name)`
 * number a name (in order of first appearance, as `event`/`state` would), and
 * `records` takes a batch of records in input order, as if each were given to
 * `event`/`state`: record i is event variable code[i] at t[i] when code[i] ≥ 0,
 * else state variable −1−code[i] at t[i] with value v[i] (v[i] of an event is
 * 0). Lets a reader cache a name's number by its bytes and hand records over
 * in typed arrays: no name, lookup or call per record.
 */
export interface RecordIntake {
  /**
   * Events are not wanted (a pass that reads states only): a reader may skip
   * event lines without parsing them. Any it gives are ignored.
   */
  readonly statesOnly?: boolean;
  /**
   * The file being read may have its rest read by another thread
   * (parse/tail-help.ts): asked before each of its chunks until it is offered.
   * A sink that holds the records of instances named by `I` records says no:
   * their files (requests) would stop the helper at their first line.
   */
  readonly splittable?: boolean;
  eventVariable(name: string): number;
  stateVariable(name: string): number;
  /** The first n records of the arrays (which the reader reuses after the call). */
  records(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void;
}

/**
 * Thrown by a sink's endFile when what it made of the file as it was read
 * cannot stand (a run summarized as it was read, whose records turned out out
 * of order: features/streamed.ts): the reader reads the file again, its
 * counts as if it had been read once (readClass), and the sink then takes its
 * records the usual way. The sink kept nothing of the first reading.
 */
export class RereadFile extends Error {
  constructor(readonly path: string) {
    super(`${path}: to be read again`);
  }
}

/** Where a raw line came from: passed to translators and used in error messages. */
export interface LineContext {
  /** The file's path as given on the command line (or `-` for stdin). */
  readonly file: string;
  /** The file's path relative to its class root: the default instance id. */
  readonly relativePath: string;
  /** 1-based line number within the file. */
  readonly line: number;
  /** The class the file belongs to. */
  readonly className: ClassName;
}

export type ClassName = 'good' | 'bad';
export const CLASS_NAMES: readonly ClassName[] = ['good', 'bad'];
