/**
 * OpenTelemetry OTLP/JSON logs with no translator (issue 53; docs/input.md, "Exports"; src/parse/otlp.ts): one
 * LogsData object a line (the collector's file exporter), each log record a row read as a JSON Lines record. The
 * export fixture (fixtures/raw/exports/otlp) is checked with the other exports in layout-exports.test.ts; here, the
 * rules record by record, and what a line that cannot be read, `templates --lines` and `templates -o` give.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTable } from '../src/parse/layout.js';
import { otlpRecords, severityName, statementKey } from '../src/parse/otlp.js';
import { run } from './helpers/run.js';

const str = (s: string): { stringValue: string } => ({ stringValue: s });
const attrs = (o: Record<string, unknown>): Array<{ key: string; value: unknown }> => Object.entries(o).map(([key, value]) => ({ key, value }));

/** A LogsData line of one resource and scope. */
function logsData(resource: Record<string, unknown>, records: readonly unknown[]): string {
  return JSON.stringify({ resourceLogs: [{ resource: { attributes: attrs(resource) }, scopeLogs: [{ scope: { name: 'com.example' }, logRecords: records }] }] });
}

describe('a LogsData line: its log records as flat records', () => {
  it('time (observed where 0), level (severityNumber where no text), body, attributes after it, ids, resource where-fields', () => {
    const line = logsData({ 'service.name': str('cart'), 'k8s.pod.name': str('cart-5c95b49cff-tdsdz') }, [
      {
        timeUnixNano: '0', observedTimeUnixNano: '1796637600000000000', severityNumber: 13,
        body: { kvlistValue: { values: attrs({ msg: str('cart loaded'), items: { intValue: '3' }, level: str('warn') }) } },
        attributes: attrs({ 'http.response.status_code': { intValue: 200 }, 'thread.name': str('main'), 'log.file.path': str('/var/log/c.log'), note: str('two words'), ok: { boolValue: true }, ratio: { doubleValue: 0.5 }, tags: { arrayValue: { values: [str('a')] } } }),
        traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174',
      },
      { timeUnixNano: 1796637601000000000, severityText: 'Error', body: str('boom'), traceId: '', spanId: '' },
    ]);
    expect(otlpRecords(line)).toEqual([
      {
        timeUnixNano: '1796637600000000000', severityText: 'WARN',
        // (The body's own level is a role, not a pair; a place, a collector's log.* and an array stay out.)
        body: 'cart loaded items=3 http.response.status_code=200 note="two words" ok=true ratio=0.5',
        traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174',
        'resource.service.name': 'cart', 'resource.k8s.pod.name': 'cart-5c95b49cff-tdsdz',
        'attributes.thread.name': 'main', 'attributes.log.file.path': '/var/log/c.log', 'attributes.tags': '["a"]',
      },
      // (A time written as a number is read as written; no ids: none.)
      { timeUnixNano: '1796637601000000000', severityText: 'Error', body: 'boom', 'resource.service.name': 'cart', 'resource.k8s.pod.name': 'cart-5c95b49cff-tdsdz' },
    ]);
    // Not a LogsData object (cut short, or resourceLogs not a list): none.
    expect([otlpRecords(line.slice(0, 120)), otlpRecords('{"resourceLogs":{}}')]).toEqual([null, null]);
  });

  it('severityNumber ranges (the logs data model): 1–4 TRACE … 21–24 FATAL, and enum names', () => {
    expect([1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 0, 25, '9', 'SEVERITY_NUMBER_WARN2', 'SEVERITY_NUMBER_UNSPECIFIED', undefined].map(severityName))
      .toEqual(['TRACE', 'TRACE', 'DEBUG', 'DEBUG', 'INFO', 'INFO', 'WARN', 'WARN', 'ERROR', 'ERROR', 'FATAL', 'FATAL', '', '', 'INFO', 'WARN', '', '']);
  });

  it('which attributes follow the body: the statement\'s, dotted or not; never a role, a place or where the code is', () => {
    const keys = ['http.response.status_code', 'db.rows', 'user', 'trace_id', 'level', 'thread.id', 'k8s.pod.name', 'service.name', 'host.name', 'log.iostream', 'code.lineno', 'exception.stacktrace', 'exception.type'];
    expect(keys.filter(statementKey)).toEqual(['http.response.status_code', 'db.rows', 'user', 'exception.type']);
  });

  it('the layout: the records\' roles by their names, the entity the resource\'s service; the service spread over a batch', () => {
    // (One batch, records grouped by resource: the first records are all one service's, the sample is not.)
    const line = JSON.stringify({
      resourceLogs: ['api', 'db'].map((s) => ({
        resource: { attributes: attrs({ 'service.name': str(s), 'telemetry.sdk.name': str('opentelemetry') }) },
        scopeLogs: [{ logRecords: Array.from({ length: 60 }, (_, i) => ({ timeUnixNano: `${1796637600 + i}000000000`, severityNumber: 9, body: str(`${s} step ${i}`), traceId: `${i}`.padStart(32, 'a') })) }],
      })),
    });
    const l = detectTable('x.jsonl', 'x.jsonl', [line])!;
    const col = (i: number): string | undefined => l.columns[i];
    expect([l.otlp, col(l.time), l.timeFormat, col(l.message), col(l.level), col(l.entity), col(l.trace), l.span]).toEqual([true, 'timeUnixNano', 'epoch-ns', 'body', 'severityText', 'resource.service.name', 'traceId', -1]);
  });

  it('the entity is service.name where it is constant and the hosts vary (a JSON Lines file would take the host); the host is the source', () => {
    const lines = ['node-1', 'node-2'].map((h) => logsData({ 'service.name': str('api'), 'host.name': str(h) }, [0, 1, 2].map((i) => ({ timeUnixNano: `${1796637600 + i}000000000`, body: str(`step ${i}`) }))));
    const l = detectTable('x.jsonl', 'x.jsonl', lines)!;
    expect([l.columns[l.entity], l.columns[l.source]]).toEqual(['resource.service.name', 'resource.host.name']);
    // --entity-column still names another.
    const forced = detectTable('x.jsonl', 'x.jsonl', lines, { entityColumn: 'resource.host.name' })!;
    expect(forced.columns[forced.entity]).toBe('resource.host.name');
  });
});

describe('OTLP/JSON files through the CLI', () => {
  const SET = 'fixtures/raw/exports/otlp';

  it('a line that is no LogsData (cut short) is counted and skipped, naming file and line, as a JSON Lines row; --strict makes it an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-otlp-'));
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      const lines = readFileSync(`${SET}/${c}/logs.jsonl`, 'utf8').split('\n');
      if (c === 'bad') lines[3] = (lines[3] as string).slice(0, 500);
      writeFileSync(join(dir, c, 'logs.jsonl'), lines.join('\n'));
    }
    const r = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('  1 line were no row that could be read');
    expect(r.stderr).toContain(`skipped 1 line that was not a record (good 0, bad 1), e.g.:\n    ${join(dir, 'bad', 'logs.jsonl')}:4: `);
    const strict = await run(join(dir, 'good'), join(dir, 'bad'), '--strict');
    expect(strict.code).toBe(2);
    expect(strict.stderr.trim().split('\n').pop()).toMatch(new RegExp(`^distalyze: ${join(dir, 'bad', 'logs.jsonl')}:4: no translator rule matched: '\\{"resourceLogs"`));
  });

  it('templates --lines: one row per log record, each with its line number', async () => {
    const r = await run('templates', `${SET}/good`, `${SET}/bad`, '--lines');
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n').slice(1).map((l) => l.split('\t'));
    // good: 96 records (24 requests, 4 lines each) in 8 lines of 12; bad: 104 (8 retries more) in 9.
    expect(rows).toHaveLength(200);
    expect(rows.filter((x) => x[0] === `${SET}/good/logs.jsonl` && x[1] === '1')).toHaveLength(12);
    expect(rows.filter((x) => x[2] === '-')).toEqual([]);
  });

  it('templates -o: a rules file cannot read many records a line; it says so, leaves every template out, and does not fail', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'distalyze-otlp-rules-')), 'rules.yaml');
    const r = await run('templates', `${SET}/good`, `${SET}/bad`, '-o', out);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      `wrote ${out}: 0 rules, 5 templates left out (see its comments)`,
      'note: a rules file reads one record a line, and an OTLP/JSON line holds many log records: no rule can read them; flatten the files to JSON Lines first and write the rules from those (see its comments)',
      '',
    ]);
    expect(readFileSync(out, 'utf8')).toContain("e.g. jq -c '.resourceLogs[] |");
  });

  it('OTLP/JSON printed over several lines (as opentelemetry-proto\'s examples are): a one-line error, hinting jq -c . to make it one LogsData a line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-otlp-doc-'));
    const doc = JSON.stringify(JSON.parse(logsData({ 'service.name': str('api') }, [{ timeUnixNano: '1796637600000000000', body: str('a b') }])), null, 2);
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, 'logs.json'), `${doc}\n`);
    }
    const r = await run(join(dir, 'good'), join(dir, 'bad'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `distalyze: ${join(dir, 'good', 'logs.json')}: a JSON document over several lines, not one record a line`,
      '  hint: give one LogsData object a line, as the collector\'s file exporter writes OTLP/JSON: jq -c . FILE',
    ]);
  });

  it('a first line longer than the 256 KB sampled: read whole for its layout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-otlp-long-'));
    for (const [c, ms] of [['good', 20], ['bad', 200]] as const) {
      mkdirSync(join(dir, c));
      // 60 requests of 40 records each in one line (~370 KB: past the 5 chunks of 64 KiB read), then one more line.
      const records = (from: number): unknown[] => Array.from({ length: 2400 }, (_, i) => ({
        timeUnixNano: `${BigInt(1796637600 + from + i) * 1000000000n}`, severityText: 'INFO',
        body: str(i % 40 === 39 ? `done in ${ms + (i % 7)} ms` : `step ${i % 40} of request ${Math.floor(i / 40)} ok`), traceId: `${Math.floor((from + i) / 40)}`.padStart(32, 'f'),
      }));
      writeFileSync(join(dir, c, 'logs.jsonl'), `${logsData({ 'service.name': str('api') }, records(0))}\n${logsData({ 'service.name': str('api') }, records(2400))}\n`);
    }
    expect(readFileSync(join(dir, 'good', 'logs.jsonl'), 'utf8').indexOf('\n')).toBeGreaterThan(5 * 64 * 1024);
    const r = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toContain('from 9600 log records; instances by traceId;');
    const json = JSON.parse(r.stdout) as { verdict: { causes: Array<{ variable: string }> } };
    expect(json.verdict.causes[0]?.variable).toBe('api:done in <*> ms #1');
  });
});
