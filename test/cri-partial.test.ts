/**
 * CRI partial lines (src/parse/cri-partial.ts; docs/input.md, "Exports"): the runtime cuts a line over its buffer
 * into records tagged `P` and a last one tagged `F`; they are joined per stream before the row is read, with the
 * first part's time, as the kubelet and Promtail's `cri` stage join them. A line still cut at the file's end is
 * kept as it is, and counted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CriJoiner, joinPartials } from '../src/parse/cri-partial.js';
import { listInputFiles } from '../src/parse/files.js';
import { detectTable } from '../src/parse/layout.js';
import { describeModel } from '../src/parse/templates/describe.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { recordsByInstance } from './helpers/records.js';

const T = (s: number): string => `2026-12-07T10:00:0${s}.000000000Z`;

describe('CriJoiner', () => {
  it('a whole record passes as it is; P parts are held per stream and their F completes the line, with the first part\'s time', () => {
    const j = new CriJoiner();
    const out = [
      `${T(0)} stdout F INFO cart 3 updated`,
      `${T(1)} stdout P INFO charge o`,
      // (stderr's records pass between: the streams are written apart.)
      `${T(2)} stderr F WARN retry 1`,
      `${T(2)} stdout P k in 2`,
      `${T(3)} stdout F 31 ms`,
      `${T(4)} stdout P:x {"msg":"a `,
      `${T(4)} stderr P E`,
      `${T(5)} stdout F b"}`,
      `${T(6)} stderr F RROR x`,
      'not a CRI record',
      `${T(7)} stdout F`,
    ].map((r, i) => j.push(r, i + 1));
    expect(out).toEqual([
      `${T(0)} stdout F INFO cart 3 updated`,
      null,
      `${T(2)} stderr F WARN retry 1`,
      null,
      `${T(1)} stdout F INFO charge ok in 231 ms`,
      null,
      null,
      `${T(4)} stdout F {"msg":"a b"}`,
      `${T(4)} stderr F ERROR x`,
      'not a CRI record',
      `${T(7)} stdout F`,
    ]);
    expect(j.flush()).toEqual([]);
  });

  it('a line still cut at the end is kept as a line, numbered by its last part, in the order the lines began', () => {
    const j = new CriJoiner();
    expect([`${T(1)} stderr P ab`, `${T(2)} stdout P cd`, `${T(3)} stderr P ef`].map((r, i) => j.push(r, i + 1))).toEqual([null, null, null]);
    expect(j.flush()).toEqual([{ line: `${T(1)} stderr F abef`, lineNo: 3 }, { line: `${T(2)} stdout F cd`, lineNo: 2 }]);
    expect(j.flush()).toEqual([]);
    // A file's sample: a line cut at its end is left out (its rest is past the sample).
    expect(joinPartials([`${T(1)} stdout P a`, `${T(2)} stdout F b`, `${T(3)} stdout P c`])).toEqual([`${T(1)} stdout F ab`]);
    // (No line of the sample whole: one line cut in more parts than the sample holds. Its parts so far, as one line.)
    expect(joinPartials([`${T(1)} stdout P a`, `${T(2)} stdout P b`])).toEqual([`${T(1)} stdout F ab`]);
  });
});

describe('a CRI file with cut lines, read with no translator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distalyze-cri-partial-'));
  const lines = [
    `${T(0)} stdout F {"level":"info","msg":"charge ok in 21 ms"}`,
    `${T(1)} stdout P {"level":"info","msg":"cha`,
    `${T(1)} stdout P rge ok in 2`,
    `${T(2)} stdout F 3 ms"}`,
    `${T(3)} stdout F {"level":"info","msg":"charge ok in 25 ms"}`,
    `${T(4)} stdout P {"level":"warn","msg":"charge retried","att`,
  ];
  for (const c of ['good', 'bad']) {
    mkdirSync(join(dir, c));
    writeFileSync(join(dir, c, 'pay.log'), `${lines.join('\n')}\n`);
  }

  it('the layout is found from the joined lines: a JSON line cut in two is still a record of its own (its level, its fields)', () => {
    const l = detectTable('pay.log', 'pay.log', lines)!;
    expect([l.kind, l.cell?.columns, l.messageField]).toEqual(['cri', ['level', 'msg'], 'msg']);
  });

  it('gives one row a line: the joined one at its first part\'s time, the cut one at the end kept and counted', async () => {
    const model = await mineTemplates({ good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') });
    // (One a file; its half of a JSON line is then no row that can be read: counted too.)
    expect([model.partial, model.untimed, model.lines]).toEqual([2, 2, 12]);
    expect(describeModel(model).split('\n')).toContain('  2 lines cut by the container runtime (CRI `P`) had no final part at the end of their file: read as they are');
    const { byInstance, stats } = await recordsByInstance(join(dir, 'good'), { translator: templateTranslator(model) });
    // 2026-12-07T10:00:00Z = 1796637600.
    expect(Object.values(byInstance)).toEqual([[
      'E 1796637600 charge ok in <*> ms', 'S 1796637600 charge ok in <*> ms #1 21',
      'E 1796637601 charge ok in <*> ms', 'S 1796637601 charge ok in <*> ms #1 23',
      'E 1796637603 charge ok in <*> ms', 'S 1796637603 charge ok in <*> ms #1 25',
    ]]);
    expect([stats.lines, stats.skippedLines]).toEqual([6, 0]);
  });
});
