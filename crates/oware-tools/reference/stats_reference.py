#!/usr/bin/env python3
"""Reference values for the unit tests of crates/oware-tools/src/stats.rs,
computed independently of the Rust code: the normal distribution from the
standard library's statistics.NormalDist, the most likely distribution with
a given mean by Newton's method on the Lagrange multiplier (the Rust code
bisects), all in plain Python floats.

Run: python3 crates/oware-tools/reference/stats_reference.py
"""
import math
from statistics import NormalDist

Z = 1.959964
N01 = NormalDist()


def elo(s):
    return -400 * math.log10(1 / s - 1)


def score(e):
    return 1 / (1 + 10 ** (-e / 400))


def moments(outcomes):
    n = sum(c for _, c in outcomes)
    m = sum(x * c for x, c in outcomes) / n
    v = sum(c * (x - m) ** 2 for x, c in outcomes) / n
    return n, m, v


def estimate(outcomes):
    n, m, v = moments(outcomes)
    se = math.sqrt(v / n)
    return dict(score=m, elo=elo(m), low=elo(m - Z * se), high=elo(m + Z * se),
                los=N01.cdf((m - 0.5) / se))


def lam(p, s):
    # Newton's method on g(l) = sum p (x - s) / (1 + l (x - s)), from 0.
    l = 0.0
    for _ in range(100):
        g = sum(q * (x - s) / (1 + l * (x - s)) for x, q in p)
        dg = -sum(q * (x - s) ** 2 / (1 + l * (x - s)) ** 2 for x, q in p)
        step = g / dg
        l -= step
        if abs(step) < 1e-15:
            break
    return l


def llr(outcomes, elo0, elo1):
    counts = [(x, c if c > 0 else 1e-3) for x, c in outcomes]
    n = sum(c for _, c in counts)
    p = [(x, c / n) for x, c in counts]
    s0, s1 = score(elo0), score(elo1)
    l0, l1 = lam(p, s0), lam(p, s1)
    # Likelihood of the counts under each most likely distribution.
    q0 = [q / (1 + l0 * (x - s0)) for x, q in p]
    q1 = [q / (1 + l1 * (x - s1)) for x, q in p]
    assert abs(sum(q0) - 1) < 1e-9 and abs(sum(q1) - 1) < 1e-9
    return sum(c * math.log(b / a) for (_, c), a, b in zip(counts, q0, q1))


def llr_normal(outcomes, elo0, elo1):
    n, m, v = moments(outcomes)
    s0, s1 = score(elo0), score(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def tri(w, d, l):
    return [(1.0, w), (0.5, d), (0.0, l)]


def penta(c):
    return [(k / 4, c[k]) for k in range(5)]


print("elo(0.75)", repr(elo(0.75)))
print("score(-100)", repr(score(-100)))
print("cdf(1.959964)", repr(N01.cdf(1.959964)), "cdf(-1)", repr(N01.cdf(-1)))
print("trinomial 30-20-10", estimate(tri(30, 20, 10)))
print("pentanomial [2,5,10,8,5]", estimate(penta([2, 5, 10, 8, 5])))
print("bounds 0.05/0.05", math.log(0.05 / 0.95), math.log(0.95 / 0.05))
print("llr tri 300-400-260 [0,10]", repr(llr(tri(300, 400, 260), 0, 10)),
      repr(llr_normal(tri(300, 400, 260), 0, 10)))
print("llr penta [10,40,80,60,30] [-10,30]", repr(llr(penta([10, 40, 80, 60, 30]), -10, 30)),
      repr(llr_normal(penta([10, 40, 80, 60, 30]), -10, 30)))
print("llr penta [30,60,80,40,10] [-10,30]", repr(llr(penta([30, 60, 80, 40, 10]), -10, 30)))
print("bounds 0.05/0.1", math.log(0.1 / 0.95), math.log(0.9 / 0.05))
