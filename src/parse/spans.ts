import { parse } from 'csv-parse';
import { InputError } from '../errors.js';
import { clip } from './dlog.js';
import { openInputFile, type InputFile } from './files.js';
import { MAX_LINE_LENGTH, readLines } from './lines.js';
import type { RecordSink } from './records.js';

/**
 * OpenTelemetry spans read natively (no translator), in three formats told
 * apart by the first bytes of the file (see `detectSpanFormat`):
 *  - `csv`: a header naming trace id, span id, parent id, service (or pod),
 *    operation, start and end columns (e.g. `TraceID,SpanID,ParentID,PodName,
 *    OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration`);
 *  - `jsonl`: one span object per line with the same fields;
 *  - `otlp`: OTLP/JSON (`resourceSpans` → `scopeSpans` → `spans`), one
 *    request per line as the collector's file exporter writes it, or one
 *    (pretty-printed) document.
 * Times are nanoseconds since the epoch. One trace = one instance (id = trace
 * id, kind = the root span's operation); each span gives the events
 * `service:operation.start` / `.end` and its self time as the state
 * `service:operation self` (seconds, at the span's end).
 *
 * A *client* span (a call to another service: see `calleeOf`) is billed to
 * the callee (SPEC §3, Components; docs/components.md): its self time — the
 * wire and the callee's queue, the time not covered by the callee's server
 * span — is the state `callee:operation wait`, and its end, the reply
 * arriving, the event `callee:operation.reply`; its start stays the caller's.
 */
export type SpanFormat = 'csv' | 'jsonl' | 'otlp';

/** One span as read, times in seconds. `line` is where it was read (undefined in a whole-document OTLP file). */
export interface Span {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root. */
  readonly parentId: string;
  readonly service: string;
  readonly operation: string;
  readonly start: number;
  readonly end: number;
  readonly line: number | undefined;
}

/** File names that may hold spans: only these are looked into (dlog and raw logs never are). */
const SPAN_FILE = /\.(csv|json|jsonl|ndjson)(\.gz)?$/i;

/** Field aliases, compared lower-case without `_`, `-`, spaces. */
const FIELDS = {
  trace: ['traceid'],
  span: ['spanid'],
  parent: ['parentid', 'parentspanid'],
  service: ['podname', 'pod', 'service', 'servicename'],
  operation: ['operationname', 'operation', 'spanname', 'name'],
  start: ['starttimeunixnano', 'starttime', 'start'],
  end: ['endtimeunixnano', 'endtime', 'end'],
} as const;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];

const normalize = (key: string): string => key.toLowerCase().replace(/[\s_-]/g, '');

/** Parent ids that mean "no parent". */
const NO_PARENT = new Set(['', 'root', 'null', 'none', '0', '0000000000000000']);

/**
 * A Kubernetes Deployment's pod name is `<deployment>-<pod-template-hash>-<5>`
 * with both suffixes drawn from the alphabet below (k8s.io/apimachinery
 * rand.SafeEncodeString): `ts-basic-service-5dc8d4f9fd-46997` → `ts-basic-service`.
 * Names without both suffixes are kept as they are.
 */
const REPLICA_SUFFIX = /-[bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/;
export function serviceOfPod(name: string): string {
  return name.replace(REPLICA_SUFFIX, '');
}

/** Index of each field in a CSV header, or null when the header is not one of spans. */
export function spanColumns(header: readonly string[]): Record<Field, number> | null {
  const keys = header.map(normalize);
  const index = {} as Record<Field, number>;
  for (const f of FIELD_NAMES) {
    const i = keys.findIndex((k) => (FIELDS[f] as readonly string[]).includes(k));
    if (i < 0) return null;
    index[f] = i;
  }
  return index;
}

/** The value of a field in a JSON span object (any alias, any case), or undefined. */
function jsonField(obj: Record<string, unknown>, f: Field): unknown {
  for (const key of Object.keys(obj)) if ((FIELDS[f] as readonly string[]).includes(normalize(key))) return obj[key];
  return undefined;
}

function isSpanObject(obj: unknown): boolean {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
  return FIELD_NAMES.every((f) => jsonField(obj as Record<string, unknown>, f) !== undefined);
}

/**
 * The span format of a file, from its first bytes: a CSV header with all span
 * columns; a first line that is a JSON object with `resourceSpans` (OTLP) or
 * with all span fields (JSON Lines); a JSON document starting `{` whose first
 * key is `resourceSpans` (pretty-printed OTLP). Anything else: null.
 */
export async function detectSpanFormat(file: InputFile): Promise<SpanFormat | null> {
  if (file.path === '-' || !SPAN_FILE.test(file.relativePath)) return null;
  const head = await readHead(file, 64 * 1024);
  if (head === null) return null;
  const text = head.replace(/^\uFEFF/, '');
  const nl = text.indexOf('\n');
  const first = (nl < 0 ? text : text.slice(0, nl)).replace(/\r$/, '').trim();
  if (first.startsWith('{')) {
    try {
      const obj = JSON.parse(first) as unknown;
      if (obj !== null && typeof obj === 'object' && 'resourceSpans' in obj) return 'otlp';
      return isSpanObject(obj) ? 'jsonl' : null;
    } catch {
      // Not one object on the first line: a pretty-printed document?
      return /^\{\s*"resourceSpans"\s*:/.test(text.trimStart()) ? 'otlp' : null;
    }
  }
  if (first.includes('\t') || first.includes('"')) return null;
  return spanColumns(first.split(',')) !== null ? 'csv' : null;
}

/** Up to `max` decoded bytes from the start of a file; null when it cannot be read (the real read reports why). */
async function readHead(file: InputFile, max: number): Promise<string | null> {
  const stream = openInputFile(file, max);
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      n += chunk.length;
      if (n >= max) break;
    }
  } catch {
    return null;
  } finally {
    stream.destroy();
  }
  const buf = Buffer.concat(chunks);
  if (buf.indexOf(0) !== -1) return null;
  return buf.toString('utf8');
}

/** Nanoseconds since the epoch (a whole number, as text or a JSON number) → seconds. */
function nanosToSeconds(value: unknown, what: string, file: string, line: number | undefined): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,30}$/.test(text)) throw new InputError(`span ${what} time '${clip(String(value))}' is not a whole number of nanoseconds`, file, line);
  // Split so the seconds keep the precision a double allows (~0.2 µs at today's epoch).
  return text.length > 9 ? Number(text.slice(0, -9)) + Number(text.slice(-9)) / 1e9 : Number(text) / 1e9;
}

function spanFrom(get: (f: Field) => unknown, file: string, line: number | undefined): Span {
  const text = (f: Field): string => {
    const v = get(f);
    return v === undefined || v === null ? '' : String(v).trim();
  };
  const traceId = text('trace');
  const spanId = text('span');
  if (traceId === '') throw new InputError('span has an empty trace id', file, line);
  if (spanId === '') throw new InputError('span has an empty span id', file, line);
  const parent = text('parent');
  const service = serviceOfPod(text('service'));
  const operation = text('operation');
  if (service === '') throw new InputError(`span ${spanId} has an empty service (pod) name`, file, line);
  if (operation === '') throw new InputError(`span ${spanId} has an empty operation name`, file, line);
  const start = nanosToSeconds(get('start'), 'start', file, line);
  const end = nanosToSeconds(get('end'), 'end', file, line);
  if (end < start) throw new InputError(`span ${spanId} of trace ${traceId} ends before it starts (end ${text('end')} < start ${text('start')} ns)`, file, line);
  return { traceId, spanId, parentId: NO_PARENT.has(parent.toLowerCase()) ? '' : parent, service, operation, start, end, line };
}

/** What reading one span file yields besides its records. */
export interface SpanFileResult {
  bytes: number;
  lines: number;
  spans: number;
  traces: number;
  /** Counted notes (missing parents), one line each, naming the file. */
  notes: string[];
}

/** Read a span file of a known format and send its traces to `sink` (one instance each). */
export async function readSpanFile(file: InputFile, format: SpanFormat, sink: RecordSink, onBytes?: (n: number) => void): Promise<SpanFileResult> {
  const spans: Span[] = [];
  let bytes = 0;
  let lines = 0;
  if (format === 'csv') {
    ({ bytes, lines } = await readCsvSpans(file, spans, onBytes));
  } else {
    let whole: string[] | null = null;
    const r = await readLines(file, {
      line: (text, lineNo) => {
        if (whole !== null) {
          whole.push(text);
          return;
        }
        const trimmed = text.trim();
        if (trimmed === '') return;
        let obj: unknown;
        try {
          obj = JSON.parse(trimmed);
        } catch (err) {
          if (lineNo === 1 && format === 'otlp') {
            whole = [text]; // a pretty-printed document: parsed at the end
            return;
          }
          throw new InputError(`not a JSON object: ${err instanceof Error ? err.message : String(err)}`, file.path, lineNo);
        }
        if (format === 'otlp') collectOtlp(obj, spans, file.path, lineNo);
        else spans.push(jsonSpan(obj, file.path, lineNo));
      },
      tooLong: (lineNo) => {
        if (whole === null) throw new InputError('a line over the 1 MiB limit in a span file', file.path, lineNo);
        throw new InputError('an OTLP/JSON document with a line over the 1 MiB limit', file.path, lineNo);
      },
    }, onBytes);
    bytes = r.bytes;
    lines = r.lines;
    if (whole !== null) {
      let obj: unknown;
      try {
        obj = JSON.parse((whole as string[]).join('\n'));
      } catch (err) {
        throw new InputError(`not valid OTLP/JSON: ${err instanceof Error ? err.message : String(err)}`, file.path);
      }
      collectOtlp(obj, spans, file.path, undefined);
    }
  }
  const { traces, notes } = emitTraces(spans, file.path, sink);
  return { bytes, lines, spans: spans.length, traces, notes };
}

function jsonSpan(obj: unknown, file: string, line: number | undefined): Span {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new InputError('a span line is not a JSON object', file, line);
  const o = obj as Record<string, unknown>;
  return spanFrom((f) => jsonField(o, f), file, line);
}

/** Spans of one OTLP/JSON ExportTraceServiceRequest (`resourceSpans` → `scopeSpans` (or `instrumentationLibrarySpans`) → `spans`). */
function collectOtlp(obj: unknown, out: Span[], file: string, line: number | undefined): void {
  const resourceSpans = (obj as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(resourceSpans)) throw new InputError('OTLP/JSON object without a resourceSpans array', file, line);
  for (const rs of resourceSpans as Record<string, unknown>[]) {
    const attributes = ((rs?.resource as { attributes?: unknown } | undefined)?.attributes ?? []) as { key?: string; value?: { stringValue?: string } }[];
    const attr = (key: string): string | undefined => (Array.isArray(attributes) ? attributes.find((a) => a?.key === key)?.value?.stringValue : undefined);
    const service = attr('service.name') ?? attr('k8s.pod.name') ?? 'unknown_service';
    const scopes = (rs?.scopeSpans ?? rs?.instrumentationLibrarySpans ?? []) as { spans?: unknown }[];
    if (!Array.isArray(scopes)) throw new InputError('OTLP/JSON scopeSpans is not an array', file, line);
    for (const scope of scopes) {
      const spans = scope?.spans ?? [];
      if (!Array.isArray(spans)) throw new InputError('OTLP/JSON spans is not an array', file, line);
      for (const s of spans as Record<string, unknown>[]) {
        if (s === null || typeof s !== 'object') throw new InputError('an OTLP/JSON span is not an object', file, line);
        const fields: Record<Field, unknown> = {
          trace: s.traceId, span: s.spanId, parent: s.parentSpanId ?? '', service,
          operation: s.name, start: s.startTimeUnixNano, end: s.endTimeUnixNano,
        };
        out.push(spanFrom((f) => fields[f], file, line));
      }
    }
  }
}

async function readCsvSpans(file: InputFile, out: Span[], onBytes?: (n: number) => void): Promise<{ bytes: number; lines: number }> {
  // (A compressed file's progress: its compressed bytes, told as they are read.)
  const source = openInputFile(file, undefined, onBytes);
  const parser = parse({ bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_LINE_LENGTH });
  let bytes = 0;
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (!file.gzip) onBytes?.(chunk.length);
  });
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  let index: Record<Field, number> | null = null;
  let lines = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      lines = info.lines;
      if (index === null) {
        index = spanColumns(record);
        if (index === null) throw new InputError('span CSV header lacks a column', file.path, lines);
        continue;
      }
      const idx = index;
      out.push(spanFrom((f) => record[idx[f]], file.path, lines));
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    const e = err as { message?: string; lines?: number; code?: string };
    if (e.code?.startsWith('Z_') || /unexpected end of file/i.test(e.message ?? '')) throw new InputError(`corrupt or truncated gzip data (${e.message})`, file.path);
    throw new InputError(`not valid CSV: ${e.message ?? String(err)}`, file.path, e.lines);
  } finally {
    source.destroy();
  }
  return { bytes, lines };
}

/**
 * Group spans by trace (in order of first appearance) and send each trace as
 * one instance: its records sorted by time (stable), so the collector sees
 * them in order. A parent cycle is an error; a parent missing from the trace
 * makes the span a root, counted in a note.
 */
export function emitTraces(spans: readonly Span[], file: string, sink: RecordSink): { traces: number; notes: string[] } {
  const services = knownServices(spans);
  const byTrace = new Map<string, number[]>();
  // A span id given again: the same span (a file exported twice, a retried export) is dropped, counted; another
  // span under the id is an error. Kept twice, the copy had no children (they link to the first), so its self
  // time was its whole duration: a false cause.
  const seen = new Map<string, number>();
  let duplicates = 0;
  let duplicateExample = '';
  spans.forEach((s, i) => {
    const key = `${s.traceId}\u0000${s.spanId}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const f = spans[first] as Span;
      if (f.parentId !== s.parentId || f.service !== s.service || f.operation !== s.operation || f.start !== s.start || f.end !== s.end) {
        throw new InputError(`span ${s.spanId} of trace ${s.traceId} is given twice, differently (first${f.line !== undefined ? ` on line ${f.line}` : ''}: ` +
          `${f.service}:${f.operation}, ${f.start}–${f.end} s, parent '${f.parentId}'; here: ${s.service}:${s.operation}, ${s.start}–${s.end} s, parent '${s.parentId}')`, file, s.line);
      }
      if (duplicates++ === 0) duplicateExample = `span ${s.spanId} of trace ${s.traceId}${s.line !== undefined ? `, line ${s.line}` : ''}`;
      return;
    }
    seen.set(key, i);
    let list = byTrace.get(s.traceId);
    if (list === undefined) byTrace.set(s.traceId, (list = []));
    list.push(i);
  });
  let missing = 0;
  let missingExample = '';
  // Each event name said to be a span's once, before its first record (RecordSink.eventFromSpans).
  const spanEvents = new Set<string>();
  const spanEvent = (t: number, name: string): void => {
    if (!spanEvents.has(name)) {
      spanEvents.add(name);
      sink.eventFromSpans?.(name);
    }
    sink.event(t, name);
  };
  for (const [traceId, members] of byTrace) {
    const trace = members.map((i) => spans[i] as Span);
    const { parent, missingParents } = linkParents(trace, file);
    if (missingParents.length > 0) {
      if (missing === 0) missingExample = `span ${(trace[missingParents[0] as number] as Span).spanId} of trace ${traceId}`;
      missing += missingParents.length;
    }
    const self = selfTimes(trace, parent);
    const callee = calleesOf(trace, parent, services);
    sink.instance(traceId, kindOf(trace, parent));
    const records: { t: number; order: number; emit: () => void }[] = [];
    trace.forEach((s, i) => {
      const name = `${s.service}:${s.operation}`;
      const to = callee[i];
      const end = to === null ? `${name}.end` : `${to}:${s.operation}.reply`;
      const state = to === null ? `${name} self` : `${to}:${s.operation} wait`;
      records.push({ t: s.start, order: 3 * i, emit: () => spanEvent(s.start, `${name}.start`) });
      records.push({ t: s.end, order: 3 * i + 1, emit: () => spanEvent(s.end, end) });
      records.push({ t: s.end, order: 3 * i + 2, emit: () => sink.state(s.end, state, self[i] as number) });
    });
    records.sort((a, b) => a.t - b.t || a.order - b.order);
    for (const r of records) r.emit();
  }
  const notes = missing > 0 ? [`${file}: ${missing} span(s) name a parent that is not in their trace (e.g. ${missingExample}); each was taken as a root`] : [];
  if (duplicates > 0) notes.push(`${file}: ${duplicates} span(s) repeat an earlier span exactly (same trace and span id, e.g. ${duplicateExample}); each was read once`);
  return { traces: byTrace.size, notes };
}

/** parent[i] = the index of span i's parent in the trace, or −1 (a root, or a missing parent). A cycle throws. */
function linkParents(trace: readonly Span[], file: string): { parent: Int32Array; missingParents: number[] } {
  const byId = new Map<string, number>();
  trace.forEach((s, i) => { if (!byId.has(s.spanId)) byId.set(s.spanId, i); });
  const parent = new Int32Array(trace.length).fill(-1);
  const missingParents: number[] = [];
  trace.forEach((s, i) => {
    if (s.parentId === '') return;
    const p = byId.get(s.parentId);
    if (p === undefined) missingParents.push(i);
    else parent[i] = p;
  });
  // Follow parent links, colouring spans on the current path (1) and done (2): reaching a span on the path is a cycle.
  const state = new Uint8Array(trace.length);
  for (let i = 0; i < trace.length; i++) {
    const path: number[] = [];
    let cur = i;
    while (cur >= 0 && state[cur] === 0) {
      state[cur] = 1;
      path.push(cur);
      cur = parent[cur] as number;
    }
    if (cur >= 0 && state[cur] === 1) {
      const cycle = path.slice(path.indexOf(cur)).map((j) => (trace[j] as Span).spanId);
      const first = trace[cur] as Span;
      throw new InputError(`trace ${first.traceId}: spans form a parent cycle (${[...cycle, cycle[0]].join(' → ')})`, file, first.line);
    }
    for (const j of path) state[j] = 2;
  }
  return { parent, missingParents };
}

/**
 * A trace's kind (SPEC §2, its entry point): the root span's operation, and,
 * where the trace goes on into another service, the first span there (by
 * start): `/* → ts-travel-service:queryInfo`. Behind an ingress or gateway
 * every root has the same operation (`/*` in TrainTicket's traces), and the
 * first service it calls is what tells one request type from another.
 */
function kindOf(trace: readonly Span[], parent: Int32Array): string {
  const root = rootOf(trace, parent);
  let entry: Span | null = null;
  for (const s of trace) if (s.service !== root.service && (entry === null || s.start < entry.start)) entry = s;
  return entry === null ? root.operation : `${root.operation} → ${entry.service}:${entry.operation}`;
}

/** The root that names the trace's kind: the earliest span without a parent id, else the earliest parentless one. */
function rootOf(trace: readonly Span[], parent: Int32Array): Span {
  let best = -1;
  trace.forEach((s, i) => { if (s.parentId === '' && (best < 0 || s.start < (trace[best] as Span).start)) best = i; });
  if (best < 0) trace.forEach((s, i) => { if (parent[i] === -1 && (best < 0 || s.start < (trace[best] as Span).start)) best = i; });
  return trace[best] as Span;
}

/**
 * Self time of each span: its duration minus the union of its children's
 * intervals, each clipped to the span (children may outlive an asynchronous
 * parent), so overlapping children are not subtracted twice. Never negative.
 */
export function selfTimes(trace: readonly Span[], parent: Int32Array): Float64Array {
  const children: number[][] = trace.map(() => []);
  parent.forEach((p, i) => { if (p >= 0) (children[p] as number[]).push(i); });
  const self = new Float64Array(trace.length);
  trace.forEach((s, i) => {
    const intervals = (children[i] as number[])
      .map((c) => [Math.max(s.start, (trace[c] as Span).start), Math.min(s.end, (trace[c] as Span).end)] as const)
      .filter(([a, b]) => b > a)
      .sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let runStart = Number.NaN;
    let runEnd = Number.NaN;
    for (const [a, b] of intervals) {
      if (Number.isNaN(runEnd) || a > runEnd) {
        if (!Number.isNaN(runEnd)) covered += runEnd - runStart;
        runStart = a;
        runEnd = b;
      } else if (b > runEnd) {
        runEnd = b;
      }
    }
    if (!Number.isNaN(runEnd)) covered += runEnd - runStart;
    self[i] = Math.max(0, s.end - s.start - covered);
  });
  return self;
}

/** Services named by the spans of a file, by their comparison key (lower case, letters and digits only). */
function knownServices(spans: readonly Span[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const s of spans) {
    const key = serviceKey(s.service);
    if (!known.has(key)) known.set(key, s.service);
  }
  return known;
}

const serviceKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A gRPC method's service: `hipstershop.CartService/GetCart` → `CartService`; null for any other operation name. */
const GRPC_METHOD = /^(?:[\w-]+\.)*([\w-]+)\/[\w-]+$/;

/**
 * The service each span calls, or null for a span that is not a call to
 * another service. A span is a client span when it has exactly one child and
 * that child runs in another service (the callee's server span: a client span
 * makes one call), or, when its callee left no span (not instrumented, or
 * sampled out), when it has no child and its operation is a gRPC method of
 * another service seen in the file (`hipstershop.CartService/GetCart` in
 * `frontend`, with `cartservice` among the spans' services). A span with
 * several children, or none and no such name, is the service's own work.
 */
export function calleesOf(trace: readonly Span[], parent: Int32Array, known: ReadonlyMap<string, string>): (string | null)[] {
  const children = new Int32Array(trace.length);
  const onlyChild = new Int32Array(trace.length).fill(-1);
  parent.forEach((p, i) => {
    if (p < 0) return;
    children[p] = (children[p] as number) + 1;
    onlyChild[p] = i;
  });
  return trace.map((s, i) => {
    if (children[i] === 1) {
      const child = (trace[onlyChild[i] as number] as Span).service;
      return child !== s.service ? child : null;
    }
    if (children[i] !== 0) return null;
    const m = GRPC_METHOD.exec(s.operation);
    const peer = m === null ? undefined : known.get(serviceKey(m[1] as string));
    return peer !== undefined && peer !== s.service ? peer : null;
  });
}
