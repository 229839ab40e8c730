import { describe, expect, it } from 'vitest';
import { stratifiedTest } from '../src/ttest/strata.js';

const f = (...x: number[]): Float64Array => Float64Array.from(x);
const g1 = f(1.0, 1.2, 0.9, 1.1);
const b1 = f(1.5, 1.7, 1.4, 1.9, 1.6);
const g2 = f(10.0, 11, 9.5, 10.5, 10.2);
const b2 = f(10.4, 11.2, 10.9);

describe('kinds: inverse-variance combination of per-kind differences (SPEC §3)', () => {
  it('one stratum is Welch\'s test (scipy 1.17.1 ttest_ind(b1, g1, equal_var=False))', () => {
    const r = stratifiedTest([{ kind: 'a', good: g1, bad: b1 }])!;
    expect(r.t).toBeCloseTo(5.299937469045506, 12);
    expect(r.p / 0.0011935715591503103).toBeCloseTo(1, 10);
  });

  it('two strata: d = Σ d_k/v_k / Σ 1/v_k, t = d·√W, Satterthwaite df', () => {
    // Hand calculation in numpy/scipy 1.17.1 (test/reference in the commit message's script):
    // t = 5.576099732958664, df = 8.194923836263266, p = 2·t.sf(t, df) = 0.0004817961283050854
    const r = stratifiedTest([{ kind: 'a', good: g1, bad: b1 }, { kind: 'b', good: g2, bad: b2 }])!;
    expect(r.t).toBeCloseTo(5.576099732958664, 11);
    expect(r.df).toBeCloseTo(8.194923836263266, 10);
    expect(r.p / 0.0004817961283050854).toBeCloseTo(1, 9);
    expect(r.strata.map((s) => s.kind)).toEqual(['a', 'b']);
  });

  it('a kind mix does not masquerade as a difference: pooled means differ, per-kind ones do not', () => {
    // good: mostly fast kind a; bad: mostly slow kind b; within each kind the classes agree.
    const r = stratifiedTest([
      { kind: 'a', good: f(1, 1.1, 0.9, 1, 1.05, 0.95), bad: f(1, 1.1, 0.9) },
      { kind: 'b', good: f(10, 10.5, 9.5), bad: f(10, 10.4, 9.6, 10.1, 9.9, 10) },
    ])!;
    expect(Math.abs(r.t)).toBeLessThan(1);
    expect(r.meanBad).toBeCloseTo(7, 2); // (3·1 + 6·10)/9, against good (6·1 + 3·10)/9 = 4
    expect(r.meanGood).toBeCloseTo(4, 2);
  });

  it('a kind with one bad value enters with the prediction variance', () => {
    const r = stratifiedTest([{ kind: 'a', good: f(1, 1.2, 0.9, 1.1), bad: f(5) }])!;
    // s² of good = 0.016666…, v = s²·(1 + 1/4), t = (5 − 1.05)/√v
    const s2 = (0.05 ** 2 + 0.15 ** 2 + 0.15 ** 2 + 0.05 ** 2) / 3;
    expect(r.t).toBeCloseTo(3.95 / Math.sqrt(s2 * 1.25), 10);
    expect(r.df).toBeCloseTo(3, 12);
  });

  it('no stratum with enough values: null; constant and different: separated', () => {
    expect(stratifiedTest([{ kind: 'a', good: f(1), bad: f(2) }])).toBeNull();
    expect(stratifiedTest([{ kind: 'a', good: f(1, 1), bad: f(2, 2) }])!.t).toBe(Infinity);
  });
});
