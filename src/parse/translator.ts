import type { LineContext, RecordSink } from './records.js';

/**
 * A translator turns a system's raw log lines into records (SPEC §1).
 * Two shapes reach the reader:
 *  - `lines`: called once per raw line, inside the streaming reader; it calls the
 *    sink for each record the line yields and returns whether it mapped the line
 *    (unmapped lines are counted and reported, never silently dropped).
 *  - `executable`: the reader runs the program once per raw file and parses its
 *    standard output as dlog records.
 */
export type Translator = LineTranslator | ExecutableTranslator;

export interface LineTranslator {
  readonly type: 'lines';
  /** The translator file's path, for error messages. */
  readonly path: string;
  /** Called when a raw file starts (before its first line). */
  beginFile?(ctx: Omit<LineContext, 'line'>, sink: RecordSink): void;
  /** Translate one raw line (without its line terminator). Returns true when mapped. */
  translateLine(line: string, ctx: LineContext, sink: RecordSink): boolean;
  /**
   * A file's records without reading it, when the translator holds them already (templates/index.ts: the mining
   * pass kept each line's time, key and numbers); called after beginFile. Gives the lines and bytes reading the file
   * would have counted, or null: read it line by line.
   */
  translateFile?(ctx: Omit<LineContext, 'line'>, sink: RecordSink): { readonly lines: number; readonly bytes: number } | null;
  /** Called when a raw file ends. */
  endFile?(ctx: Omit<LineContext, 'line'>, sink: RecordSink): void;
  /** How many lines each rule matched, for `distalyze translate`'s summary. */
  ruleCounts?(): ReadonlyMap<string, number>;
  /**
   * After translateLine returned false: why, when a rule matched the line but
   * could not use it (e.g. "matched a rule but had no timestamp in the format
   * 'syslog'"); null when no rule matched.
   */
  whyUnmapped?(): string | null;
}

export interface ExecutableTranslator {
  readonly type: 'executable';
  readonly path: string;
  /** argv to run for one raw file (the file's path is already in it). */
  command(file: string): { readonly cmd: string; readonly args: readonly string[] };
}
