/**
 * A number with a time unit is read in seconds (src/parse/duration.ts), alike by the template miner (mask.ts
 * numericValue), by a rules file's `value:` group (translators/rules.ts) and by the group `templates -o` writes
 * (token-regex.ts numberRegex). Expected values are computed by hand beside each row.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationSeconds } from '../src/parse/duration.js';
import { numericValue } from '../src/parse/templates/mask.js';
import { numberRegex } from '../src/parse/templates/token-regex.js';
import { parseRulesTranslator } from '../src/parse/translators/rules.js';
import { recordsByInstance } from './helpers/records.js';

/** [token, seconds]: each unit, compound forms, µ in both code points, signs. */
const TIMES: Array<[string, number]> = [
  ['850ms', 0.85], //            850 / 10^3
  ['397.140ms', 0.39714], //     397140 / 10^6 (trailing zero kept by the writer, not by the value)
  ['1.2s', 1.2],
  ['0s', 0], //                  Go's zero Duration
  ['10ns', 1e-8], //             10 / 10^9
  ['1.5us', 0.0000015], //       15 / 10^7
  ['123\u00b5s', 0.000123], //   micro sign U+00B5 (Go prints this one)
  ['123\u03bcs', 0.000123], //   Greek mu U+03BC
  ['412.5\u00b5s', 0.0004125], // 4125 / 10^7
  ['1.774974444s', 1.774974444], // Go's nanosecond precision
  ['2m3.5s', 123.5], //          2·60 + 3.5
  ['1h0m0s', 3600], //           1·3600 + 0·60 + 0
  ['1h2m3s', 3723], //           3600 + 120 + 3
  ['1m4.139446029s', 60 + 4.139446029],
  ['2m500ms', 120.5], //         2·60 + 0.5 (ParseDuration's form; Go prints 2m0.5s)
  ['+1s0ms', 1], //              Android's TimeUtils.formatDuration (LogHub Android: `Screen frozen for +1s0ms`)
  ['+1m2s345ms', 60 + 2 + 0.345],
  ['-1.5s', -1.5],
  ['-2m3.5s', -123.5], //        the sign is the whole duration's
  ['+250ms', 0.25],
];

/** [token, value]: what stays as it was read before (no time unit, or an ambiguous one), and what is no number. */
const OTHERS: Array<[string, number]> = [
  ['45MB', 45], ['42%', 42], ['12', 12], ['-3.5', -3.5],
  // Words of a fixed unit stay as written: a logger writing `msec` writes every value in msec.
  ['45msec', 45], ['3sec', 3], ['3secs', 3],
  // `5m`, `5h`: minutes or meters, hours or a count: ambiguous, as written.
  ['5m', 5], ['5h', 5], ['1.5h', 1.5], ['10MS', 10], ['2S', 2],
  // Not numbers: a compound with no seconds' part, a µ not before `s`, a unit then digits, hex.
  ['1h30m', NaN], ['5\u00b5', NaN], ['12ms3', NaN], ['0x1f', NaN], ['2m-3s', NaN], ['1m2h3s', NaN], ['1h2h3s', NaN], ['1s2m3s', NaN], ['1.5m3s', NaN], ['1.s', NaN],
];

describe('a number with a time unit reads in seconds', () => {
  it.each(TIMES)('%s = %s s (miner, rules file value, the written group)', (token, seconds) => {
    expect(numericValue(token)).toBe(seconds);
    expect(numericValue(`duration=${token},`)).toBe(seconds);
    expect(numericValue(`(${token})`)).toBe(seconds);
    expect(durationSeconds(token)).toBe(seconds);
    // templates -o's group holds the whole duration, unit included.
    expect(new RegExp(`^${numberRegex(0)}$`).exec(token)?.groups?.p0).toBe(token);
  });

  it.each(OTHERS)('%s stays %s', (token, value) => {
    if (Number.isNaN(value)) expect(numericValue(token)).toBeNaN();
    else expect(numericValue(token)).toBe(value);
    expect(durationSeconds(token)).toBeNaN();
    // The written group holds the number only (or nothing where the miner reads no number).
    const group = new RegExp(`^${numberRegex(0)}$`).exec(token)?.groups?.p0;
    if (Number.isNaN(value)) expect(group).toBeUndefined();
    else expect(Number(group)).toBe(value);
  });

  it('a rules file reads a value group holding a time unit in seconds (it rejected such a line before); other units still reject it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-duration-'));
    writeFileSync(join(dir, 'a.log'), [
      '2026-11-20 10:00:01,000 GC took 850ms',
      '2026-11-20 10:00:02,000 GC took 1.2s',
      '2026-11-20 10:00:03,000 GC took 2m3.5s',
      '2026-11-20 10:00:04,000 GC took 123\u00b5s',
      '2026-11-20 10:00:05,000 GC took 45MB',
      '2026-11-20 10:00:06,000 GC took 17',
    ].join('\n'));
    const translator = parseRulesTranslator('r.yaml', `
timestamp: log4j
rules:
  - match: 'GC took (?<v>\\S+)$'
    state: gc
    value: v
`);
    const { byInstance } = await recordsByInstance(join(dir, 'a.log'), { translator });
    const at = 1_795_168_800; // 2026-11-20 10:00:00 UTC
    expect(byInstance['a.log']).toEqual([
      `S ${at + 1} gc 0.85`, `S ${at + 2} gc 1.2`, `S ${at + 3} gc 123.5`, `S ${at + 4} gc 0.000123`, `S ${at + 6} gc 17`,
    ]);
    // The 45MB line: its group holds no number (a rules file reads no unit but a time unit).
    expect(translator.problems().map((p) => [p.reason, p.count])).toEqual([["matched rule 1 (state gc) but gave a value that is not a number (group 'v')", 1]]);
  });
});
