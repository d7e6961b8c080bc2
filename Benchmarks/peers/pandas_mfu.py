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

How: one stable sort by (user, time); then, once over the donation rows, the kind `mfu`
shows after each row (a donation raises only its own kind's key, so that is a running
maximum of packed (person, count, instant rank, inverted kind) keys); each visit takes
the value at the last row before it (the row before its instant's group, or one binary
search per visit in a (user, time) key, the visits grouped by user first so that the
searches walk the donations in order).
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd


def read_numeric(path: str, engine: str = "c"):
    """``minute,user,kind`` integers: (minute, user, kind) arrays."""
    df = pd.read_csv(path, dtype={"minute": np.int64, "user": np.int64, "kind": np.int64}, engine=engine)
    return df["minute"].to_numpy(), df["user"].to_numpy(), df["kind"].to_numpy()


def _byte_order_rank(names) -> np.ndarray:
    """Each name's rank in byte order (UTF-8 byte order is code point order): kind codes
    become ids in the toolkit's last tie-break order."""
    order = np.argsort(np.array([n.encode("utf-8") for n in names], dtype=object))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    return rank


def _arrow_csv(path: str, columns: list[str]):
    """pyarrow's CSV reader (``--engine pyarrow``): (epoch ms of the ``timestamp`` column,
    [(codes, names) of each of `columns`]). The times are parsed by Arrow as instants (ISO
    8601 with an offset or Z; a time without either is refused), to nanoseconds, then
    truncated to whole milliseconds as the toolkit does; the other columns are read as
    dictionaries (codes into their distinct values)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    types = {"timestamp": pa.timestamp("ns", tz="UTC")}
    types.update({c: pa.dictionary(pa.int32(), pa.string()) for c in columns})
    table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types=types, include_columns=["timestamp", *columns]))
    t = table.column("timestamp").cast(pa.int64()).to_numpy() // 1_000_000
    coded = []
    for c in columns:
        d = table.column(c).unify_dictionaries().combine_chunks()
        coded.append((d.indices.to_numpy(zero_copy_only=False).astype(np.int64), d.dictionary.to_pylist()))
    return t, coded


def read_iso(path: str, engine: str = "c"):
    """The toolkit's CSV: instants as epoch milliseconds (ISO 8601 with offsets or Z, read
    as UTC instants), user ids and kind names as integer codes; kind codes in byte order
    of the names (the toolkit's last tie-break)."""
    if engine == "pyarrow":
        t, ((users, _), (codes, names)) = _arrow_csv(path, ["user", "kind"])
        return t, users, _byte_order_rank(names)[codes]
    df = pd.read_csv(path, usecols=["timestamp", "user", "kind"], dtype=str, keep_default_na=False,
                     engine="c")
    # UTC wall time without a zone, then whole milliseconds (the toolkit truncates fractions).
    t = _iso_ms(df["timestamp"])
    users, _ = pd.factorize(df["user"])
    codes, names = pd.factorize(df["kind"])
    return t, users.astype(np.int64), _byte_order_rank(names)[codes]


def _stable_order(values: np.ndarray) -> np.ndarray:
    """`np.argsort(values, kind="stable")`, by numpy's radix sort (linear time) when the
    values are small non-negative integers (as user ranks, user ids of a few thousand
    people and kind ids are), else by its merge sort (timsort)."""
    if len(values) and values.min() >= 0:
        top = int(values.max())
        if top < (1 << 8):
            return np.argsort(values.astype(np.uint8), kind="stable")
        if top < (1 << 16):
            return np.argsort(values.astype(np.uint16), kind="stable")
    return np.argsort(values, kind="stable")


def _sorted_rows(t: np.ndarray, user: np.ndarray, kind: np.ndarray):
    """Rows stably sorted by (user, time) and the first-row flags of users and of
    (user, instant) groups.

    The sort is `np.lexsort((t, user))` done as its two stable passes: by time (timsort,
    nearly linear on a log written in time order, as logs are), then by user (radix)."""
    by_time = np.argsort(t, kind="stable")
    order = by_time[_stable_order(user[by_time])]
    t = t[order]
    user = user[order]
    kind = kind[order]
    n = len(t)
    new_user = np.empty(n, dtype=bool)
    new_user[0] = True
    np.not_equal(user[1:], user[:-1], out=new_user[1:])
    first = new_user.copy()                       # first row of a (user, instant) group
    first[1:] |= t[1:] != t[:-1]
    return t, user, kind, new_user, first


def _shown_after_row(kind: np.ndarray, new_user: np.ndarray, first: np.ndarray) -> np.ndarray:
    """`shown[r]`: the kind `mfu` shows to the person of row r after the person's
    donations up to and including row r (rows sorted by (user, time), flags as
    `_sorted_rows` gives them), as a small unsigned kind id. Read only at the last row of a
    (user, instant) group: a visit sees whole instants.

    The shown kind is the candidate with the highest key (count, last donation's instant,
    smaller kind name). A donation changes only its own kind's key and only raises it, so
    the best key after row r is the maximum over the person's rows up to r of the key
    that row gives its kind: (the kind's count of donations up to r, the rank of r's
    instant among the person's instants, the inverted kind id). Packed into an int64 with
    the person's rank above them, one running maximum over all rows is that maximum per
    person: a later person's keys are all larger.
    """
    n = len(kind)
    user_rank = np.cumsum(new_user, dtype=np.int64) - 1
    person_start = np.flatnonzero(new_user)
    group = np.cumsum(first, dtype=np.int64)
    group -= group[person_start][user_rank]       # rank of the row's instant in its person, from 0
    # count[r]: donations of kind[r] by r's person up to and including r. Stably sorted
    # by kind, the rows of one (kind, person) are one run in (user, time) order.
    by_kind = _stable_order(kind)
    k_sorted = kind[by_kind]
    u_sorted = user_rank[by_kind]
    run_start = np.empty(n, dtype=bool)
    run_start[0] = True
    run_start[1:] = (k_sorted[1:] != k_sorted[:-1]) | (u_sorted[1:] != u_sorted[:-1])
    index = np.arange(n, dtype=np.int64)
    count = np.empty(n, dtype=np.int64)
    count[by_kind] = index - np.maximum.accumulate(np.where(run_start, index, 0)) + 1
    k_bits = max(1, int(kind.max()).bit_length())
    g_bits = max(1, int(group.max()).bit_length())
    c_bits = max(1, int(count.max()).bit_length())
    if 1 + int(user_rank[-1]).bit_length() + c_bits + g_bits + k_bits > 63:
        raise SystemExit("pandas_mfu: too many rows to pack the ranking key into 64 bits")
    k_mask = (1 << k_bits) - 1
    key = (user_rank << (c_bits + g_bits + k_bits)) | (count << (g_bits + k_bits)) | (group << k_bits) \
        | (k_mask - kind)
    best = np.maximum.accumulate(key)
    return (k_mask - (best & k_mask)).astype(np.min_scalar_type(k_mask))


def read_visits_numeric(path: str, engine: str = "c"):
    """``second,user`` integers: (epoch ms, user) arrays."""
    df = pd.read_csv(path, dtype={"second": np.int64, "user": np.int64}, engine=engine)
    return df["second"].to_numpy() * 1000, df["user"].to_numpy()


def _iso_ms(stamps: pd.Series) -> np.ndarray:
    """ISO 8601 times with offsets or Z as epoch milliseconds (fractions truncated)."""
    instants = pd.to_datetime(stamps, format="ISO8601", utc=True)
    return instants.dt.tz_convert(None).to_numpy().astype("datetime64[ms]").astype(np.int64)


def read_iso_visits(log: str, visits: str, engine: str = "c"):
    """The toolkit's donation log and visit log: (t, user, kind) as `read_iso` and (vt,
    vuser), user codes shared (a visit's user code is -1 when no donation has it)."""
    if engine == "pyarrow":
        with open(visits, encoding="utf-8") as f:
            has_user = "user" in f.readline().rstrip("\r\n").split(",")
        t, ((users, uniques), (codes, names)) = _arrow_csv(log, ["user", "kind"])
        vt, coded = _arrow_csv(visits, ["user"] if has_user else [])
        v_codes, v_names = coded[0] if has_user else (np.zeros(len(vt), dtype=np.int64), ["default"])
        vuser = pd.Index(uniques).get_indexer(v_names)[v_codes]   # the toolkit's default user without a column
        return t, users, _byte_order_rank(names)[codes], vt, vuser.astype(np.int64)
    df = pd.read_csv(log, usecols=["timestamp", "user", "kind"], dtype=str, keep_default_na=False, engine="c")
    vf = pd.read_csv(visits, dtype=str, keep_default_na=False, engine="c")
    if "user" not in vf.columns:
        vf["user"] = "default"                    # the toolkit's default user
    t = _iso_ms(df["timestamp"])
    users, uniques = pd.factorize(df["user"])
    vuser = pd.Index(uniques).get_indexer(vf["user"])
    codes, names = pd.factorize(df["kind"])
    return t, users.astype(np.int64), _byte_order_rank(names)[codes], _iso_ms(vf["timestamp"]), vuser.astype(np.int64)


def mfu_hits(t: np.ndarray, user: np.ndarray, kind: np.ndarray):
    """(visits, hits) of `mfu` with --visits donations (any horizon) over rows
    (time, user, kind) in file order."""
    if len(t) == 0:
        return 0, 0
    t, user, kind, new_user, first = _sorted_rows(t, user, kind)
    shown = _shown_after_row(kind, new_user, first)
    vis = np.flatnonzero(first)                   # row index of each visit's first donation
    # A visit at the person's first instant shows nothing; the others show what the
    # donations up to the row before the visit's group leave.
    later = vis[~new_user[vis]]
    hits = int(np.count_nonzero(shown[later - 1] == kind[later]))
    return len(vis), hits


def mfu_hits_visits(t: np.ndarray, user: np.ndarray, kind: np.ndarray, vt: np.ndarray,
                    vuser: np.ndarray, horizon_ms: int):
    """(visits, target_visits, hits) of `mfu` with --visits FILE --horizon H over donation
    rows (time, user, kind) in file order and visit rows (time, user); times in epoch ms,
    `horizon_ms` = round(H * 1000)."""
    if len(t) == 0 or len(vt) == 0:
        return 0, 0, 0
    t, user, kind, new_user, first = _sorted_rows(t, user, kind)
    shown = _shown_after_row(kind, new_user, first)
    n = len(t)
    # The visits grouped by user (stably; any order is right, this one makes the binary
    # searches and gathers below walk the donations once instead of at random).
    by_user = _stable_order(vuser)
    vt = vt[by_user]
    vuser = vuser[by_user]
    # One sorted key per row, (user, time): then a visit's position among the donations
    # is one binary search. Rows at the visit's instant sort after it (side="left"). Users
    # without a donation (code -1 in the ISO mode) are clipped to just outside the range.
    lo = min(int(t.min()), int(vt.min()))
    span = max(int(t.max()), int(vt.max())) - lo + 1
    u_lo = int(user.min()) - 1
    if (int(user.max()) - u_lo + 2) >= (1 << 62) // span:
        raise SystemExit("pandas_mfu: user ids and times do not fit one int64 key")
    dkey = (user - u_lo) * span + (t - lo)
    vkey = (np.clip(vuser, u_lo, int(user.max()) + 1) - u_lo) * span + (vt - lo)
    pos = np.searchsorted(dkey, vkey, side="left")   # first donation of the person at or after the visit, or a later person's
    prev_c = np.maximum(pos - 1, 0)
    has_prev = (pos > 0) & (user[prev_c] == vuser)   # the person has a donation before the visit
    pos_c = np.minimum(pos, n - 1)
    at = (pos < n) & (user[pos_c] == vuser)          # ... at or after it
    # A person's rows are contiguous in key order, so a visit of a person with donations
    # lands next to one of them: the visits of people without any are ignored.
    visits = int(np.count_nonzero(has_prev | at))
    has_target = at & (t[pos_c] - vt <= horizon_ms)
    hits = int(np.count_nonzero(has_target & has_prev & (shown[prev_c] == kind[pos_c])))
    return visits, int(np.count_nonzero(has_target)), hits


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="pandas/numpy MFU replay (the toolkit's replay --strategy mfu)")
    ap.add_argument("mode", choices=["numeric", "iso"], help="numeric: minute,user,kind integers; iso: the toolkit's CSV")
    ap.add_argument("log")
    ap.add_argument("--visits", help="a visit file (numeric: second,user; iso: the toolkit's timestamp,user)")
    ap.add_argument("--horizon", type=float, default=300.0,
                    help="seconds after a visit within which the next donation is its target (with --visits; default 300, the toolkit's)")
    ap.add_argument("--engine", choices=["c", "pyarrow"], default="c",
                    help="the CSV reader: pandas' C engine (default; the ISO times parsed by pd.to_datetime) "
                         "or pyarrow (numeric: pd.read_csv(engine='pyarrow'); ISO: pyarrow.csv with the times "
                         "parsed as instants and the strings read as dictionaries)")
    ap.add_argument("--timing", action="store_true", help="print each stage's seconds on standard error")
    args = ap.parse_args(argv)
    if args.visits:
        return main_visits(args)
    t0 = time.perf_counter()
    t, user, kind = (read_numeric if args.mode == "numeric" else read_iso)(args.log, args.engine)
    t1 = time.perf_counter()
    visits, hits = mfu_hits(t, user, kind)
    t2 = time.perf_counter()
    rate = hits / visits if visits else float("nan")
    print(f"visits={visits} hits={hits} hit_rate={rate!r}")
    if args.timing:
        print(f"pandas_mfu {args.mode} ({args.engine}): read {t1 - t0:.3f} s, replay {t2 - t1:.3f} s, rows {len(t):,}", file=sys.stderr)
    return 0


def main_visits(args) -> int:
    t0 = time.perf_counter()
    if args.mode == "numeric":
        t, user, kind = read_numeric(args.log, args.engine)
        t = t * 60_000                            # minutes -> ms
        vt, vuser = read_visits_numeric(args.visits, args.engine)
    else:
        t, user, kind, vt, vuser = read_iso_visits(args.log, args.visits, args.engine)
    t1 = time.perf_counter()
    # The toolkit's InputLimits.milliseconds: rounded to whole milliseconds.
    horizon_ms = int(round(args.horizon * 1000))
    visits, targets, hits = mfu_hits_visits(t, user, kind, vt, vuser, horizon_ms)
    t2 = time.perf_counter()
    rate = hits / targets if targets else float("nan")
    print(f"visits={visits} target_visits={targets} hits={hits} hit_rate={rate!r}")
    if args.timing:
        print(f"pandas_mfu {args.mode} --visits ({args.engine}): read {t1 - t0:.3f} s, replay {t2 - t1:.3f} s, "
              f"rows {len(t):,} donations, {len(vt):,} visits", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
