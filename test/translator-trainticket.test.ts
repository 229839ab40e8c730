import { describe, expect, it } from 'vitest';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';
// @ts-expect-error: a plain .mjs example without type declarations
import { parseStatement, serviceOf, splitCsv } from '../examples/trainticket/trainticket.mjs';

// The sample in fixtures/raw/trainticket/ is cut from the Nezha TrainTicket
// dataset (MIT, LICENSE beside it): three requests of the baseline minute
// (good/) and three of fault 13's minute (bad/), rows unchanged, plus one
// corrupt row of that minute (two log writes interleaved: ten CSV fields).
const RAW = 'fixtures/raw/trainticket';
const TRANSLATOR = 'examples/trainticket/trainticket.mjs';

describe('examples/trainticket: the Nezha TrainTicket log export (module)', () => {
  it('one instance per TraceID, one event per <service>:<Class#line> at TimeUnixNano, WARN/ERROR as events too', async () => {
    const { byInstance, stats } = await recordsByInstance(`${RAW}/good`, { translator: await loadTranslator(TRANSLATOR) });
    expect(Object.keys(byInstance)).toEqual(['49a51828322183eb20bfe4ace3060000', '693f361289b8717c712f6a6d9d0fb008', '410f102a89f8db22c0ca4ff3c9b8c494']); // in order of first appearance
    // The rows as they stand in the file (newest first per pod); distalyze sorts by time.
    // Times: 1674982208255000410 ns → 1674982208.255000410 s (as a double).
    expect(byInstance['693f361289b8717c712f6a6d9d0fb008']).toEqual([
      'E 1674982208.2550004 ts-order-other-service:o.s.OrderOtherServiceImpl#384',
      'E 1674982208.252046 ts-order-other-service:o.c.OrderOtherController#103',
      'E 1674982208.2620025 ts-inside-payment-service:i.s.InsidePaymentServiceImpl#71',
      'E 1674982208.2620025 ts-inside-payment-service:WARN', // the line is `16:50:08.261 WARN  i.s.InsidePaymentServiceImpl#71 …`
      'E 1674982208.2451835 ts-inside-payment-service:i.c.InsidePaymentController#33',
    ]);
    expect(Object.values(byInstance).flat()).toHaveLength(23 + 2); // 23 rows + 2 WARN events
    expect(stats.skippedLines).toBe(0); // the header is understood, not skipped
  });

  it('a corrupt row (interleaved writes) is counted as untranslated, with its file and line', async () => {
    const { byInstance, stats } = await recordsByInstance(`${RAW}/bad`, { translator: await loadTranslator(TRANSLATOR) });
    expect(Object.keys(byInstance)).toHaveLength(3);
    expect(byInstance['7d55818750d44de85b5dc487bfb1ac86']).toContain('E 1674986709.8172739 ts-execute-service:ERROR');
    expect(stats.skippedLines).toBe(1);
    expect(stats.skippedExamples[0]).toMatch(/^fixtures\/raw\/trainticket\/bad\/log\.csv:21: /);
  });

  it('splits RFC 4180 fields: commas inside quotes, doubled quotes', () => {
    expect(splitCsv('a,"b, c","say ""hi""",,"x"')).toEqual(['a', 'b, c', 'say "hi"', '', 'x']);
    expect(splitCsv('')).toEqual(['']);
  });

  it('names the service by the pod without its replica suffixes', () => {
    expect(serviceOf('ts-basic-service-5dc8d4f9fd-46997')).toBe('ts-basic-service');
    expect(serviceOf('ts-preserve-service-b5ccf8557-j4txs')).toBe('ts-preserve-service'); // a 9-character hash
    expect(serviceOf('ts-station-food-service-dc4d75dd-fw6ft')).toBe('ts-station-food-service'); // an 8-character hash
    expect(serviceOf('ts-mysql-0')).toBe('ts-mysql'); // a StatefulSet's ordinal
    expect(serviceOf('ts-ui-dashboard')).toBe('ts-ui-dashboard');
  });

  it('reads the level and Class#line of the service\'s line, or nothing', () => {
    expect(parseStatement('{"log":"16:44:10.485 ERROR t.s.TravelServiceImpl#372 TraceID: x [getTickets]\\n"}'))
      .toEqual({ level: 'ERROR', where: 't.s.TravelServiceImpl#372' });
    expect(parseStatement('{"log":"Started Application in 3 s"}')).toBeNull();
    expect(parseStatement('{"log":"16:44:10.485 INFO  t.s.X#1 …"}:""2023"}')).toBeNull(); // not JSON
  });

  it('a span file in the same folder is read natively, not by the translator; any other header is an error naming the file', async () => {
    const translator = await loadTranslator(TRANSLATOR);
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-tt-'));
    writeFileSync(join(dir, 'trace.csv'), 'TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration\nt1,s1,root,ts-a-1,GET,1,2,1\n');
    const spans = await recordsByInstance(dir, { translator });
    expect(Object.keys(spans.byInstance)).toEqual(['t1']);
    expect(spans.byInstance['t1']!.filter((r) => r.startsWith('E '))).toHaveLength(2); // the span's start and end
    expect(spans.stats.skippedLines).toBe(0);
    writeFileSync(join(dir, 'trace.csv'), 'time,message\n1,hello\n');
    await expect(recordsByInstance(dir, { translator })).rejects.toThrow(/trace\.csv:1: .*header lacks a 'TimeUnixNano' column/);
  });
});
