// plainTable (src/parse/metrics.ts), the fast path for metric CSV files,
// against csv-parse with readTable's options on 2 000 generated texts: the
// same rows and the same line numbers, or null where it must not decide.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { plainTable, readMetrics } from '../src/parse/metrics.js';
import { MAX_LINE_LENGTH } from '../src/parse/lines.js';
import { mulberry32 } from '../src/stats/prng.js';

const csvParse = (text: string): { record: string[]; line: number }[] =>
  (parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_LINE_LENGTH }) as unknown as { record: string[]; info: { lines: number } }[])
    .map(({ record, info }) => ({ record, line: info.lines }));

describe('plainTable: metric CSV without quotes, split at commas', () => {
  it('reads 2 000 generated texts as csv-parse does (rows, cells, line numbers)', () => {
    const random = mulberry32(17);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const cells = ['', ' ', '1', '-2.5', '1e3', 'ts-a-1', 'a b', '  x  ', 'NaN', 'é', '1674981669', '\t'];
    for (let n = 0; n < 2000; n++) {
      const lines: string[] = [];
      const count = Math.floor(random() * 8);
      for (let k = 0; k < count; k++) {
        lines.push(random() < 0.15 ? '' : Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(cells)).join(','));
      }
      const text = `${random() < 0.2 ? '\uFEFF' : ''}${lines.join('\n')}${random() < 0.5 ? '\n' : ''}`;
      expect(plainTable(text), JSON.stringify(text)).toEqual(csvParse(text));
    }
  });

  it('leaves quotes, carriage returns and over-long lines to csv-parse', () => {
    expect(plainTable('a,b\n"1,2",3\n')).toBeNull();
    expect(plainTable('a,b\r\n1,2\r\n')).toBeNull();
    expect(plainTable(`a\n${'x'.repeat(MAX_LINE_LENGTH + 1)}\n`)).toBeNull();
    expect(plainTable(`a\n${'x'.repeat(MAX_LINE_LENGTH)}\n`)).toHaveLength(2);
  });
});

describe('readMetrics, either way of reading a file', () => {
  it('reads a quoted CRLF file through csv-parse (gzipped, in chunks) as the same table unquoted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-metrics-csv-'));
    const rows = Array.from({ length: 6000 }, (_, k) => [1_674_981_669 + 60 * (k % 2000), `ts-order-service-${k < 2000 ? 'a' : k < 4000 ? 'b' : 'c'}`, (k % 97) / 7, k % 13 === 0 ? '' : String(k)]);
    const plain = ['TimeStamp,PodName,CpuUsageRate(%),Requests', ...rows.map((r) => r.join(','))].join('\n');
    const quoted = ['"TimeStamp","PodName","CpuUsageRate(%)","Requests"', ...rows.map((r) => r.map((c) => `"${c}"`).join(','))].join('\r\n');
    mkdirSync(join(dir, 'plain'));
    mkdirSync(join(dir, 'quoted'));
    writeFileSync(join(dir, 'plain', 'm.csv'), plain);
    // Large enough to arrive in several chunks (64 KiB each), so that every chunk must reach csv-parse.
    writeFileSync(join(dir, 'quoted', 'm.csv.gz'), gzipSync(quoted, { level: 0 }));
    expect(plainTable(quoted)).toBeNull();
    expect(quoted.length).toBeGreaterThan(3 * 64 * 1024);
    const a = await readMetrics([join(dir, 'plain')]);
    const b = await readMetrics([join(dir, 'quoted')]);
    expect(b.samples).toBe(6000);
    expect(b.metricNames).toEqual(['CpuUsageRate(%)', 'Requests']);
    expect({ ...b, files: 0 }).toEqual({ ...a, files: 0 });
  });
});
