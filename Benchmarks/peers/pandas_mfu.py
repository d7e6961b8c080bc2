#!/usr/bin/env python3
"""The vectorised pandas/numpy peer of `smartstack replay --strategy mfu --horizon 0`.

    pandas_mfu.py numeric donations-numeric.csv   # minute,user,kind (integers; kind ids in byte order of names)
    pandas_mfu.py iso donations.csv               # the toolkit's log: timestamp,user,kind (ISO 8601, strings)

prints one line: ``visits=V hits=H hit_rate=R`` (and, with ``--timing``, the seconds of
each stage on standard error).

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
    instants = pd.to_datetime(df["timestamp"], format="ISO8601", utc=True)
    # UTC wall time without a zone, then whole milliseconds (the toolkit truncates fractions).
    t = instants.dt.tz_convert(None).to_numpy().astype("datetime64[ms]").astype(np.int64)
    users, _ = pd.factorize(df["user"])
    codes, names = pd.factorize(df["kind"])
    # Codes in byte order of the names (UTF-8 byte order is code point order).
    order = np.argsort(np.array([n.encode("utf-8") for n in names], dtype=object))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return t, users.astype(np.int64), rank[codes]


def mfu_hits(t: np.ndarray, user: np.ndarray, kind: np.ndarray):
    """(visits, hits) of `mfu` with --horizon 0 over rows (time, user, kind) in file order."""
    n = len(t)
    if n == 0:
        return 0, 0
    # Stable sort by (user, time): lexsort is stable, last key primary.
    order = np.lexsort((t, user))
    t = t[order]
    user = user[order]
    kind = kind[order]
    new_user = np.empty(n, dtype=bool)
    new_user[0] = True
    np.not_equal(user[1:], user[:-1], out=new_user[1:])
    first = new_user.copy()                       # first row of a (user, instant) group: a visit
    first[1:] |= t[1:] != t[:-1]
    vis = np.flatnonzero(first)                   # row index of each visit's first donation
    target = kind[vis]
    # Dense rank of the (user, instant) group, from 1: ordered like time within a person,
    # equal for equal instants (the toolkit compares last-donation times, ties are ties).
    group = np.cumsum(first, dtype=np.int64)
    # Row index of each row's person's first row, at each visit.
    user_start = np.flatnonzero(new_user)
    start_of_visit = user_start[np.cumsum(new_user)[vis] - 1]
    prev = vis - 1                                # the row before the visit's group
    has_prev = vis > start_of_visit               # some earlier instant of this person
    prev_c = np.where(has_prev, prev, 0)
    base_c = np.where(start_of_visit > 0, start_of_visit - 1, 0)

    k_count = int(kind.max()) + 1
    k_bits = max(1, int(k_count - 1).bit_length())
    g_bits = max(1, int(group[-1]).bit_length())
    if 1 + (n).bit_length() + g_bits + k_bits > 63:
        raise SystemExit("pandas_mfu: too many rows to pack the ranking key into 64 bits")
    best = np.full(len(vis), -1, dtype=np.int64)
    for k in range(k_count):
        is_k = kind == k
        if not is_k.any():
            continue
        c = np.cumsum(is_k, dtype=np.int64)        # donations of k up to and including each row
        count = np.where(has_prev, c[prev_c] - np.where(start_of_visit > 0, c[base_c], 0), 0)
        # Last donation of k before the visit: a running maximum of the group rank over k's
        # rows. A value from an earlier person can only show where this person's count is 0,
        # i.e. where k is not a candidate and the key is unused.
        last = np.maximum.accumulate(np.where(is_k, group, 0))[prev_c]
        key = (count << (g_bits + k_bits)) | (last << k_bits) | ((1 << k_bits) - 1 - k)
        np.maximum(best, np.where(count > 0, key, -1), out=best)
    shown = np.where(best >= 0, (1 << k_bits) - 1 - (best & ((1 << k_bits) - 1)), -1)
    hits = int(np.count_nonzero(shown == target))
    return len(vis), hits


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="pandas/numpy MFU replay (the toolkit's replay --strategy mfu --horizon 0)")
    ap.add_argument("mode", choices=["numeric", "iso"], help="numeric: minute,user,kind integers; iso: the toolkit's CSV")
    ap.add_argument("log")
    ap.add_argument("--timing", action="store_true", help="print each stage's seconds on standard error")
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
