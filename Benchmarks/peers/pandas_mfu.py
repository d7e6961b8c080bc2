#!/usr/bin/env python3
"""The vectorised pandas/numpy peer of `smartstack replay --strategy mfu`.

    pandas_mfu.py numeric donations-numeric.csv   # minute,user,kind (integers; kind ids in byte order of names)
    pandas_mfu.py iso donations.csv               # the toolkit's log: timestamp,user,kind (ISO 8601, strings)
    pandas_mfu.py numeric donations-numeric.csv --visits visits-numeric.csv [--horizon 300]
    pandas_mfu.py iso donations.csv --visits visits.csv [--horizon 300]

prints one line: ``visits=V hits=H hit_rate=R`` (without ``--visits``: the toolkit's
``replay --strategy mfu --horizon 0``), or with ``--visits FILE`` ``visits=V
target_visits=T hits=H hit_rate=R`` (the toolkit's ``replay --visits FILE --strategy mfu
--horizon H``, H in seconds, default 300 as the toolkit's), and with ``--timing`` the
seconds of each stage on standard error. The numeric visit file is ``second,user``
(integer seconds since the epoch, the donations' integer user ids); the ISO one the
toolkit's visit log ``timestamp,user``.

What it computes, exactly as the toolkit does with its defaults (``--visits donations
--stack all --warmup-days 0``, no stack file, no timelines, Smart Rotate on, no rotation
limit), see Benchmarks/peers/README.md:

- Each person's rows sorted by time, stably (equal instants keep file order).
- A visit at each distinct instant of the person's donations, decided before the
  donations at that instant. With ``--horizon 0`` its target is the kind of the first
  row at that instant.
- The candidates are the kinds the person donated at earlier instants; each has a score,
  its number of such donations. The shown kind is the candidate with the highest score,
  then the most recent last donation, then the smaller kind name in byte order. None
  before the person's first instant.
- A hit is a visit whose shown kind is its target. hit_rate = hits / visits.

With ``--visits FILE`` the visits are the file's rows instead (of people with a donation;
the others are ignored, as the toolkit ignores them), each person's sorted by time, every
row a visit (two at one instant are two visits). A visit's target is the person's first
donation at or after it (first in file order among equal instants) when it is at most
the horizon later, else none; the candidates and the shown kind are as above (donations
at the visit's own instant come after it); a hit is a visit with a target whose shown
kind is the target's kind; hit_rate = hits / target_visits.

How: one stable sort by (user, time); then per kind (12 columns, one at a time, so memory
stays O(rows)) the one-hot column's cumulative sum gives each visit's count of earlier
donations and a cumulative maximum of the instant's rank gives its last one; the three
tie-break levels are packed into one int64 key per (visit, kind), and a running maximum
over the kinds is the argmax with the toolkit's tie-break.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd


def read_numeric(path: str):
    df = pd.read_csv(path, dtype={"minute": np.int64, "user": np.int64, "kind": np.int64}, engine="c")
    return df["minute"].to_numpy(), df["user"].to_numpy(), df["kind"].to_numpy()


def read_iso(path: str):
    """The toolkit's CSV: instants as epoch milliseconds (ISO 8601 with offsets or Z, read
    as UTC instants), user ids and kind names as integer codes; kind codes in byte order
    of the names (the toolkit's last tie-break)."""
    df = pd.read_csv(path, usecols=["timestamp", "user", "kind"], dtype=str, keep_default_na=False,
                     engine="c")
    # UTC wall time without a zone, then whole milliseconds (the toolkit truncates fractions).
    t = _iso_ms(df["timestamp"])
    users, _ = pd.factorize(df["user"])
    codes, names = pd.factorize(df["kind"])
    # Codes in byte order of the names (UTF-8 byte order is code point order).
    order = np.argsort(np.array([n.encode("utf-8") for n in names], dtype=object))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return t, users.astype(np.int64), rank[codes]


def _shown(kind: np.ndarray, group: np.ndarray, prev_c: np.ndarray, has_prev: np.ndarray,
           start: np.ndarray) -> np.ndarray:
    """The kind `mfu` shows at each visit, or -1 when there is no candidate.

    Rows (kind, group) are sorted by (user, time); `group` is the dense rank of the row's
    (user, instant) group. Per visit: `prev_c` the last row before the visit (valid where
    `has_prev`: the person has a donation at an earlier instant), `start` the person's
    first row."""
    n = len(kind)
    base_c = np.where(start > 0, start - 1, 0)
    k_count = int(kind.max()) + 1
    k_bits = max(1, int(k_count - 1).bit_length())
    g_bits = max(1, int(group[-1]).bit_length())
    if 1 + (n).bit_length() + g_bits + k_bits > 63:
        raise SystemExit("pandas_mfu: too many rows to pack the ranking key into 64 bits")
    best = np.full(len(prev_c), -1, dtype=np.int64)
    for k in range(k_count):
        is_k = kind == k
        if not is_k.any():
            continue
        c = np.cumsum(is_k, dtype=np.int64)        # donations of k up to and including each row
        count = np.where(has_prev, c[prev_c] - np.where(start > 0, c[base_c], 0), 0)
        # Last donation of k before the visit: a running maximum of the group rank over k's
        # rows. A value from an earlier person can only show where this person's count is 0,
        # i.e. where k is not a candidate and the key is unused.
        last = np.maximum.accumulate(np.where(is_k, group, 0))[prev_c]
        key = (count << (g_bits + k_bits)) | (last << k_bits) | ((1 << k_bits) - 1 - k)
        np.maximum(best, np.where(count > 0, key, -1), out=best)
    return np.where(best >= 0, (1 << k_bits) - 1 - (best & ((1 << k_bits) - 1)), -1)


def _sorted_rows(t: np.ndarray, user: np.ndarray, kind: np.ndarray):
    """Rows stably sorted by (user, time), each row's (user, instant) group rank from 1,
    and the first-row flags of users and of groups."""
    order = np.lexsort((t, user))                 # stable, last key primary
    t = t[order]
    user = user[order]
    kind = kind[order]
    n = len(t)
    new_user = np.empty(n, dtype=bool)
    new_user[0] = True
    np.not_equal(user[1:], user[:-1], out=new_user[1:])
    first = new_user.copy()                       # first row of a (user, instant) group
    first[1:] |= t[1:] != t[:-1]
    # Dense rank of the (user, instant) group, from 1: ordered like time within a person,
    # equal for equal instants (the toolkit compares last-donation times, ties are ties).
    group = np.cumsum(first, dtype=np.int64)
    return t, user, kind, new_user, first, group


def read_visits_numeric(path: str):
    """``second,user`` integers: (epoch ms, user) arrays."""
    df = pd.read_csv(path, dtype={"second": np.int64, "user": np.int64}, engine="c")
    return df["second"].to_numpy() * 1000, df["user"].to_numpy()


def _iso_ms(stamps: pd.Series) -> np.ndarray:
    """ISO 8601 times with offsets or Z as epoch milliseconds (fractions truncated)."""
    instants = pd.to_datetime(stamps, format="ISO8601", utc=True)
    return instants.dt.tz_convert(None).to_numpy().astype("datetime64[ms]").astype(np.int64)


def read_iso_visits(log: str, visits: str):
    """The toolkit's donation log and visit log: (t, user, kind) as `read_iso` and (vt,
    vuser), user codes shared (a visit's user code is -1 when no donation has it)."""
    df = pd.read_csv(log, usecols=["timestamp", "user", "kind"], dtype=str, keep_default_na=False, engine="c")
    vf = pd.read_csv(visits, dtype=str, keep_default_na=False, engine="c")
    if "user" not in vf.columns:
        vf["user"] = "default"                    # the toolkit's default user
    t = _iso_ms(df["timestamp"])
    users, uniques = pd.factorize(df["user"])
    vuser = pd.Index(uniques).get_indexer(vf["user"])
    codes, names = pd.factorize(df["kind"])
    order = np.argsort(np.array([n.encode("utf-8") for n in names], dtype=object))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return t, users.astype(np.int64), rank[codes], _iso_ms(vf["timestamp"]), vuser.astype(np.int64)


def mfu_hits(t: np.ndarray, user: np.ndarray, kind: np.ndarray):
    """(visits, hits) of `mfu` with --visits donations (any horizon) over rows
    (time, user, kind) in file order."""
    if len(t) == 0:
        return 0, 0
    t, user, kind, new_user, first, group = _sorted_rows(t, user, kind)
    vis = np.flatnonzero(first)                   # row index of each visit's first donation
    target = kind[vis]
    user_start = np.flatnonzero(new_user)
    start_of_visit = user_start[np.cumsum(new_user)[vis] - 1]
    has_prev = vis > start_of_visit               # some earlier instant of this person
    prev_c = np.where(has_prev, vis - 1, 0)       # the row before the visit's group
    shown = _shown(kind, group, prev_c, has_prev, start_of_visit)
    hits = int(np.count_nonzero(shown == target))
    return len(vis), hits


def mfu_hits_visits(t: np.ndarray, user: np.ndarray, kind: np.ndarray, vt: np.ndarray,
                    vuser: np.ndarray, horizon_ms: int):
    """(visits, target_visits, hits) of `mfu` with --visits FILE --horizon H over donation
    rows (time, user, kind) in file order and visit rows (time, user); times in epoch ms,
    `horizon_ms` = round(H * 1000)."""
    if len(t) == 0:
        return 0, 0, 0
    t, user, kind, new_user, first, group = _sorted_rows(t, user, kind)
    n = len(t)
    # Visits of people with no donation are ignored.
    keep = np.isin(vuser, user)
    vt = vt[keep]
    vuser = vuser[keep]
    if len(vt) == 0:
        return 0, 0, 0
    # One sorted key per row, (user, time): then a visit's position among the donations
    # is one binary search. Rows at the visit's instant sort after it (side="left").
    lo = min(int(t.min()), int(vt.min()))
    span = max(int(t.max()), int(vt.max())) - lo + 1
    if int(max(user.max(), vuser.max())) >= (1 << 62) // span or min(user.min(), vuser.min()) < 0:
        raise SystemExit("pandas_mfu: user ids and times do not fit one int64 key")
    dkey = user * span + (t - lo)
    vkey = vuser * span + (vt - lo)
    pos = np.searchsorted(dkey, vkey, side="left")   # first donation of the person at or after the visit, or a later person's
    start = np.searchsorted(user, vuser, side="left")  # the person's first row
    has_prev = pos > start
    prev_c = np.where(has_prev, pos - 1, 0)
    shown = _shown(kind, group, prev_c, has_prev, start)
    pos_c = np.minimum(pos, n - 1)
    has_target = (pos < n) & (user[pos_c] == vuser) & (t[pos_c] - vt <= horizon_ms)
    target = np.where(has_target, kind[pos_c], -2)
    hits = int(np.count_nonzero(shown == target))
    return len(vt), int(np.count_nonzero(has_target)), hits


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="pandas/numpy MFU replay (the toolkit's replay --strategy mfu)")
    ap.add_argument("mode", choices=["numeric", "iso"], help="numeric: minute,user,kind integers; iso: the toolkit's CSV")
    ap.add_argument("log")
    ap.add_argument("--visits", help="a visit file (numeric: second,user; iso: the toolkit's timestamp,user)")
    ap.add_argument("--horizon", type=float, default=300.0,
                    help="seconds after a visit within which the next donation is its target (with --visits; default 300, the toolkit's)")
    ap.add_argument("--timing", action="store_true", help="print each stage's seconds on standard error")
    args = ap.parse_args(argv)
    if args.visits:
        return main_visits(args)
    t0 = time.perf_counter()
    t, user, kind = (read_numeric if args.mode == "numeric" else read_iso)(args.log)
    t1 = time.perf_counter()
    visits, hits = mfu_hits(t, user, kind)
    t2 = time.perf_counter()
    rate = hits / visits if visits else float("nan")
    print(f"visits={visits} hits={hits} hit_rate={rate!r}")
    if args.timing:
        print(f"pandas_mfu {args.mode}: read {t1 - t0:.3f} s, replay {t2 - t1:.3f} s, rows {len(t):,}", file=sys.stderr)
    return 0


def main_visits(args) -> int:
    t0 = time.perf_counter()
    if args.mode == "numeric":
        t, user, kind = read_numeric(args.log)
        t = t * 60_000                            # minutes -> ms
        vt, vuser = read_visits_numeric(args.visits)
    else:
        t, user, kind, vt, vuser = read_iso_visits(args.log, args.visits)
    t1 = time.perf_counter()
    # The toolkit's InputLimits.milliseconds: rounded to whole milliseconds.
    horizon_ms = int(round(args.horizon * 1000))
    visits, targets, hits = mfu_hits_visits(t, user, kind, vt, vuser, horizon_ms)
    t2 = time.perf_counter()
    rate = hits / targets if targets else float("nan")
    print(f"visits={visits} target_visits={targets} hits={hits} hit_rate={rate!r}")
    if args.timing:
        print(f"pandas_mfu {args.mode} --visits: read {t1 - t0:.3f} s, replay {t2 - t1:.3f} s, "
              f"rows {len(t):,} donations, {len(vt):,} visits", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
