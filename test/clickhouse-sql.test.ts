/** The SQL that pushes feature extraction down (src/clickhouse/sql.ts), as text: no server needed. */
import { describe, expect, it } from 'vitest';
import { OTEL_TRACES, RECORDS_MAPPING, tableShape } from '../src/clickhouse/mapping.js';
import { classFilter, timeWindow } from '../src/clickhouse/reader.js';
import { featureQuery, FEATURE_ROW_COLUMNS, float64Literal, runInstancesQuery, type ResolvedShape } from '../src/clickhouse/sql.js';

const records: ResolvedShape = { type: 'records', table: '`logs`', columns: { ...RECORDS_MAPPING, order: 'seq' }, timeType: 'float' };
const spans: ResolvedShape = { type: 'spans', table: '`otel_traces`', columns: OTEL_TRACES, timeType: 'integer' };

describe('featureQuery', () => {
  it('is one SELECT grouped by the instance, in the subset ClickHouse 18.16 accepts', () => {
    for (const shape of [records, spans]) {
      const q = featureQuery(shape, { where: "(run = 'bad')" }, 1.25);
      expect(q.match(/\bSELECT\b/g)).toHaveLength(1);
      expect(q.match(/\bGROUP BY\b/g)).toHaveLength(1);
      expect(q).not.toMatch(/\bWITH\b|\bOVER\s*\(|\bmedian\(|quantile|DateTime64|\{\w+:\w+\}/);
      expect(q).toMatch(/WHERE \(run = 'bad'\) AND toString\(`(instance|TraceId)`\) != ''/);
      // Only the features come back: every other array is an argument of ignore().
      const selected = q.slice(q.indexOf(') AS d_work,')).split('\nFROM')[0]!;
      for (const c of FEATURE_ROW_COLUMNS.slice(1)) expect(q).toMatch(new RegExp(`\\bd_${c}\\b`));
      const items = selected.replace(') AS d_work,', '').trim().split(', ').map((item) => item.replace(/^.* AS /, ''));
      expect(items).toEqual(FEATURE_ROW_COLUMNS.slice(1).map((c) => `d_${c}`));
    }
  });

  it('sorts records by time, then by the row number; subtracts integer times before they become floats', () => {
    const q = featureQuery(spans, { where: '1' }, 0);
    expect(q).toContain('arraySort(r -> (r.1, r.2)');
    expect(q).toMatch(/toFloat64\(s\.1 - d_base\) \/ 1000000000/);
    expect(featureQuery(records, { where: '1' }, 0)).toContain('groupArray((toFloat64(`time`), toUInt64(`seq`)');
  });

  it('writes Dref exactly (its eight bytes), not as a decimal 18.16 would round', () => {
    const x = 0.1 + 0.2;
    const lit = float64Literal(x);
    const hex = /unhex\('([0-9A-F]{16})'\)/.exec(lit)![1]!;
    expect(Buffer.from(hex, 'hex').readDoubleLE(0)).toBe(x);
    expect(featureQuery(records, { where: '1' }, x)).toContain(lit);
  });
});

describe('classes and mappings', () => {
  it('a class is a window START/END (UTC unless zoned, or epoch seconds) or a condition', () => {
    expect(timeWindow('2026-11-20T10:00/2026-11-20T11:00')).toEqual([Date.UTC(2026, 10, 20, 10), Date.UTC(2026, 10, 20, 11)]);
    expect(timeWindow('1700000000/1700000060.5')).toEqual([1.7e12, 1700000060500]);
    expect(timeWindow("run = 'a/b'")).toBeNull();
    expect(() => timeWindow('2026-11-20T11:00/2026-11-20T10:00')).toThrow(/start is not before its end/);
    expect(classFilter("run = 'bad'", records).where).toBe("(run = 'bad')");
    // Whole nanoseconds, in integers (no float between).
    expect(classFilter('1700000000.25/1700000001', spans).where).toBe('(toInt64(`Timestamp`) >= toInt64(1700000000250000000) AND toInt64(`Timestamp`) < toInt64(1700000001000000000))');
  });

  it('mappings: built-in shapes, overrides, and what is wrong with one', () => {
    expect(tableShape('records', 'instance=run,order=seq')).toEqual({ type: 'records', columns: { ...RECORDS_MAPPING, instance: 'run', order: 'seq' } });
    expect(tableShape('otel_traces', undefined).type).toBe('spans');
    expect(() => tableShape('jaeger', undefined)).toThrow(/--mapping jaeger: must be one of records, otel_traces, otel_logs/);
    expect(() => tableShape('records', 'colour=x')).toThrow(/--columns colour: not a field/);
    expect(() => tableShape('records', 'unit=days')).toThrow(/unit=days: must be one of s, ms, us, ns/);
    expect(() => tableShape('records', 'event=,state=')).toThrow(/map event= or state=/);
  });

  it('--columns splits at its commas outside brackets and quotes: an expression keeps its own', () => {
    const shape = tableShape('records', "run=concat(a, ',', b),order=seq,kind=arrayElement([x, y], 1)");
    expect(shape.columns).toMatchObject({ run: "concat(a, ',', b)", order: 'seq', kind: 'arrayElement([x, y], 1)' });
    expect(tableShape('otel_traces', "run=ResourceAttributes['ci.run']").columns).toMatchObject({ run: "ResourceAttributes['ci.run']" });
  });
});

describe('runs (check, history)', () => {
  const byRun: ResolvedShape = { ...records, columns: { ...records.columns, run: 'build' } } as ResolvedShape;

  it('groups by (run, instance) and names an instance run/instance, as readRuns does in files; rows without a run belong to none', () => {
    const q = featureQuery(byRun, { where: '(1)' }, 1);
    expect(q.match(/\bSELECT\b/g)).toHaveLength(1);
    expect(q).toMatch(/GROUP BY `build`, `instance`$/);
    expect(q).toContain("concat(toString(`build`), '/', toString(`instance`)) AS d_instance");
    expect(q).toContain('toString(`build`) AS d_run');
    expect(q).toContain("WHERE (1) AND toString(`instance`) != '' AND toString(`build`) != ''");
  });

  it("finds every run's instances in one query: duration, first time, and which selections matched", () => {
    const q = runInstancesQuery(byRun, [{ where: "(day < '2026-11-19')" }, { where: "(day = '2026-11-20')" }]);
    expect(q.match(/\bSELECT\b/g)).toHaveLength(1);
    expect(q).toContain("[max(if((day < '2026-11-19'), 1, 0)), max(if((day = '2026-11-20'), 1, 0))] AS selected");
    expect(q).toContain("WHERE ((day < '2026-11-19') OR (day = '2026-11-20')) AND");
    expect(q).toMatch(/GROUP BY `build`, `instance`$/);
    expect(() => runInstancesQuery(records, [{ where: '1' }])).toThrow(/no run column/);
  });
});
