#!/usr/bin/env python3
"""Reference two-sided p-values of Student's t for test/ttest-tdist.test.ts.

    p = P(|T| >= |t|) = I_x(nu/2, 1/2),  x = nu / (nu + t^2)

computed with mpmath at 50 significant digits in two independent ways:
  1. mpmath.betainc(nu/2, 1/2, 0, x, regularized=True) (hypergeometric series);
  2. adaptive tanh-sinh quadrature of the density over [|t|, inf),
     2 * integral f(s) ds (substituting s = |t| e^v), or 1 - 2 * integral
     over [0, |t|] for |t| < 1, with ln f(s) = lnG((nu+1)/2) - lnG(nu/2)
     - ln(nu*pi)/2 - (nu+1)/2 * log1p(s^2/nu), the integrand scaled by f(|t|)
     so that nothing underflows.
Both must agree to 1e-25 (relative); (1) is printed, or (2) where mpmath's
hypergeometric series does not converge (nu > 1e4 with 10 < t < sqrt(nu)). nu = inf uses
erfc(|t|/sqrt 2). Usage:

    python3 test/reference/ttest_reference.py            # the test's table
    python3 test/reference/ttest_reference.py grid FILE  # a dense JSON grid
"""
import json
import sys

import mpmath as mp

mp.mp.dps = 50


def p_betainc(t, nu):
    with mp.workdps(50 + int(mp.log10(nu))):  # x = 1 - t^2/nu + ... must keep 50 digits
        x = nu / (nu + t * t)
        p = mp.betainc(nu / 2, mp.mpf(1) / 2, 0, x, regularized=True)
    return +p


def p_quad(t, nu):
    with mp.workdps(70 + int(mp.log10(nu))):  # lnG(nu/2) ~ nu ln nu must keep 70 digits after cancellation
        lc = mp.loggamma((nu + 1) / 2) - mp.loggamma(nu / 2) - mp.log(nu * mp.pi) / 2
        def lf(s):
            return lc - (nu + 1) / 2 * mp.log1p(s * s / nu)
        if t < 1:  # p near 1: integrate the centre instead
            p = 1 - 2 * mp.quad(lambda s: mp.exp(lf(s)), [0, t])
            return +p
        l0 = lf(t)
        # s = t e^v turns the algebraic tail into an exponential one;
        # hv = 1 / (local decay rate in v at v = 0)
        hv = (nu + t * t) / ((nu + 1) * t * t)
        g = lambda v: mp.exp(lf(t * mp.exp(v)) - l0 + v) * t
        integral = mp.quad(g, [0, hv, 10 * hv, 100 * hv, mp.inf])
        p = 2 * mp.exp(l0) * integral
    return +p


def p_normal(t):
    x = t / mp.sqrt(2)
    if x < 1e6:
        return mp.erfc(x)
    # erfc(x) = exp(-x^2)/(x sqrt(pi)) * sum (-1)^n (2n-1)!!/(2x^2)^n  (A&S 7.1.23)
    s, term = mp.mpf(1), mp.mpf(1)
    for n in range(1, 12):
        term *= -(2 * n - 1) / (2 * x * x)
        s += term
    return mp.exp(-x * x) / (x * mp.sqrt(mp.pi)) * s


def reference(t, nu, check=True):
    """Return (p, how) with p an mpf."""
    t = abs(mp.mpf(t))
    if nu == 'inf':
        return p_normal(t), 'erfc'
    nu = mp.mpf(nu)
    b = None
    if nu <= 1e4 or t <= 10 or t * t >= nu:
        # (otherwise the series gives up, slowly, for huge nu with x near 1)
        try:
            b = p_betainc(t, nu)
        except (mp.libmp.NoConvergence, ValueError):
            pass
    if b is not None and not check:
        return b, 'betainc'
    q = p_quad(t, nu)
    if b is not None:
        assert abs(mp.log(b) - mp.log(q)) < mp.mpf('1e-25'), (t, nu, b, q)
        return b, 'betainc+quad'
    return q, 'quad'


def row(t, nu):
    p, _ = reference(t, nu)
    log10p = mp.log10(p)
    pf = float(p) if p >= mp.mpf('1e-300') else None
    return [t, nu, pf, float(log10p)]


def t_for_log10p(nu, target):
    """A round t (3 significant digits) whose p is near 10**target."""
    def f(lt):
        t = mp.power(10, lt)
        p = p_normal(t) if nu == 'inf' else p_quad(t, mp.mpf(nu))
        return mp.log10(p) - target
    lt = mp.findroot(f, (mp.mpf(0.5), mp.mpf(2.5)), solver='anderson') if nu != 1 else None
    if lt is None:
        lt = mp.log10(2 / mp.pi) - target  # nu = 1: p ~ 2/(pi t)
    return float(mp.nstr(mp.power(10, lt), 3))


DFS = [1, 2, 3.7, 10, 30, 100, 1e3, 1e5, 1e7, 1e9, 1e12, 1e15, 'inf']
TS = [0.1, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 100, 1e3, 1e4, 1e6, 1e10, 1e20, 1e50, 1e100, 1e200, 1e300]
# (t, df): the brief's far-tail examples, points next to the method switches
# (df = 30, t^2 = df), tiny t, a fractional df below 1, df beyond 1e15
EXTRA = [(200, 1e9), (200, 1e5), (1e-8, 3.7), (1e-8, 1e5), (0.7, 0.3), (50, 0.3),
         (1.7, 29.9), (5.4, 29.9), (5.4, 30.1), (5.5, 30.1), (1.7, 30),
         (999, 1e6), (1001, 1e6), (10, 1e18), (30, 1e100)]


def fmt(v):
    if v is None:
        return 'null'
    if v == 'inf':
        return 'Infinity'
    v = float(v)
    if v in (float('inf'), float('-inf')):
        return 'Infinity' if v > 0 else '-Infinity'
    return repr(v)


def table():
    rows = []
    for nu in DFS:
        ts = list(TS)
        if nu == 'inf' or (nu != 'inf' and nu >= 30):
            ts.append(t_for_log10p(nu, -300))
        elif nu >= 2:
            ts.append(t_for_log10p(nu, -300))
        else:
            ts.append(6.37e299)
        for t in sorted(set(ts)):
            rows.append(row(t, nu))
    for t, nu in EXTRA:
        rows.append(row(t, nu))
    print('// [t, df, p (null: below 1e-300), log10p]')
    for t, nu, p, l in rows:
        print(f'  [{fmt(t)}, {fmt(nu)}, {fmt(p)}, {fmt(l)}],')


def grid(path):
    import random
    random.seed(1)
    dfs = [0.3, 1, 1.5, 2, 2.5, 3.7, 5, 7.3, 10, 14.9, 20, 29.9, 30, 30.1, 45, 60, 100, 333.3,
           1e3, 1e4, 1e5, 1e6, 1e7, 1e9, 1e12, 1e15, 1e18, 1e100, 'inf']
    ts = [10 ** (k / 8) for k in range(-24, 25)] + [1e3, 1e4, 1e5, 1e8, 1e20, 1e100, 1e250]
    ts += [random.uniform(0, 40) for _ in range(30)]
    out = []
    for nu in dfs:
        for t in ts:
            p, how = reference(t, nu, check=False)
            out.append({'t': t, 'df': None if nu == 'inf' else nu, 'lnp': float(mp.log(p)),
                        'p': float(p), 'how': how})
    with open(path, 'w') as f:
        json.dump(out, f)


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == 'grid':
        grid(sys.argv[2])
    else:
        table()
