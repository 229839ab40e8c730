import { InputError } from '../errors.js';
import type { RecordSink } from './records.js';
import { parseDecimal, parseTimestamp } from './timestamp.js';

export type LineKind = 'record' | 'ignored' | 'not-a-record';

/**
 * Parse one line of the native record format ("dlog", SPEC §1):
 *   I<TAB>id[<TAB>kind] | E<TAB>t<TAB>name | S<TAB>t<TAB>name<TAB>value | # comment | blank.
 * A line with a record tag but a bad field (timestamp, value, missing name) is a
 * broken record and throws InputError; a line that is no record at all returns
 * 'not-a-record' for the caller to count (or reject under --strict).
 */
export function parseDlogLine(line: string, sink: RecordSink, file: string, lineNo: number): LineKind {
  const tag = line.charCodeAt(0);
  if (line.length === 0 || tag === 35 /* # */) return 'ignored';
  if (line.charCodeAt(1) !== 9 /* TAB */) return isBlank(line) ? 'ignored' : 'not-a-record';
  if (tag === 69 /* E */) {
    const t2 = line.indexOf('\t', 2);
    if (t2 === -1) throw new InputError('event record needs a timestamp and a name: E<TAB>t<TAB>name', file, lineNo);
    const t = timestamp(line.slice(2, t2), file, lineNo);
    const name = line.slice(t2 + 1);
    if (name.length === 0) throw new InputError('event record has an empty name', file, lineNo);
    sink.event(t, name);
    return 'record';
  }
  if (tag === 83 /* S */) {
    const t2 = line.indexOf('\t', 2);
    const t3 = t2 === -1 ? -1 : line.lastIndexOf('\t');
    if (t3 <= t2) throw new InputError('state record needs a timestamp, a name and a value: S<TAB>t<TAB>name<TAB>value', file, lineNo);
    const t = timestamp(line.slice(2, t2), file, lineNo);
    const name = line.slice(t2 + 1, t3);
    if (name.length === 0) throw new InputError('state record has an empty name', file, lineNo);
    const valueText = line.slice(t3 + 1);
    const value = parseDecimal(valueText);
    if (Number.isNaN(value)) {
      throw new InputError(`state '${clip(name)}' has value '${clip(valueText)}', not a finite decimal number`, file, lineNo);
    }
    sink.state(t, name, value);
    return 'record';
  }
  if (tag === 73 /* I */) {
    const tab = line.indexOf('\t', 2);
    const id = tab < 0 ? line.slice(2) : line.slice(2, tab);
    if (id.length === 0) throw new InputError('instance record has an empty id', file, lineNo);
    if (tab < 0) sink.instance(id);
    else {
      const kind = line.slice(tab + 1);
      if (kind.length === 0) throw new InputError(`instance record '${clip(id)}' has an empty kind after its TAB`, file, lineNo);
      sink.instance(id, kind);
    }
    return 'record';
  }
  return 'not-a-record';
}

function timestamp(text: string, file: string, lineNo: number): number {
  const t = parseTimestamp(text);
  if (Number.isNaN(t)) {
    throw new InputError(`timestamp '${clip(text)}' is neither decimal seconds nor ISO-8601`, file, lineNo,
      'e.g. 1763632801.25 or 2026-11-20T10:00:01.250Z');
  }
  return t;
}

function isBlank(line: string): boolean {
  return line.trim().length === 0;
}

/** A field quoted in an error message: short, and with control characters made visible. */
export function clip(text: string, max = 60): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  // eslint-disable-next-line no-control-regex
  return shown.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
