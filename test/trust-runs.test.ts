/**
 * Issue 54 ("Trust, round 3"), `check` and `history`: what they skip is
 * counted and shown, a run read in part is never judged, and a short history
 * says what it can detect.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';

/** The issue's `mk DIR SHIFT`: 4 instances, Start at 0, a state q = k + shift, End at 1 + shift + k/10. */
function mk(dir: string, shift: number): void {
  mkdirSync(dir, { recursive: true });
  for (let k = 1; k <= 4; k++) writeFileSync(join(dir, `i${k}.dlog`), `E\t0\tStart\nS\t0.1\tq\t${k + shift}\nE\t${1 + shift}.${k}\tEnd\n`);
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'distalyze-trust-runs-'));
}

/** The issue's damage: each file's last event line with spaces for TABs. */
function spaces(dir: string): void {
  for (let k = 1; k <= 4; k++) {
    const path = join(dir, `i${k}.dlog`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^E\t(\d\.\d)\tEnd$/m, 'E $1 End'));
  }
}

describe('check: lines that are not records (item 2)', () => {
  it('a new run whose event lines were skipped is not judged: exit 2, one line naming the first', async () => {
    const root = scratch();
    for (const r of [1, 2, 3]) mk(join(root, 'base', `r${r}`), 0);
    mk(join(root, 'b4'), 1);
    spaces(join(root, 'b4'));
    const r = await run('check', join(root, 'base'), join(root, 'b4'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`distalyze: check: new run ${join(root, 'b4')}: 4 lines that should be records could not be read, e.g. ${join(root, 'b4/i1.dlog')}:3: not a record: 'E 2.1 End'; ` +
      'P of a run read in part cannot be judged (fix the lines; --strict stops at the first)\n');
  });

  it('a baseline run whose event lines were skipped is left out, counted and named (text, JSON, a note beside the gate line)', async () => {
    const root = scratch();
    for (const r of [1, 2, 3, 4]) mk(join(root, 'base', `r${r}`), 0);
    spaces(join(root, 'base', 'r2'));
    mk(join(root, 'b'), 1);
    const r = await run('check', join(root, 'base'), join(root, 'b'));
    expect(r.code).toBe(1);
    const lost = `${join(root, 'base/r2/i1.dlog')}:3: not a record: 'E 1.1 End'`;
    // The gate line is printed once, in the text on stdout (issue 57), and the note beside it there.
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`note: baseline run r2 left out: 4 lines that should be records could not be read, e.g. ${lost}\n`);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `check: 1 new run (${join(root, 'b')}; 4 instances) against 3 baseline runs (12 instances); P = duration`,
      'FAIL: duration is 80.0% slower than the baseline (+1 s: 2.25 against 1.25 over 3 baseline runs; p 0.0e+0, effect ∞ sd), beyond --max-slowdown 5%; 16 other features differ significantly',
      'skipped 4 lines that were not records (baseline 4, new 0; by run: r2 4), e.g.:',
      `  ${lost}`,
      `  ${join(root, 'base/r2/i2.dlog')}:3: not a record: 'E 1.2 End'`,
    ]);
    const json = JSON.parse((await run('check', join(root, 'base'), join(root, 'b'), '--json', '-', '-q')).stdout) as { skippedLines: unknown; leftOut: unknown };
    expect(json.leftOut).toEqual(['r2']);
    expect(json.skippedLines).toEqual({ baseline: 4, new: 0, runs: [{ run: 'r2', lines: 4, lost: 4, examples: [1, 2, 3, 4].map((k) => `${join(root, `base/r2/i${k}.dlog`)}:3: not a record: 'E 1.${k} End'`) }] });
  });

  it('with fewer than 3 whole baseline runs left, an error naming a lost line', async () => {
    const root = scratch();
    for (const r of [1, 2, 3]) mk(join(root, 'base', `r${r}`), 0);
    spaces(join(root, 'base', 'r2'));
    mk(join(root, 'b'), 1);
    const r = await run('check', join(root, 'base'), join(root, 'b'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: check: cannot test P (duration): 1 of 3 baseline runs were left out because lines that should be records could not be read (e.g. ${join(root, 'base/r2/i1.dlog')}:3: not a record: 'E 1.1 End'); at least 3 whole runs are needed\n`);
  });
});

describe('history: lines that are not records (item 2)', () => {
  it('are counted and shown per run', async () => {
    const root = scratch();
    for (const r of [1, 2, 3, 4, 5, 6]) mk(join(root, 'h', `r${r}`), 0);
    spaces(join(root, 'h', 'r5'));
    const r = await run('history', join(root, 'h'));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain('skipped 4 lines that were not records (by run: r5 4), e.g.:');
  });
});

describe('history: a short history (item 3)', () => {
  /** 12 runs of 4 instances: P (the duration) 1 s, then 10 s from run 7; 6 state variables that do not change. */
  function twelve(root: string): string {
    for (let r = 1; r <= 12; r++) {
      const dir = join(root, 'h12', `r${String(r).padStart(2, '0')}`);
      mkdirSync(dir, { recursive: true });
      for (let k = 1; k <= 4; k++) {
        const p = (r < 7 ? 1 : 10) + 0.01 * (((k * 7 + r * 3) % 5) - 2);
        const states = [1, 2, 3, 4, 5, 6].map((j) => `S\t0.1\tv${j}\t${((r * 31 + k * 17 + j * 7) ** 2 % 97) / 10}\n`).join('');
        writeFileSync(join(dir, `i${k}.dlog`), `E\t0\tStart\n${states}E\t${p}\tEnd\n`);
      }
    }
    return join(root, 'h12');
  }

  it('finds a 10× change of P in 12 runs (P tested at alpha over its own two series) and says what the others can reach', async () => {
    const r = await run('history', twelve(scratch()));
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(1, 6)).toEqual([
      "searched 20 distinct series (mean, variance, correlation with P per feature); a change needs p < 0.05/2 in P's own 2 series, p < 0.05/18 in the 18 others",
      "with 12 runs no change of the series other than P's can reach p < 0.0028 (at best p 0.0022, a clean step halfway); at least 13 runs are needed",
      '',
      'change at run r07 (#7): 7 series',
      '  P = duration: mean 0.9996 → 10 (p 0.0062)',
    ]);
  });

  it('with 6 runs, says that nothing can be detected and how many runs are needed', async () => {
    const root = scratch();
    for (const r of [1, 2, 3, 4, 5, 6]) mk(join(root, 'h', `r${r}`), r === 6 ? 1 : 0);
    const r = await run('history', join(root, 'h'));
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      "searched 3 distinct series (mean, variance, correlation with P per feature); a change needs p < 0.05/2 in P's own 2 series, p < 0.05/1 in the 1 other",
      'with 6 runs no change can reach p < 0.025 (at best p 0.1, a clean step halfway); at least 9 runs are needed',
      'with 6 runs no change of the other series can reach p < 0.05 (at best p 0.1, a clean step halfway); at least 8 runs are needed',
    ]);
  });
});

describe('runs given twice, a run directory taken for a history (beyond the items)', () => {
  it('check: a new run that is a baseline run is an error naming both', async () => {
    const root = scratch();
    for (const r of [1, 2, 3]) mk(join(root, 'base', `r${r}`), 0);
    const r = await run('check', join(root, 'base'), join(root, 'base', 'r1'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: run '${join(root, 'base', 'r1')}' is the same path as run 'r1' (${realpathSync(join(root, 'base', 'r1'))}): its files would be read twice\n`);
  });

  it('history of one directory of files: says each file was taken as a run', async () => {
    const root = scratch();
    mkdirSync(join(root, 'one'));
    for (let k = 1; k <= 6; k++) writeFileSync(join(root, 'one', `i${k}.dlog`), `E\t0\tStart\nE\t1.${k}\tEnd\n`);
    const r = await run('history', join(root, 'one'));
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith(`note: each run is one file of '${join(root, 'one')}' (it holds no directories); to read a directory of instance files as one run, give the run directories\n`)).toBe(true);
  });
});
