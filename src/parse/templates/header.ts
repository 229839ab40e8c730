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

/** Most leading id fields (pid, tid) a header has. */
const MAX_IDS = 3;
const INTEGER = /^\d+$/;

/**
 * How many whitespace-separated integers open the messages of a file's sample (the lines without their
 * timestamps): the most k ≤ 3 such that at least 90 % of them open with k integers. Reason: a process and a
 * thread id after the time (Android `03-17 16:13:38.811  1702  2395 D WindowManager: …`, HDFS
 * `081109 203615 148 INFO …`) are masked to `<*>` anyway, and in front they take the first levels of Drain's
 * tree, so that short messages of one header shape merge; a message opening with a number on nine lines in ten
 * is a header's.
 */
export function learnLeadingIds(messages: readonly string[]): number {
  const timed = messages.filter((m) => m.trim().length > 0);
  if (timed.length === 0) return 0;
  const runs = timed.map((m) => {
    const tokens = m.trim().split(/\s+/, MAX_IDS + 1);
    let n = 0;
    // (At least one token must be left for the message.)
    while (n < MAX_IDS && n < tokens.length - 1 && INTEGER.test(tokens[n] as string)) n++;
    return n;
  });
  for (let k = MAX_IDS; k >= 1; k--) {
    if (runs.filter((n) => n >= k).length * 10 >= timed.length * 9) return k;
  }
  return 0;
}

/** The message without up to `ids` leading integers (and the spaces after them). */
export function dropLeadingIds(message: string, ids: number): string {
  let at = 0;
  const n = message.length;
  for (let k = 0; k < ids; k++) {
    let i = at;
    while (i < n && (message.charCodeAt(i) === 32 || message.charCodeAt(i) === 9)) i++;
    let j = i;
    while (j < n && message.charCodeAt(j) >= 48 && message.charCodeAt(j) <= 57) j++;
    if (j === i || (j < n && message.charCodeAt(j) !== 32 && message.charCodeAt(j) !== 9) || j === n) break;
    at = j;
  }
  return at === 0 ? message : message.slice(at);
}
