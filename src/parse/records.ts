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
