/**
 * A text log's header, learned per file from its lines (issue 53): what stands between the timestamp and the
 * message in a way the tokenizer would get wrong. For now one shape: fields joined by `|` instead of spaces
 * (HealthApp: `20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579`), where the process id would be
 * glued to the message's first word (`|Step_LSC|30002312|onStandStepChanged` is one token, masked whole for its
 * digits). The header's bars are read as spaces, so component and pid are tokens of their own.
 */

/** Most header fields joined by `|`. */
const MAX_PIPES = 4;

/**
 * How many `|` open the messages (the lines without their timestamps) of a file's sample: the number of leading
 * `|`-separated fields without spaces that at least 90 % of the messages starting with `|` have, when that is
 * at least 90 % of them; 0 otherwise. Reason: a header field (component, pid, thread) holds no space, a message
 * does; a separator a tenth of the lines lack is not the file's.
 */
export function learnPipes(messages: readonly string[]): number {
  const timed = messages.filter((m) => m.length > 0);
  if (timed.length === 0) return 0;
  const counts = timed.map((m) => {
    if (m.charCodeAt(0) !== 124 /* | */) return 0;
    let n = 0;
    let at = 0;
    while (n < MAX_PIPES && m.charCodeAt(at) === 124) {
      const next = m.indexOf('|', at + 1);
      if (next < 0 || /\s/.test(m.slice(at + 1, next))) { n++; break; }
      n++;
      at = next;
    }
    return n;
  });
  for (let k = MAX_PIPES; k >= 1; k--) {
    if (counts.filter((n) => n >= k).length * 10 >= timed.length * 9) return k;
  }
  return 0;
}

/** The message with its first `pipes` bars read as spaces. */
export function unpipe(message: string, pipes: number): string {
  let out = message;
  let at = 0;
  for (let k = 0; k < pipes; k++) {
    at = out.indexOf('|', at);
    if (at < 0) break;
    out = `${out.slice(0, at)} ${out.slice(at + 1)}`;
  }
  return out;
}
