/**
 * CRI partial lines (issue 53). A container runtime (containerd, CRI-O) writes a line longer than its buffer as
 * several records, each tagged `P` (partial) but the last, tagged `F` (full):
 *
 *   2026-12-07T10:00:00.100000000Z stdout P {"msg":"a long
 *   2026-12-07T10:00:00.100000000Z stdout F  line"}
 *
 * The kubelet (`kubectl logs`) and Promtail's `cri` stage join them back into the line the container wrote
 * (https://github.com/kubernetes/design-proposals-archive/blob/main/node/kubelet-cri-logging.md;
 * https://grafana.com/docs/loki/latest/send-data/promtail/stages/cri/). Rule: a `P` record's text is held per
 * stream, the stream's next records' texts are appended to it, and its `F` record completes the line: one CRI line
 * with the first part's time (when the line began, as `kubectl logs --timestamps` prints it once before it) and the
 * tag `F`, the parts' texts joined as written (the runtime cut the line at a byte count, not at a space). Records of
 * the other stream pass between (stdout and stderr are written apart). Reason: read one record a row, a part is no
 * line of the program's: a JSON line cut in two is two rows that are no JSON, and a message's tail is mined as a
 * template of its own. A line still held at the end of the file (the container stopped, or the file was rotated,
 * mid-line) is kept as the line it is, and counted.
 */

/** A held line: its first record's time and stream, its parts' texts, and the number of its last record. */
interface Held {
  readonly head: string;
  text: string;
  lineNo: number;
}

export class CriJoiner {
  /** Per stream (`stdout`, `stderr`), the line it holds. */
  private readonly held = new Map<string, Held>();

  /**
   * The line a record completes: the record itself when it is whole (an `F` record, or a line of another shape,
   * left for the row reader to count), the joined line when it is the `F` of a held one; null when it is a part of
   * a line still held.
   */
  push(record: string, lineNo: number): string | null {
    // `<time> <stream> <tag> <text>`: the stream after the first space, the tag after the second.
    const s1 = record.indexOf(' ');
    const s2 = s1 < 0 ? -1 : record.indexOf(' ', s1 + 1);
    if (s2 < 0) return record;
    const partial = record.charCodeAt(s2 + 1) === 80 /* P */ && isTagEnd(record, s2 + 2);
    if (!partial && !(record.charCodeAt(s2 + 1) === 70 /* F */ && isTagEnd(record, s2 + 2))) return record;
    const stream = record.slice(s1 + 1, s2);
    const held = this.held.get(stream);
    const tagEnd = record.indexOf(' ', s2 + 1);
    const text = tagEnd < 0 ? '' : record.slice(tagEnd + 1);
    if (held === undefined) {
      if (!partial) return record;
      this.held.set(stream, { head: record.slice(0, s2), text, lineNo });
      return null;
    }
    held.text += text;
    held.lineNo = lineNo;
    if (partial) return null;
    this.held.delete(stream);
    return `${held.head} F ${held.text}`;
  }

  /** The lines still held at a file's end, each as a whole line (tag `F`), in the order their first parts came; none held after. */
  flush(): Array<{ readonly line: string; readonly lineNo: number }> {
    const out = [...this.held.values()].map((h) => ({ line: `${h.head} F ${h.text}`, lineNo: h.lineNo }));
    this.held.clear();
    return out;
  }
}

/** A tag ends at a space, at a `:` before further tags, or at the record's end. */
function isTagEnd(record: string, i: number): boolean {
  return i === record.length || record.charCodeAt(i) === 32 || record.charCodeAt(i) === 58;
}

/**
 * A file's first lines (the sample its layout is found from) with CRI partial records joined (CriJoiner); a line
 * still held at the sample's end is left out: its rest is past the sample (a JSON line's half is no record). But
 * where no line of the sample is whole (one line cut in more parts than the sample holds), the held ones are kept
 * as they are: a part still tells the layout (CRI), where nothing would.
 */
export function joinPartials(lines: readonly string[]): string[] {
  const joiner = new CriJoiner();
  const out: string[] = [];
  lines.forEach((l, i) => {
    const whole = joiner.push(l, i + 1);
    if (whole !== null) out.push(whole);
  });
  return out.length > 0 ? out : joiner.flush().map((h) => h.line);
}
