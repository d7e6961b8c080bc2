#!/usr/bin/env python3
"""Judges validation.csv files of `smartstack evaluate --validate` as one family per
estimator (Scripts/validate-estimators.sh, docs/counterfactual.md).

A row is unbiased family-wise when |bias| <= t_{1 - 0.025/m}(R - 1) * bias_se, with m the
family size (the rows of one estimator over every file; 480 with --floor-only) and R the
row's replicates. Prints one PASS/FAIL line per estimator; exits 1 when rr or rr-dr fails.
With --smoke (a smoke run: QUICK=1 of Scripts/validate-estimators.sh, too few replicates
and days for the criteria) the same lines are printed marked "smoke" instead of PASS/FAIL,
and nothing is judged (exit 0).
With --floor-only FILE: exits 1 when some rr or rr-dr row's half-width misses the
precision floor (0.003 on a 28-day scenario, 0.005 on tiny).
Standard library only: the t quantile comes from the regularised incomplete beta function.
"""
import csv
import math
import sys

FAMILY = 480


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betai(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbeta) * betacf(a, b, x) / a
    return 1.0 - math.exp(lbeta) * betacf(b, a, 1 - x) / b


def t_cdf(t, df):
    x = df / (df + t * t)
    tail = 0.5 * betai(df / 2, 0.5, x)
    return 1 - tail if t > 0 else tail


def t_quantile(p, df):
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


_cache = {}


def half_width(row, family):
    r = int(row["replicates"])
    key = (r, family)
    if key not in _cache:
        _cache[key] = t_quantile(1 - 0.025 / family, r - 1)
    return _cache[key] * float(row["bias_se"])


def read(files):
    rows = []
    for f in files:
        with open(f, newline="") as fh:
            rows += list(csv.DictReader(fh))
    return rows


def floor(row):
    return 0.005 if row["scenario"].split(":")[0] == "tiny" else 0.003


def main(argv):
    if argv[:1] == ["--floor-only"]:
        rows = [r for r in read(argv[1:]) if r["estimator"] in ("rr", "rr-dr")]
        missed = [r for r in rows if half_width(r, FAMILY) > floor(r)]
        for r in missed[:5]:
            print(f"floor missed: {r['scenario']} {r['logging_strategy']} {r['strategy']} {r['estimator']} "
                  f"{r['metric']}: half-width {half_width(r, FAMILY):.4f}", file=sys.stderr)
        return 1 if missed else 0
    smoke = argv[:1] == ["--smoke"]
    if smoke:
        argv = argv[1:]
        print("smoke run: the lines below are not judged (the criteria need the full run)")
    rows = read(argv)
    estimators = []
    for r in rows:
        if r["estimator"] not in estimators:
            estimators.append(r["estimator"])
    by = {e: [r for r in rows if r["estimator"] == e] for e in estimators}
    family = max(len(v) for v in by.values())
    if family != FAMILY:
        print(f"note: {family} rows per estimator, not {FAMILY}: the family is {family}")

    def unbiased(r):
        return abs(float(r["bias"])) <= half_width(r, family)

    def long(r):
        return r["scenario"].split(":")[0] != "tiny"

    ips_long = [r for r in by.get("ips", []) if long(r)]
    ips_failed = sum(not unbiased(r) for r in ips_long)
    ablation = [r for r in by.get("rr-no-rules", [])
                if r["scenario"].split(":")[0] == "commuter" and r["logging_strategy"] == "random"]
    ablation_failed = sum(not unbiased(r) for r in ablation)
    teeth = len(ips_long) > 0 and ips_failed >= 0.7 * len(ips_long) and ablation_failed >= 10
    status = 0
    for e in estimators:
        rs = by[e]
        ok = sum(unbiased(r) for r in rs)
        over = [r for r in rs if half_width(r, family) > floor(r)]
        widest = max(half_width(r, family) for r in rs)
        cov_rows = [float(r["coverage"]) for r in rs if long(r)]
        coverage = sum(cov_rows) / len(cov_rows) if cov_rows else float("nan")
        line = (f"{e}: {ok} of {len(rs)} rows unbiased family-wise (m = {family}); widest half-width "
                f"{widest:.4f}, {len(over)} rows over the floor; mean coverage {coverage:.3f} over 28-day rows")
        if e in ("rr", "rr-dr"):
            passed = ok == len(rs) and not over and teeth and (e != "rr-dr" or coverage >= 0.90)
            if smoke:
                print("smoke " + line)
                continue
            print(("PASS " if passed else "FAIL ") + line)
            if not passed:
                status = 1
        else:
            print(("smoke " if smoke else "     ") + line)
    print(("smoke " if smoke else "") + f"teeth: ips biased on {ips_failed} of {len(ips_long)} 28-day rows (needs >= 70 %); "
          f"rr-no-rules biased on {ablation_failed} of {len(ablation)} commuter random-logger rows (needs >= 10)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
