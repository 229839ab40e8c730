#!/usr/bin/env python3
"""A reference implementation of distalyze's analysis in the Python data stack,
for the benchmark (issue 17): the same files in, the same features, Welch t and
regression trees out, written the way a competent numpy/pandas/scipy/sklearn
user would (vectorised, C parsers, no per-record Python loop).

    python bench/reference.py GOOD_DIR BAD_DIR [--no-trees]

What it computes (SPEC §2–§4, as distalyze does):
- instances: one per file, or per `I` record id within a class;
- records put in time order (stable), t0 = first timestamp, D = last − first;
- events per (instance, name): first/median/last .abs and .rel, count, gap,
  gap.after, wait;
- states per (instance, name): min, mean, max, final, q1/half/q3 .rel (value at
  q·D) and .abs (value at q·Dref, Dref = median D of all instances);
- Welch t of every (variable, feature) between the classes (scipy), Bonferroni;
- a dependency network: for each feature type with significant variables, one
  CART regression tree (sklearn, depth 4, min 5 per leaf) per variable on the
  others and D.

It prints the number of instances, tests, significant ones and the top
variables by Σ|t|, and its stage times on stderr. Requires numpy, pandas,
scipy, scikit-learn (the bench installs them in a venv of its own).
"""
import os
import sys
import time

import warnings

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.tree import DecisionTreeRegressor

EVENT_FEATURES = ['first.abs', 'median.abs', 'last.abs', 'first.rel', 'median.rel', 'last.rel', 'count', 'gap', 'gap.after', 'wait']
STATE_FEATURES = ['min', 'mean', 'max', 'final', 'q1.abs', 'half.abs', 'q3.abs', 'q1.rel', 'half.rel', 'q3.rel']
QUARTERS = [0.25, 0.5, 0.75]


def files_of(root):
    if os.path.isfile(root):
        return [root]
    out = []
    for d, _, names in os.walk(root):
        for n in names:
            out.append(os.path.join(d, n))
    return sorted(out)


def read_file(path, cls):
    """One file's records as a frame (inst, kind, t, name, v): pandas' C parser."""
    with open(path, 'rb') as f:
        head = f.read(1 << 16)
    has_i = head.startswith(b'I\t') or b'\nI\t' in head
    if not has_i:
        df = pd.read_csv(path, sep='\t', header=None, names=['kind', 't', 'name', 'v'], comment='#',
                         dtype={'kind': 'category', 't': np.float64, 'name': 'category', 'v': np.float64}, engine='c')
        df['inst'] = f'{cls}\t{os.path.basename(path)}'
        return df
    df = pd.read_csv(path, sep='\t', header=None, names=['kind', 't', 'name', 'v'], comment='#',
                     dtype={'kind': 'category', 't': str, 'name': str, 'v': np.float64}, engine='c')
    is_i = (df['kind'] == 'I').to_numpy()
    inst = pd.Series(np.where(is_i, df['t'].to_numpy(dtype=object), None)).ffill()
    df['inst'] = (cls + '\t') + inst.astype(str)
    df = df[~is_i].copy()
    df['t'] = df['t'].astype(np.float64)
    return df


def load(root, cls):
    frames = [read_file(p, cls) for p in files_of(root)]
    df = pd.concat(frames, ignore_index=True)
    df['cls'] = cls
    return df


def features(df):
    """The feature table: one row per instance, columns (kind, name, feature)."""
    df['inst'] = df['inst'].astype('category')
    df['name'] = df['name'].astype(str).astype('category')
    df['seq'] = np.arange(len(df))
    df.sort_values(['inst', 't', 'seq'], inplace=True, kind='stable')
    g = df.groupby('inst', observed=True)['t']
    t0 = g.transform('first').to_numpy()
    D = (g.max() - g.min())
    df['tn'] = df['t'].to_numpy() - t0
    Dref = float(np.median(D.to_numpy()))
    dur = D.reindex(df['inst']).to_numpy()
    cols = {}

    ev = df[df['kind'] == 'E'].copy()
    gap = ev.groupby('inst', observed=True)['tn'].diff()
    ev['gap'] = gap
    ev['after'] = gap.groupby(ev['inst'], observed=True).shift(-1)
    eg = ev.groupby(['inst', 'name'], observed=True)
    agg = pd.DataFrame({
        'first.abs': eg['tn'].first(), 'median.abs': eg['tn'].median(), 'last.abs': eg['tn'].last(),
        'count': eg['tn'].count(), 'gap': eg['gap'].max(), 'gap.after': eg['after'].max(),
        'wait': ev['gap'].fillna(0).groupby([ev['inst'], ev['name']], observed=True).sum(),
    })
    d = D.reindex(agg.index.get_level_values(0)).to_numpy()
    with np.errstate(divide='ignore', invalid='ignore'):
        for f in ['first', 'median', 'last']:
            agg[f + '.rel'] = np.where(d > 0, agg[f + '.abs'].to_numpy() / d, np.nan)
    for f in EVENT_FEATURES:
        wide = agg[f].unstack('name')
        for name in wide.columns:
            cols[('event', name, f)] = wide[name]

    st = df[df['kind'] == 'S']
    sdur = dur[(df['kind'] == 'S').to_numpy()]
    sg = st.groupby(['inst', 'name'], observed=True)['v']
    sagg = {'min': sg.min(), 'mean': sg.mean(), 'max': sg.max(), 'final': sg.last()}
    first = sg.first()
    for q, label in zip(QUARTERS, ['q1', 'half', 'q3']):
        for suffix, x in (('rel', q * sdur), ('abs', np.full(len(st), q * Dref))):
            kept = st[st['tn'].to_numpy() <= x]
            at = kept.groupby(['inst', 'name'], observed=True)['v'].last().reindex(first.index)
            sagg[f'{label}.{suffix}'] = at.fillna(first)
    for f in STATE_FEATURES:
        wide = sagg[f].unstack('name')
        for name in wide.columns:
            cols[('state', name, f)] = wide[name]
    table = pd.DataFrame(cols)
    table = table.reindex(D.index)
    return table, D


def main():
    warnings.simplefilter('ignore')
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    trees = '--no-trees' not in sys.argv
    timings = {}
    t = time.perf_counter()
    df = pd.concat([load(args[0], 'good'), load(args[1], 'bad')], ignore_index=True)
    timings['parse'] = time.perf_counter() - t
    t = time.perf_counter()
    table, D = features(df)
    del df
    is_bad = table.index.astype(str).str.startswith('bad\t')
    timings['features'] = time.perf_counter() - t

    t = time.perf_counter()
    X = table.to_numpy(dtype=np.float64)
    good, bad = X[~is_bad], X[is_bad]
    with np.errstate(all='ignore'):
        tt = stats.ttest_ind(bad, good, axis=0, equal_var=False, nan_policy='omit')
    tv = np.asarray(tt.statistic, dtype=np.float64)
    pv = np.asarray(tt.pvalue, dtype=np.float64)
    tested = np.isfinite(pv)
    n_tests = int(tested.sum())
    alpha = 0.05 / max(n_tests, 1)
    significant = tested & (pv < alpha)
    timings['t-tests'] = time.perf_counter() - t

    t = time.perf_counter()
    n_trees = 0
    if trees:
        by_feature = {}
        for j, (kind, name, f) in enumerate(table.columns):
            if significant[j]:
                by_feature.setdefault((kind, f), []).append(j)
        dvec = D.to_numpy()
        for cls_mask in (~is_bad, is_bad):
            for (_, _), js in by_feature.items():
                M = np.column_stack([X[cls_mask][:, js], dvec[cls_mask]])
                for k in range(M.shape[1]):
                    y = M[:, k]
                    keep = np.isfinite(y)
                    if keep.sum() < 10:
                        continue
                    others = np.delete(M, k, axis=1)[keep]
                    DecisionTreeRegressor(max_depth=4, min_samples_leaf=5, random_state=0).fit(others, y[keep])
                    n_trees += 1
    timings['trees'] = time.perf_counter() - t

    names = table.columns
    score = {}
    for j in np.flatnonzero(significant):
        key = (names[j][0], names[j][1])
        score[key] = score.get(key, 0.0) + abs(tv[j]) if np.isfinite(tv[j]) else np.inf
    top = sorted(score.items(), key=lambda kv: -kv[1])[:5]
    print(f'instances {len(table)} (good {int((~is_bad).sum())}, bad {int(is_bad.sum())}); '
          f'{n_tests} tests, {int(significant.sum())} significant; {n_trees} trees')
    for (kind, name), s in top:
        print(f'  {name} {kind} sum|t| {s:.4g}')
    sys.stderr.write('reference timings s: ' + ', '.join(f'{k} {v:.2f}' for k, v in timings.items()) + '\n')


if __name__ == '__main__':
    main()
