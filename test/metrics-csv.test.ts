// plainTable (src/parse/metrics.ts), the fast path for metric CSV files,
// against csv-parse with readTable's options on 2 000 generated texts: the
// same rows and the same line numbers, or null where it must not decide.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { plainTable } from '../src/parse/metrics.js';
import { MAX_LINE_LENGTH } from '../src/parse/lines.js';
import { mulberry32 } from '../src/dependency-network/prng.js';

const csvParse = (text: string): { record: string[]; line: number }[] =>
  (parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_LINE_LENGTH }) as { record: string[]; info: { lines: number } }[])
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
