#!/usr/bin/env python3
"""Run bench/duckdb-features.sql over GOOD_DIR and BAD_DIR (issue 17's DuckDB reference),
its records read as duckdb-raw-named.sql does if a file names instances, else duckdb-raw-files.sql.

    python bench/duckdb-run.py GOOD_DIR BAD_DIR [THREADS]

Prints the number of (variable, feature) rows and the five largest |t|.
Requires the duckdb package (the bench installs it in a venv of its own).
"""
import math
import os
import sys

import duckdb

here = os.path.dirname(os.path.abspath(__file__))
good, bad = sys.argv[1], sys.argv[2]
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2


def files_of(root):
    if os.path.isfile(root):
        return [root]
    return [os.path.join(d, n) for d, _, names in os.walk(root) for n in names]


def names_instances(path):
    """Whether the file's first 64 KB hold an `I` record (as bench/reference.py decides)."""
    with open(path, 'rb') as f:
        head = f.read(1 << 16)
    return head.startswith(b'I\t') or b'\nI\t' in head


named = any(names_instances(p) for d in (good, bad) for p in files_of(d))
raw = open(os.path.join(here, 'duckdb-raw-named.sql' if named else 'duckdb-raw-files.sql')).read()
raw = '\n'.join(l for l in raw.splitlines() if not l.startswith('--')).strip()
sql = open(os.path.join(here, 'duckdb-features.sql')).read().replace('WITH {raw},', f'WITH {raw},')
glob = lambda d: d if os.path.isfile(d) else os.path.join(d, '**', '*')
sql = sql.replace('{good}', glob(good).replace("'", "''")).replace('{bad}', glob(bad).replace("'", "''"))
con = duckdb.connect()
con.execute(f'SET threads = {threads}')
rows = con.execute(sql).fetchall()
finite = [r for r in rows if r[5] is not None and math.isfinite(r[5])]
print(f'{len(rows)} (variable, feature) rows; {len(finite)} with a finite t')
for r in sorted(finite, key=lambda r: -abs(r[5]))[:5]:
    print(f'  {r[1]} {r[0]} {r[2]}: good {r[3]:.6g} bad {r[4]:.6g} t {r[5]:+.4f}')
