/**
 * The pushdown's SQL on a current ClickHouse (chdb, the engine in-process) against the
 * OpenTelemetry exporter's own otel_traces schema (DateTime64(9), Map), which 18.16 cannot hold: the TrainTicket
 * span excerpt, classes as time windows, gives the span reader's features.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableShape } from '../src/clickhouse/mapping.js';
import { pushdown, resolveShape, type QueryRunner } from '../src/clickhouse/reader.js';
import { serviceOfPod } from '../src/parse/spans.js';
import { readClasses } from '../src/read/index.js';
import { ROOT } from './helpers/run.js';

// The exporter's DDL (opentelemetry-collector-contrib, exporter/clickhouseexporter), as it creates otel_traces.
const OTEL_TRACES_DDL = `CREATE TABLE otel_traces (
  Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)), TraceId String, SpanId String, ParentSpanId String, TraceState String,
  SpanName LowCardinality(String), SpanKind LowCardinality(String), ServiceName LowCardinality(String),
  ResourceAttributes Map(LowCardinality(String), String), ScopeName String, ScopeVersion String,
  SpanAttributes Map(LowCardinality(String), String), Duration UInt64, StatusCode LowCardinality(String), StatusMessage String,
  Events Nested (Timestamp DateTime64(9), Name LowCardinality(String), Attributes Map(LowCardinality(String), String)),
  Links Nested (TraceId String, SpanId String, TraceState String, Attributes Map(LowCardinality(String), String))
) ENGINE = MergeTree PARTITION BY toDate(Timestamp) ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))`;

interface Chdb { Session: new () => { query(q: string, format?: string): string; cleanup(): void } }
let session: InstanceType<Chdb['Session']>;
const tt = join(ROOT, 'fixtures/trainticket');

beforeAll(async () => {
  // Not a dependency: chdb's lock entries name platform packages the registry here does not serve, so `npm ci`
  // would refuse the lock file. `npm run test:chdb` installs it (--no-save) and runs this file alone.
  const name = 'chdb';
  const chdb = await import(name).catch(() => {
    throw new Error('chdb (the ClickHouse engine in-process) is missing: run this file with npm run test:chdb, which installs it');
  }) as unknown as Chdb;
  session = new chdb.Session();
  session.query(OTEL_TRACES_DDL);
  const rows: string[] = [];
  for (const c of ['good', 'bad']) {
    const lines = gunzipSync(readFileSync(join(tt, c, 'trace.csv.gz'))).toString('utf8').split('\n').filter((l) => l !== '').slice(1);
    lines.forEach((line, i) => {
      const [trace, span, parent, pod, op, start, end] = line.split(',') as string[];
      // DateTime64(9) from `seconds.nanoseconds` text: exact. The span's place in its file, for ties in time, as an
      // attribute (read through an expression: --columns order=…).
      rows.push(JSON.stringify({
        Timestamp: `${start!.slice(0, -9)}.${start!.slice(-9)}`, TraceId: trace, SpanId: span, ParentSpanId: parent === 'root' ? '' : parent,
        SpanName: op, ServiceName: serviceOfPod(pod!), SpanAttributes: { seq: String(i + 1).padStart(6, '0') }, Duration: String(BigInt(end!) - BigInt(start!)),
      }));
    });
  }
  session.query(`INSERT INTO otel_traces (Timestamp, TraceId, SpanId, ParentSpanId, SpanName, ServiceName, SpanAttributes, Duration) FORMAT JSONEachRow\n${rows.join('\n')}`);
}, 300_000);

afterAll(() => session?.cleanup());

const run = (query: string): ReturnType<QueryRunner> => {
  const text = session.query(query, 'JSONEachRow');
  return (async function* rows() {
    for (const line of text.split('\n')) if (line !== '') yield JSON.parse(line) as Record<string, unknown>;
  })();
};

describe('the pushdown on a current ClickHouse (chdb)', () => {
  it('runs the same SQL on the exporter\'s otel_traces (DateTime64, Map): the span reader\'s features', { timeout: 300_000 }, async () => {
    const version = session.query('SELECT version()', 'TSV').trim();
    expect(version).toMatch(/^\d+\.\d+/);
    const describe = session.query('DESCRIBE TABLE otel_traces', 'JSONEachRow').trim().split('\n').map((l) => JSON.parse(l) as { name: string; type: string });
    const shape = tableShape('otel_traces', "order=SpanAttributes['seq']");
    const resolved = resolveShape(shape, 'otel_traces', 'otel_traces', new Map(describe.map((d) => [d.name, d.type])));
    expect(resolved.timeType).toBe('datetime64');
    // Classes as time windows around the two minutes of the excerpt.
    const table = await pushdown((q) => run(q), resolved, { good: '2023-01-29T08:40/2023-01-29T09:00', bad: '2023-01-29T14:40/2023-01-29T15:00' }, 'otel_traces', true);
    const file = await readClasses(join(tt, 'good/trace.csv.gz'), join(tt, 'bad/trace.csv.gz'), { jobs: 1 });
    const a = file.features.features;
    const b = table.features.features;
    expect(b.instances.map((i) => [i.id, i.kind, i.records])).toEqual(a.instances.map((i) => [i.id, i.kind, i.records]));
    expect(b.tables.map((t) => t.variables)).toEqual(a.tables.map((t) => t.variables));
    // Times to 1 µs (the span reader's are float epoch seconds; the table's nanoseconds are subtracted as integers).
    for (let t = 0; t < a.tables.length; t++) {
      const rel = a.tables[t]!.kind === 'event' && a.tables[t]!.feature.endsWith('.rel');
      a.tables[t]!.columns.forEach((col, v) => col.forEach((x, i) => {
        const y = b.tables[t]!.columns[v]![i]!;
        const abs = rel ? 1e-6 / a.instances[i]!.duration : 1e-6;
        if (Number.isNaN(x)) expect(y, `${a.tables[t]!.variables[v]} ${a.tables[t]!.feature}`).toBeNaN();
        else expect(Math.abs(x - y), `${a.tables[t]!.variables[v]} ${a.tables[t]!.feature} of ${a.instances[i]!.id}`).toBeLessThanOrEqual(abs + 1e-9 * Math.abs(x));
      }));
    }
  });
});
