/**
 * Finding the message before mining it (issue 53): the layout of a raw log
 * file that is a table — CSV or TSV with a header row, JSON Lines, logfmt (Go's
 * slog text handler, logrus, Heroku: `time=… level=INFO msg="…" k=v`), and a
 * JSON object inside a table cell (as Kubernetes and Docker export a
 * container's line) — and the role of each column: time, message, level, entity (the
 * component: service, pod, container, host, node), trace (request) id, span id.
 *
 * Roles are found from the header names and from the values of the first
 * sample rows; each rule states the reason it holds for a format (docs/input.md,
 * "Raw logs, no translator", lists them; docs/method.md, "Template mining", their evidence). A column of times or ids is never a
 * measured value: only the message is mined (templates/index.ts).
 */
import { InputError } from '../errors.js';
import { joinPartials } from './cri-partial.js';
import { makeTimeFormat, type TimeFormat } from './translators/time-formats.js';
import { ENTITY_NAMES, LEVEL_NAME, LOGGER_NAME, MESSAGE_NAME, normal, SPAN_NAME, statementField, TIME_NAME, TRACE_NAME } from './column-names.js';
import { cellText, flatObject, jsonFields, jsonMessage, jsonRow, logfmtMessage, logfmtPairs, logfmtRow, parseObject, type LogfmtPair } from './fields.js';
import { isOtlpLogs, OTLP_FLATTEN, otlpSample } from './otlp.js';

/** The role of a column. */
export type ColumnRole = 'time' | 'message' | 'level' | 'entity' | 'trace' | 'span' | 'id' | 'other';

/** A file's table layout: how a row splits and which column holds what (-1: none). */
export interface TableLayout {
  readonly kind: 'csv' | 'tsv' | 'jsonl' | 'logfmt' | 'cri';
  /** Column names: the header row's, or JSON Lines' or logfmt's keys in order of first appearance in the sample. */
  readonly columns: readonly string[];
  readonly time: number;
  /** The time column's format (a name or format string of time-formats.ts). */
  readonly timeFormat: string;
  readonly message: number;
  /**
   * Further message columns, read in order where the row's message cell is empty (Cloud Logging writes a line's
   * text in `textPayload` or in `jsonPayload.message`); [] for one.
   */
  readonly messageAlt: readonly number[];
  /** The field of a JSON object in the message cell that holds the line (`log`, `message`, `msg`), or ''. */
  readonly messageField: string;
  /**
   * The layout of the message cell when it is a record of its own (a JSON object, or a logfmt line with a message
   * key, in every sampled row): its level, entity and trace stand for the row's where the row has none.
   */
  readonly cell?: TableLayout;
  /** The entity the file's name gives (a kubelet container log's pod: criLayout), for rows with none. */
  readonly fileEntity?: string;
  /**
   * With no message column (message −1): the columns that make the message, joined by spaces. logfmt: the keys
   * with no role, whose `key=value` pairs follow the message (keys not in the sample too: logfmtMessage).
   */
  readonly rest: readonly number[];
  /**
   * JSON Lines with a message field: the sampled fields whose `key=value` pairs follow the message (jsonMessage);
   * absent when none. Fields first seen after the sample follow it too, by the same rules.
   */
  readonly pairs?: readonly number[];
  /** Whether the level column holds pino's and bunyan's numbers (10 trace … 60 fatal): columnLevel. */
  readonly numericLevels?: boolean;
  /** JSON Lines: the fields never a pair (roles, and the sampled columns of a place: pairFields). */
  readonly notPairs?: readonly string[];
  readonly level: number;
  readonly entity: number;
  /**
   * The finest column naming where a line comes from (of the entity columns that vary, the one with the most values:
   * a pod before its service), whose raw values name instances when no request id does; −1 for none.
   */
  readonly source: number;
  readonly trace: number;
  readonly span: number;
  /**
   * A column whose every sampled value is a code location (go-kit's `caller=head.go:1290`, slog's `source=`, zap's
   * `caller`): it names each line's log statement, which qualifies the names of the line's mined template (index.ts
   * emit); absent: none.
   */
  readonly statement?: number;
  /** OTLP/JSON logs: a line is a LogsData object whose log records are the rows, each read as JSON Lines (otlp.ts). */
  readonly otlp?: true;
}

/** Options that name a column instead of detecting it (the CLI's --message-column, --entity-column, ...). */
export interface ColumnOverrides {
  readonly messageColumn?: string;
  readonly entityColumn?: string;
  readonly traceColumn?: string;
  readonly timeColumn?: string;
}

// ---------------------------------------------------------------------------
// Splitting rows

/**
 * The fields of a CSV/TSV row (RFC 4180: a quoted field may hold the
 * delimiter and doubled quotes), or null for a row whose quotes do not close
 * (a line cut by a newline inside a quoted field, or two writes interleaved).
 */
export function splitDelimited(line: string, delimiter: number): string[] | null {
  const out: string[] = [];
  const n = line.length;
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === 34 /* " */) {
      let field = '';
      let from = i + 1;
      for (;;) {
        const q = line.indexOf('"', from);
        if (q < 0) return null;
        if (line.charCodeAt(q + 1) === 34) {
          field += line.slice(from, q + 1);
          from = q + 2;
          continue;
        }
        field += line.slice(from, q);
        i = q + 1;
        break;
      }
      out.push(field);
      if (i >= n) return out;
      if (line.charCodeAt(i) !== delimiter) return null;
      i++;
    } else {
      const d = line.indexOf(String.fromCharCode(delimiter), i);
      if (d < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, d));
      i = d + 1;
    }
    if (i === n) {
      out.push('');
      return out;
    }
  }
}

/** The keys of a logfmt layout that have a role (not in the message's pairs). */
export function logfmtRoleKeys(layout: TableLayout): Set<string> {
  return new Set(layout.columns.filter((_, c) => !layout.rest.includes(c)));
}

/** A row's fields by the layout (null: a row that cannot be read, counted by the caller). */
export function rowFields(line: string, layout: TableLayout): string[] | null {
  if (layout.kind === 'jsonl') return jsonRow(line, layout.columns);
  if (layout.kind === 'cri') return criRow(line);
  if (layout.kind === 'logfmt') {
    const pairs = logfmtPairs(line);
    return pairs === null || pairs.length === 0 ? null : logfmtRow(pairs, layout.columns);
  }
  const fields = splitDelimited(line, layout.kind === 'csv' ? 44 : 9);
  // A row of another width is two writes interleaved, or a cut line: not guessed at.
  return fields !== null && fields.length === layout.columns.length ? fields : null;
}

// ---------------------------------------------------------------------------
// Detecting

/** Fields of a JSON cell that hold the line (Docker json-file and Kubernetes write `log`; most loggers `message`/`msg`). */
const MESSAGE_FIELDS = ['log', 'message', 'msg', 'MESSAGE', 'body', 'text'];
const LEVEL_WORDS = new Set(['TRACE', 'DEBUG', 'INFO', 'NOTICE', 'WARN', 'WARNING', 'ERROR', 'ERR', 'FATAL', 'CRITICAL', 'CRIT', 'SEVERE', 'ALERT', 'EMERG', 'FINE', 'FINER', 'FINEST', 'CONFIG']);
/** Time formats a time column is tried against (epochs by their digit count, then ISO). */
// (`MMM d, yyyy @ HH:mm:ss.SSS`: Kibana's default dateFormat, which its CSV reports write.)
const COLUMN_TIME_FORMATS = ['epoch-ns', 'epoch-us', 'epoch-ms', 'epoch-s', 'iso8601', 'yyyy-MM-dd HH:mm:ss,SSS', 'yyyy-MM-dd HH:mm:ss.SSS', 'yyyy/MM/dd HH:mm:ss', 'dd/MMM/yyyy:HH:mm:ss Z', 'MMM d, yyyy @ HH:mm:ss.SSS'];
const MIN_TIME = 631152000; // 1990
const MAX_TIME = 4102444800; // 2100


/**
 * How well a column's name says a role: 0 when the whole name matches, k when the name without its first k
 * `.`-separated parts does (`_source.log.level` → 1 for `log.level`), −1 when none. Reason: a nested field's path
 * says where it sits, its last parts what it is (`resource.labels.pod_name`, `kubernetes.pod.name`); the
 * shallowest match is the record's own (`message` before `error.message`).
 */
function nameDepth(re: RegExp, name: string): number {
  const parts = name.split('.');
  for (let k = 0; k < parts.length; k++) if (re.test(normal(parts.slice(k).join('.')))) return k;
  return -1;
}

/** Of the columns, the one whose name says the role best (nameDepth; the first of equals), or −1. */
function bestNamed(re: RegExp, columns: readonly string[], among: readonly number[]): number {
  let best = -1;
  let bestDepth = Infinity;
  for (const c of among) {
    const d = nameDepth(re, columns[c] as string);
    if (d >= 0 && d < bestDepth) {
      best = c;
      bestDepth = d;
    }
  }
  return best;
}

/**
 * A file that is not one record a line, as a one-line error naming the file and a command that makes it so: a JSON
 * document spread over lines (`[`, `{` alone, as `gcloud logging read --format=json` and `aws logs
 * filter-log-events` print) holds records across lines. Read as lines, it gives a wrong answer (no time), not an
 * error. (OTLP/JSON logs, many records a line, are read: otlp.ts.)
 */
function notOneRecordALine(file: string, sample: readonly string[]): void {
  const first = (sample[0] as string).trim();
  // (A document: its first line opens it, and its lines are JSON's, each opening with a quote, a bracket, a brace or
  // a value; a text log that opens with a `{` line has lines of its own after.)
  const head = sample.slice(0, 50).map((l) => l.trim()).filter((l) => l !== '');
  const jsonish = head.filter((l) => /^(?:["{}[\]]|(?:-?\d[\d.eE+-]*|true|false|null),?$)/.test(l)).length;
  if ((first === '[' || first === '{' || /^\{\s*"[^"]*"\s*:\s*[[{]$/.test(first)) && jsonish * 10 >= head.length * 9) {
    // (OTLP/JSON printed over lines, as opentelemetry-proto's examples are: one LogsData a line is read, otlp.ts.)
    throw new InputError('a JSON document over several lines, not one record a line', file, undefined, head.slice(0, 3).some(isOtlpLogs) || /^"resourceLogs"/.test(head[1] ?? '')
      ? 'give one LogsData object a line, as the collector\'s file exporter writes OTLP/JSON: jq -c . FILE'
      : "give one JSON object a line (JSON Lines), e.g. jq -c '.[]' FILE, or jq -c '.events[]' FILE for aws logs filter-log-events");
  }
}

/**
 * Kubernetes CRI log lines (containerd, CRI-O: `/var/log/containers/*.log`, `/var/log/pods/…`):
 * `<RFC 3339 time> <stdout|stderr> <P|F> <the container's line>`. Reason: the runtime frames every line so,
 * whatever the container writes; the stream and the tag are the runtime's, and the container's own line (with
 * its own header, level and time) is the message. A `P` (partial) record is a piece of a line over the runtime's
 * buffer, joined with the stream's next records up to its `F` before it is read (cri-partial.ts).
 */
const CRI_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) (stdout|stderr) ([PF](?::[^ ]*)?) ?(.*)$/;

/**
 * The kubelet names a container's log `/var/log/containers/<pod>_<namespace>_<container>-<container id>.log`, a link
 * to `/var/log/pods/<namespace>_<pod>_<pod uid>/<container>/<restart>.log`: the pod is the file's entity (its
 * replica suffix dropped as a pod column's is).
 */
const KUBELET_FILE = /(?:^|\/)([a-z0-9][-a-z0-9.]*)_[a-z0-9][-a-z0-9]*_[a-z0-9][-a-z0-9]*-[0-9a-f]{64}\.log(?:\.gz)?$/;
const KUBELET_POD_DIR = /(?:^|\/)[a-z0-9][-a-z0-9]*_([a-z0-9][-a-z0-9.]*)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[^/]+\/\d+\.log(?:\.[\w.]+)?$/;

/** A CRI line's time, stream, tag and line, or null. */
function criRow(line: string): string[] | null {
  const m = CRI_LINE.exec(line);
  return m === null ? null : [m[1] as string, m[2] as string, m[3] as string, m[4] as string];
}

function criLayout(file: string, name: string, sample: readonly string[], overrides: ColumnOverrides): TableLayout | null {
  const head = sample.slice(0, 50);
  if (!CRI_LINE.test(head[0] as string) || head.filter((l) => CRI_LINE.test(l)).length * 10 < head.length * 9) return null;
  // (Partial records joined as the reading joins them: cri-partial.ts.)
  const rows = joinPartials(head).map(criRow).filter((r): r is string[] => r !== null);
  const layout = assignRoles(file, 'cri', ['time', 'stream', 'tag', 'log'], rows, { messageColumn: 'log', ...overrides });
  const pod = KUBELET_FILE.exec(name)?.[1] ?? KUBELET_POD_DIR.exec(name)?.[1];
  return pod === undefined || layout.entity >= 0 ? layout : { ...layout, fileEntity: serviceOf(pod) };
}

/**
 * The table layout of a file from its first lines (the header and sample rows), or null when the file is not a
 * table: JSON Lines (most sample lines are JSON objects), or a .csv/.tsv (or a first line with the delimiter
 * between 3+ names) whose header names its columns and whose rows have its width. `name` is the file's name
 * (an extension hints the delimiter). Throws an InputError naming the option when an override names no column.
 */
export function detectTable(file: string, name: string, lines: readonly string[], overrides: ColumnOverrides = {}): TableLayout | null {
  const sample = lines.filter((l) => l.trim() !== '');
  if (sample.length === 0) return null;
  const plain = name.replace(/\.gz$/i, '').toLowerCase();
  // OTLP/JSON logs: each line's log records are the rows, read as JSON Lines records (otlp.ts says why and how).
  if (isOtlpLogs(sample[0] as string)) {
    const { columns, rows } = jsonTable(otlpSample(sample));
    if (rows.length === 0) throw new InputError('OTLP/JSON logs with no log record that can be read in the first lines (a line over 1 MiB is skipped)', file, undefined, `flatten them to one record a line: ${OTLP_FLATTEN}`);
    // (The resource's service.name is the entity even where it is constant and a pod or host varies: OpenTelemetry
    // requires it of every resource, naming the service whatever replicas run it.)
    const service = columns.includes('resource.service.name') ? { entityColumn: 'resource.service.name' } : {};
    return { ...assignRoles(file, 'jsonl', columns, rows, { ...service, ...overrides }), otlp: true };
  }
  notOneRecordALine(file, sample);
  const cri = criLayout(file, name, sample, overrides);
  if (cri !== null) return cri;
  const objects = sample.slice(0, 50).map((l) => {
    const o = parseObject(l);
    return o === null ? null : flatObject(o);
  });
  if (objects.filter((o) => o !== null).length * 2 > objects.length && (sample[0] as string).trimStart().startsWith('{')) {
    const { columns, rows } = jsonTable(objects.filter((o): o is Record<string, unknown> => o !== null));
    return assignRoles(file, 'jsonl', columns, rows, overrides);
  }
  // logfmt (not in a .csv/.tsv): more than half of the first 50 lines are 2+ `key=value` pairs and nothing else, as
  // for JSON Lines (a text log's line has a header or prose besides its pairs; the other lines, a panic's stack,
  // are rows that cannot be read, counted).
  const pairs = plain.endsWith('.csv') || plain.endsWith('.tsv') ? [] : sample.slice(0, 50).map(logfmtPairs);
  const read = pairs.filter((p): p is LogfmtPair[] => p !== null && p.length >= 2);
  if (read.length * 2 > pairs.length && pairs.length > 0) {
    const { columns, rows } = logfmtTable(read);
    return assignRoles(file, 'logfmt', columns, rows, overrides);
  }
  const tsv = plain.endsWith('.tsv') || (!plain.endsWith('.csv') && headerLike(sample[0] as string, 9));
  const csv = !tsv && (plain.endsWith('.csv') || headerLike(sample[0] as string, 44));
  if (!tsv && !csv) return null;
  const delimiter = tsv ? 9 : 44;
  const columns = splitDelimited(sample[0] as string, delimiter)?.map((c) => c.trim());
  if (columns === undefined || columns.length < 2 || columns.some((c) => c === '' || /^[-+]?\d/.test(c))) return null;
  const split = sample.slice(1, 51).map((l) => splitDelimited(l, delimiter));
  const rows = split.filter((r): r is string[] => r !== null && r.length === columns.length);
  // Without a .csv/.tsv name, a table only if nine rows in ten have the header's width (a text log's first line
  // may hold commas).
  if (rows.length === 0 || (!plain.endsWith('.csv') && !plain.endsWith('.tsv') && rows.length * 10 < split.length * 9)) return null;
  return assignRoles(file, tsv ? 'tsv' : 'csv', columns, rows, overrides);
}

/** A first line that looks like a header: 3+ fields split by the delimiter, each a name (a letter first, no spaces). */
function headerLike(line: string, delimiter: number): boolean {
  const f = line.split(String.fromCharCode(delimiter));
  return f.length >= 3 && f.every((x) => /^"?[A-Za-z_@][\w.@-]*"?$/.test(x));
}

/** The time format every non-empty value of a column parses by (plausibly, whole), or null. */
export function columnTimeFormat(values: readonly string[]): string | null {
  const filled = values.filter((v) => v !== '');
  if (filled.length === 0) return null;
  for (const spec of COLUMN_TIME_FORMATS) {
    const format = makeTimeFormat(spec, { year: 2000 });
    if (filled.every((v) => timeOf(v, format) !== null)) return spec;
  }
  return null;
}

function timeOf(value: string, format: TimeFormat): number | null {
  const t = format.parse(value, 0);
  return Number.isFinite(t) && t >= MIN_TIME && t < MAX_TIME && format.end === value.length ? t : null;
}

/** Ids: hex of 8+ digits, UUIDs (a request or span id as tracers write them). */
const ID_VALUE = /^(?:[0-9a-fA-F]{8,}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

function assignRoles(file: string, kind: TableLayout['kind'], columns: readonly string[], rows: readonly string[][], overrides: ColumnOverrides): TableLayout {
  const names = columns.map(normal);
  const values = columns.map((_, c) => rows.map((r) => (r[c] ?? '').trim()));
  const distinct = values.map((v) => new Set(v.filter((x) => x !== '')).size);
  const filled = values.map((v) => v.filter((x) => x !== '').length);
  const taken = new Set<number>();
  const named = (option: string, wanted: string | undefined): number | undefined => {
    if (wanted === undefined) return undefined;
    const i = columns.indexOf(wanted);
    const j = i >= 0 ? i : names.indexOf(normal(wanted));
    const what = kind === 'logfmt' ? 'key' : 'column';
    if (j < 0) throw new InputError(`${option} ${wanted}: no such ${what} (${what}s: ${columns.join(', ')})`, file);
    taken.add(j);
    return j;
  };
  const forcedTime = named('--time-column', overrides.timeColumn);
  const forcedMessage = named('--message-column', overrides.messageColumn);
  const forcedEntity = named('--entity-column', overrides.entityColumn);
  const forcedTrace = named('--trace-column', overrides.traceColumn);
  const free = (c: number): boolean => !taken.has(c);

  // Time: a column whose every value is a plausible time (epoch by its digits, or ISO), a time name first.
  // Reason: exporters write one row per line with its time in a column; a time is never measured.
  const formats = values.map((v) => columnTimeFormat(v));
  const timeColumns = columns.map((_, c) => c).filter((c) => formats[c] !== null);
  const timeNamed = bestNamed(TIME_NAME, columns, timeColumns);
  const time = forcedTime ?? (timeNamed >= 0 ? timeNamed : timeColumns[0] ?? -1);
  if (forcedTime !== undefined && formats[forcedTime] === null) throw new InputError(`--time-column ${overrides.timeColumn}: its values are not times (${values[forcedTime]?.[0] ?? ''})`, file);
  for (const c of timeColumns) taken.add(c);

  // Ids: values of 8+ hex digits or UUIDs. Reason: tracers write trace and span ids so; an id is never measured.
  const ids = columns.map((_, c) => c).filter((c) => free(c) && filled[c] as number > 0 && (values[c] as string[]).every((v) => v === '' || ID_VALUE.test(v)));
  const all = columns.map((_, c) => c);
  const idTrace = bestNamed(TRACE_NAME, columns, ids);
  const trace = forcedTrace ?? (idTrace >= 0 ? idTrace : bestNamed(TRACE_NAME, columns, all.filter(free)));
  if (trace >= 0) taken.add(trace);
  const span = bestNamed(SPAN_NAME, columns, ids.filter(free));
  if (span >= 0) taken.add(span);
  for (const c of ids) taken.add(c);

  // Statement: a column whose every sampled row holds a code location (codeLocation). Reason: it names the log
  // statement exactly (as LOCATION does at a message's head); left in the message it is masked (`caller=<*>`), and
  // two statements writing the same message merge.
  const statement = columns.findIndex((_, c) => free(c) && filled[c] === rows.length && (values[c] as string[]).every((v) => codeLocation(v) !== null));
  if (statement >= 0) taken.add(statement);

  // Message: a named column (the JSON cell's `log`/`message`/`msg` field if it is JSON), else the longest free-text
  // column (spaces in most values). Reason: it is the line the program wrote; the other columns are the exporter's.
  // A table with no such column is a structured event (`service,span,phase,duration_ms`): its message is the
  // columns left once time, ids, level and entity are set apart, in order.
  const avgLength = (c: number): number => (values[c] as string[]).reduce((n, v) => n + v.length, 0) / Math.max(1, rows.length);
  const textColumns = columns.map((_, c) => c).filter((c) => free(c) && formats[c] === null);
  // (Not a column of numbers: ECS's `log.origin.file.line` is named like a message and holds a line number.)
  const numbers = (c: number): boolean => (filled[c] as number) > 0 && (values[c] as string[]).every((v) => v === '' || /^-?\d+(?:\.\d+)?$/.test(v));
  const messageNamed = textColumns.filter((c) => nameDepth(MESSAGE_NAME, columns[c] as string) >= 0 && (c === forcedMessage || !numbers(c)))
    .sort((a, b) => nameDepth(MESSAGE_NAME, columns[a] as string) - nameDepth(MESSAGE_NAME, columns[b] as string) || a - b);
  let message = forcedMessage ?? messageNamed[0] ?? -1;
  const messageAlt = forcedMessage === undefined ? messageNamed.slice(1) : [];
  for (const c of messageAlt) taken.add(c);
  if (message < 0) {
    const prose = textColumns.filter((c) => (values[c] as string[]).filter((v) => /\S\s+\S/.test(v)).length * 2 > rows.length);
    for (const c of prose) if (message < 0 || avgLength(c) > avgLength(message)) message = c;
  }
  if (message >= 0) taken.add(message);
  let messageField = '';
  const cells = message < 0 ? [] : (values[message] as string[]).filter((v) => v !== '');
  const objects = cells.map(parseObject);
  if (cells.length > 0 && objects.every((o) => o !== null)) {
    messageField = MESSAGE_FIELDS.find((f) => objects.every((o) => typeof (o as Record<string, unknown>)[f] === 'string')) ?? '';
  }
  // A cell that is a record of its own (Docker's or Loki's line as the program wrote it: JSON, or logfmt with a
  // message key): its fields get roles as a JSON Lines' or logfmt file's do, and stand for the row's missing ones.
  // Reason: a collector wraps the program's line in its own record; the program's trace id and level are in the line.
  const cell = kind === 'logfmt' ? undefined : cellLayout(file, cells, objects);

  // Level: a named column, or one whose values are all level words. Reason: it is a property of the statement.
  const levelNamed = bestNamed(LEVEL_NAME, columns, all.filter(free));
  const level = levelNamed >= 0 ? levelNamed : columns.findIndex((_, c) => free(c) && (filled[c] as number) > 0 && (values[c] as string[]).every((v) => v === '' || LEVEL_WORDS.has(v.toUpperCase())));
  if (level >= 0) taken.add(level);
  // pino's and bunyan's numbers (10 trace … 60 fatal) when every sampled level is one (syslog's 0–7: levelWord).
  const numericLevels = level >= 0 && (filled[level] as number) > 0 && (values[level] as string[]).every((v) => v === '' || NUMERIC_LEVELS.has(v));

  // Entity: a named component column, the most specific kind first, one that varies before a constant one (in a
  // file of all pods, `Container=server` names nothing; in a file per service, its one service does); else a
  // low-cardinality column of name-like words. Reason: the answer must name a component.
  const varies = (c: number): boolean => (distinct[c] as number) >= 2;
  let entity = forcedEntity ?? -1;
  const byName = (c: number): number => ENTITY_NAMES.findIndex((re) => {
    const d = nameDepth(re, columns[c] as string);
    if (re !== LOGGER_NAME || d < 0) return d >= 0;
    const bare = normal((columns[c] as string).split('.').slice(d).join('.')) === 'name';
    return filled[c] === rows.length && (!bare || (kind === 'jsonl' && d === 0));
  });
  const candidates = columns.map((_, c) => c).filter((c) => free(c) && (filled[c] as number) > 0 && byName(c) >= 0);
  if (forcedEntity === undefined) {
    entity = candidates.find(varies) ?? candidates[0] ?? -1;
    for (const c of candidates) if (varies(c) && byName(c) < byName(entity)) entity = c;
  }
  if (entity < 0 && forcedEntity === undefined) {
    entity = columns.findIndex((_, c) => free(c) && varies(c) && (distinct[c] as number) * 3 <= (filled[c] as number) &&
      (values[c] as string[]).every((v) => v === '' || /^[A-Za-z][\w.-]*$/.test(v)) && !(values[c] as string[]).every((v) => v === '' || v === 'stdout' || v === 'stderr'));
    // (Not a stream, stdout or stderr: it tells a program's two outputs apart, not programs. Docker, CRI.)
  }
  if (entity >= 0) taken.add(entity);
  // Source: of the columns naming where a line was written (a program, pod, container or log stream, host, node:
  // ENTITY_NAMES past its first tier) that vary, the one with the most values (a pod before its node). Reason: an
  // export that merges many sources' lines in one file, with no request id, is split back into what a node keeps
  // apart, one file per container (index.ts: instances by source). A service, app or component names what the
  // code is, not where it ran: go-kit's `component=` is a part of one process (fixtures/raw/logfmt-gokit).
  let source = -1;
  // (Nor a logger, a part of the code.)
  for (const c of candidates) if (byName(c) >= 1 && ENTITY_NAMES[byName(c)] !== LOGGER_NAME && varies(c) && (source < 0 || (distinct[c] as number) > (distinct[source] as number))) source = c;
  // (logfmt: the pairs with no role follow the message: logfmtMessage.)
  const rest = message >= 0 && kind !== 'logfmt' ? [] : columns.map((_, c) => c).filter(free);
  if (message < 0 && rest.length === 0) throw new InputError(`no message ${kind === 'logfmt' ? 'key' : 'column'} found among ${columns.join(', ')}`, file, undefined, 'name it with --message-column NAME');
  // JSON Lines: the statement's fields follow the message as logfmt's pairs do, but for a number that never falls
  // over the sample (an offset, a sequence number, a counter of lines: where a line stands, never a state).
  const pairs = kind === 'jsonl' && message >= 0 && messageField === '' ? all.filter((c) => free(c) && statementField(columns[c] as string) && (filled[c] as number) > 0 &&
    !(values[c] as string[]).some((v) => /^[[{]/.test(v)) && !rising(values[c] as string[])) : [];
  const notPairs = kind === 'jsonl' && message >= 0 && messageField === '' ? columns.filter((c, i) => !pairs.includes(i) && c !== '') : [];
  const layout: TableLayout = { kind, columns, time, timeFormat: time >= 0 ? (formats[time] as string) : '', message, messageAlt, messageField, rest, level, entity, source, trace, span,
    ...(statement >= 0 ? { statement } : {}), ...(numericLevels ? { numericLevels } : {}), ...(pairs.length > 0 || notPairs.length > 0 ? { pairs, notPairs } : {}) };
  return cell === undefined ? layout : { ...layout, cell };
}

/**
 * Whether a column's sampled numbers never fall and rise at least once over 8 or more values (in file order): an
 * offset, a sequence number, a line counter or a time. (Eight values of a measure rise so by chance once in 8! = 40320.)
 */
function rising(values: readonly string[]): boolean {
  const xs = values.filter((v) => v !== '').map(Number);
  if (xs.length < 8 || xs.some((x) => !Number.isFinite(x))) return false;
  for (let i = 1; i < xs.length; i++) if ((xs[i] as number) < (xs[i - 1] as number)) return false;
  return (xs[xs.length - 1] as number) > (xs[0] as number);
}

/** Records' keys in order of first appearance (a table's columns), and each record's cells by them. */
function jsonTable(objects: ReadonlyArray<Record<string, unknown>>): { columns: string[]; rows: string[][] } {
  const columns = firstSeen(objects.map(Object.keys));
  return { columns, rows: objects.map((o) => columns.map((c) => cellText(o[c]))) };
}

/** logfmt lines' keys in order of first appearance, and each line's values by them (logfmtRow). */
function logfmtTable(lines: ReadonlyArray<readonly LogfmtPair[]>): { columns: string[]; rows: string[][] } {
  const columns = firstSeen(lines.map((p) => p.map((x) => x.key)));
  return { columns, rows: lines.map((p) => logfmtRow(p, columns)) };
}

function firstSeen(lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const k of list) seen.add(k);
  return [...seen];
}

/** The layout of message cells that are records (JSON objects, or logfmt lines with a message key), or undefined. */
function cellLayout(file: string, cells: readonly string[], objects: ReadonlyArray<Record<string, unknown> | null>): TableLayout | undefined {
  if (cells.length === 0) return undefined;
  try {
    if (objects.every((o) => o !== null)) {
      const { columns, rows } = jsonTable(objects.map((o) => flatObject(o as Record<string, unknown>)));
      return assignRoles(file, 'jsonl', columns, rows, {});
    }
    const pairs = cells.map(logfmtPairs);
    if (pairs.every((p) => p !== null && p.length >= 2)) {
      const { columns, rows } = logfmtTable(pairs as LogfmtPair[][]);
      const sub = assignRoles(file, 'logfmt', columns, rows, {});
      return sub.message >= 0 ? sub : undefined;
    }
  } catch (err) {
    // (A cell record with no message of its own is read as text.)
    if (!(err instanceof InputError)) throw err;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Reading a row

/** A table row's parts (fields of one reused object). */
export interface RowParts {
  t: number;
  message: string;
  entity: string;
  /** The source column's raw value (unset without one): TableLayout.source. */
  source?: string;
  trace: string;
  level: string;
  /** The code location in the layout's statement column ('' for none). */
  location: string;
}

/** A layout's message column's name (undefined: none). */
function messageKeyOf(layout: TableLayout): string | undefined {
  return layout.message >= 0 ? layout.columns[layout.message] : undefined;
}

/** Reads rows of one file by its layout. */
export class RowReader {
  private readonly format: TimeFormat | null;
  private readonly pods: boolean;
  /** logfmt: the keys with a role, whose pairs are not part of the message. */
  private readonly roles: ReadonlySet<string>;

  constructor(readonly layout: TableLayout) {
    this.format = layout.time >= 0 ? makeTimeFormat(layout.timeFormat, { year: 2000 }) : null;
    this.pods = namesPods(layout);
    this.roles = logfmtRoleKeys(layout);
    this.messageKey = messageKeyOf(layout);
    this.notPairs = layout.notPairs === undefined ? undefined : new Set(layout.notPairs);
    // (The cell's record is read only where it can fill a role the row leaves empty, or give a logfmt message.)
    const cell = layout.cell;
    this.cell = cell !== undefined && (cell.kind === 'logfmt' || (layout.entity < 0 && cell.entity >= 0) ||
      (layout.trace < 0 && cell.trace >= 0) || (layout.level < 0 && cell.level >= 0)) ? cell : undefined;
    this.cellPods = layout.cell !== undefined && namesPods(layout.cell);
    this.cellRoles = layout.cell !== undefined ? logfmtRoleKeys(layout.cell) : new Set();
    this.cellMessageKey = layout.cell !== undefined ? messageKeyOf(layout.cell) : undefined;
    this.cellNotPairs = layout.messageField !== '' && layout.cell?.notPairs !== undefined ? new Set(layout.cell.notPairs) : undefined;
  }

  private readonly cell: TableLayout | undefined;
  /** JSON Lines whose statement fields follow the message: the fields that do not (TableLayout.notPairs). */
  private readonly notPairs: ReadonlySet<string> | undefined;
  private readonly cellPods: boolean;
  private readonly cellRoles: ReadonlySet<string>;
  /** logfmt, the row's and the cell's: the message's key (none: undefined). */
  private readonly messageKey: string | undefined;
  private readonly cellMessageKey: string | undefined;
  /** A JSON record in the message cell whose statement fields follow its message: the fields that do not (its layout's notPairs). */
  private readonly cellNotPairs: ReadonlySet<string> | undefined;

  /** Split a row into `out`; false for a row that cannot be read (wrong width, quotes that do not close, no time). */
  read(line: string, out: RowParts): boolean {
    const layout = this.layout;
    const pairs = layout.kind === 'logfmt' ? logfmtPairs(line) : null;
    const record = this.notPairs !== undefined ? parseObject(line) : null;
    const fields = pairs !== null ? logfmtRow(pairs, layout.columns) : record !== null ? jsonFields(record, layout.columns)
      : layout.kind === 'logfmt' || this.notPairs !== undefined ? null : rowFields(line, layout);
    return fields !== null && this.readFields(line, pairs, record, fields, out);
  }

  /**
   * A JSON Lines row given as its record, already parsed and flat (no nested objects: an OTLP log record, otlp.ts),
   * as `read` reads the record's JSON text (same result: a flat record's fields are its keys); no text is made.
   */
  readRecord(record: Readonly<Record<string, unknown>>, out: RowParts): boolean {
    const columns = this.layout.columns;
    const fields = new Array<string>(columns.length);
    for (let c = 0; c < columns.length; c++) fields[c] = cellText(record[columns[c] as string]);
    return this.readFields('', null, this.notPairs !== undefined ? record : null, fields, out);
  }

  /** `read` past its splitting: a row's fields (its logfmt pairs of `line`, its JSON record where pairs follow the message). */
  private readFields(line: string, pairs: readonly LogfmtPair[] | null, record: Readonly<Record<string, unknown>> | null, fields: readonly string[], out: RowParts): boolean {
    const layout = this.layout;
    const t = this.format === null ? NaN : this.format.parse((fields[layout.time] as string).trim(), 0);
    if (!Number.isFinite(t)) return false;
    let message = pairs !== null ? logfmtMessage(line, pairs, this.messageKey, this.roles)
      : layout.message >= 0 ? fields[layout.message] as string : layout.rest.map((c) => fields[c] as string).join(' ');
    for (let k = 0; message === '' && k < layout.messageAlt.length; k++) message = fields[layout.messageAlt[k] as number] as string;
    if (record !== null) message = jsonMessage(message, record, this.notPairs as ReadonlySet<string>);
    out.entity = layout.entity >= 0 ? serviceOf((fields[layout.entity] as string).trim(), this.pods) : '';
    if (layout.source >= 0) out.source = (fields[layout.source] as string).trim();
    out.trace = layout.trace >= 0 ? (fields[layout.trace] as string).trim() : '';
    out.level = layout.level >= 0 ? columnLevel((fields[layout.level] as string).trim(), layout) : '';
    out.location = layout.statement === undefined ? '' : codeLocation((fields[layout.statement] as string).trim()) ?? '';
    if (out.entity === '' && layout.fileEntity !== undefined) out.entity = layout.fileEntity;
    const cell = this.cell;
    if (cell !== undefined) {
      // The cell's own record: its fields fill the row's empty roles.
      const cellPairs = cell.kind === 'logfmt' ? logfmtPairs(message) : null;
      const sub = cellPairs !== null ? logfmtRow(cellPairs, cell.columns) : cell.kind === 'logfmt' ? null : jsonRow(message, cell.columns);
      if (sub !== null) {
        if (out.entity === '' && cell.entity >= 0) out.entity = serviceOf((sub[cell.entity] as string).trim(), this.cellPods);
        if (out.trace === '' && cell.trace >= 0) out.trace = (sub[cell.trace] as string).trim();
        if (out.level === '' && cell.level >= 0) out.level = columnLevel((sub[cell.level] as string).trim(), cell);
        if (cellPairs !== null) message = logfmtMessage(message, cellPairs, this.cellMessageKey, this.cellRoles);
      }
    }
    if (layout.messageField !== '') {
      const o = parseObject(message);
      const m = o?.[layout.messageField];
      if (typeof m !== 'string') return false;
      // (The record's statement fields follow its message as a JSON Lines record's do: the cell's layout found them.)
      message = this.cellNotPairs !== undefined ? jsonMessage(m, o as Record<string, unknown>, this.cellNotPairs) : m;
    }
    out.t = t;
    out.message = message.trim();
    return true;
  }
}

/**
 * A level cell as a word: a syslog severity number 0–7 (RFC 5424; journald's PRIORITY) as its keyword, else the
 * cell upper-cased. Reason: the number is the level in syslog and journald, and WARN/ERROR events need the word.
 */
const SYSLOG_SEVERITIES = ['EMERG', 'ALERT', 'CRIT', 'ERR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'];
/**
 * pino's and bunyan's level numbers (10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal). Reason: both write
 * the level as a number by default; read as a word only when a file's every sampled level is one of them.
 */
const NUMERIC_LEVELS = new Map([['10', 'TRACE'], ['20', 'DEBUG'], ['30', 'INFO'], ['40', 'WARN'], ['50', 'ERROR'], ['60', 'FATAL']]);

/** A level cell of a layout as a word (levelWord, or pino's and bunyan's numbers where the layout holds them). */
export function columnLevel(cell: string, layout: TableLayout): string {
  return layout.numericLevels === true ? NUMERIC_LEVELS.get(cell) ?? levelWord(cell) : levelWord(cell);
}

export function levelWord(cell: string): string {
  return cell.length === 1 && cell >= '0' && cell <= '7' ? SYSLOG_SEVERITIES[Number(cell)] as string : cell.toUpperCase();
}

/**
 * The component a pod or container name stands for: Kubernetes replica suffixes dropped. Reason: a Deployment's
 * pods are named `<deployment>-<pod-template hash, 6-10>-<5 random>` (`ts-basic-service-5dc8d4f9fd-46997` →
 * `ts-basic-service`), a StatefulSet's `<name>-<ordinal>` (`kafka-2` → `kafka`); a restarted pod is the same
 * component. The ordinal is dropped from a pod column's values only (`pods`): a host `node-12` is its own.
 * One suffix at most (REPLICA_SUFFIX, which rules files written by `distalyze templates -o` use too).
 */
export function serviceOf(name: string, pods = true): string {
  return name.replace(pods ? REPLICA_SUFFIX : DEPLOYMENT_SUFFIX, '');
}
// (`/<hex id>`: a task's or container's id closing a log stream's name, `payment/payment/4964b132…` as ECS names its
// streams `prefix/container/task-id`: a restarted task is the same component.)
export const DEPLOYMENT_SUFFIX = /(?:-[a-z0-9]{6,10}-[a-z0-9]{5}|\/[0-9a-f]{8,})$/;
export const REPLICA_SUFFIX = /(?:-[a-z0-9]{6,10}-[a-z0-9]{5}|-\d+|\/[0-9a-f]{8,})$/;

/** Whether a layout's entity column names pods or containers (whose StatefulSet ordinals are replicas). */
export function namesPods(layout: TableLayout): boolean {
  return layout.entity >= 0 && /pod|container|instance/.test(normal(layout.columns[layout.entity] as string));
}

/** The summary of a layout for the run's summary line: `messages from column Log (JSON field log); entity PodName; trace TraceID`. */
export function describeTable(layout: TableLayout, headerEntity = false): string {
  const col = (i: number): string => layout.columns[i] as string;
  const what = layout.kind === 'jsonl' || layout.kind === 'cri' ? 'field' : layout.kind === 'logfmt' ? 'key' : 'column';
  const parts = [layout.message < 0 ? `messages from ${what}s ${layout.rest.map(col).join(', ')}`
    : `messages from ${what} ${[layout.message, ...layout.messageAlt].map(col).join(' or ')}${layout.messageField !== '' ? ` (JSON field ${layout.messageField})` : ''}${layout.kind === 'cri' ? ' of CRI lines' : ''}`];
  const cell = layout.cell;
  const inCell = (i: number): string => `${col(layout.message)}.${cell?.columns[i] as string}`;
  if (cell !== undefined && cell.kind === 'logfmt') parts[0] += ` (logfmt key ${cell.columns[cell.message] as string})`;
  if (layout.pairs !== undefined && layout.pairs.length > 0) parts[0] += ` then ${layout.pairs.map(col).join(', ')} as key=value`;
  if (layout.messageField !== '' && cell?.pairs !== undefined && cell.pairs.length > 0) parts[0] += ` then ${cell.pairs.map((i) => inCell(i)).join(', ')} as key=value`;
  if (layout.time >= 0) parts.push(`time ${col(layout.time)}`);
  parts.push(layout.entity >= 0 ? `entity ${col(layout.entity)}` : cell !== undefined && cell.entity >= 0 ? `entity ${inCell(cell.entity)}`
    : layout.fileEntity !== undefined ? 'entity the pod of the file\'s name' : headerEntity ? 'entity from the messages\' header' : 'no entity');
  if (layout.trace >= 0) parts.push(`trace ${col(layout.trace)}`);
  else if (cell !== undefined && cell.trace >= 0) parts.push(`trace ${inCell(cell.trace)}`);
  if (layout.statement !== undefined) parts.push(`statement ${col(layout.statement)}`);
  if (layout.otlp !== true) return parts.join('; ');
  // (OTLP: the rows are log records; the level and span are read from their own fields, the attributes follow the body.)
  parts[0] = `OTLP/JSON log records (a LogsData a line): ${parts[0] as string} (then its attributes as key=value)`;
  parts.splice(2, 0, ...(layout.level >= 0 ? [`level ${col(layout.level)}`] : []));
  return [...parts, ...(layout.span >= 0 ? [`span ${col(layout.span)}`] : [])].join('; ');
}

// ---------------------------------------------------------------------------
// The head of a message

/** A time of day or date-time opening a message (the row has its time already): `16:44:10.485`, `2023-01-29 08:48:42,123`. */
export const LEADING_TIME = /^(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\s+/;
/** A level word after it. */
const LEADING_LEVEL = /^\[?(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|SEVERE)\]?\s+/;
/**
 * A code location: `t.s.TravelServiceImpl#372` (logback's `%logger#%line`), `Foo.java:123`, `app.py:45`, `(main.go:12)`.
 * Reason: it names the log statement, which is the template, exactly: mining only guesses it, and its line number
 * would be masked as a number.
 */
const LOCATION = /^[[(]?((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*#\d+|[\w$./-]*[A-Za-z_$][\w$-]*\.(?:java|kt|scala|groovy|py|go|rb|js|mjs|ts|c|cc|cpp|cxx|h|hpp|cs|php|rs|swift|ex|exs|erl):\d+)[\])]?:?(?:\s+|$)/;

/** The code location a whole value is (LOCATION: `head.go:1290`, `/src/app/cart.go:88`, `a.b.Foo#12`), or null. */
export function codeLocation(value: string): string | null {
  const loc = LOCATION.exec(value);
  return loc !== null && loc[0].length === value.length ? loc[1] as string : null;
}

/** What opens a message: its level and the code location of its statement ('' each when none). */
export interface MessageHead {
  level: string;
  location: string;
}

/**
 * Read a leading time, level and code location off a message (in that order, each optional, the location within
 * the first two tokens after them); the location is the statement, so `head.location` is set and the rest is not
 * needed. Returns the message without its leading time.
 */
export function readHead(message: string, head: MessageHead): string {
  let m = message;
  const time = LEADING_TIME.exec(m);
  if (time !== null) m = m.slice(time[0].length);
  const level = LEADING_LEVEL.exec(m);
  head.level = level === null ? '' : (level[1] as string);
  let rest = level === null ? m : m.slice(level[0].length);
  head.location = '';
  for (let k = 0; k < 2 && rest.length > 0; k++) {
    const loc = LOCATION.exec(rest);
    if (loc !== null) {
      head.location = loc[1] as string;
      break;
    }
    // One token (a thread `[main]`, a logger) may stand before the location.
    const sp = rest.search(/\s/);
    if (sp < 0) break;
    rest = rest.slice(sp).trimStart();
  }
  return m;
}
