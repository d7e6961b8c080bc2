#!/usr/bin/env python3
"""Generates a seeded multi-person donation log for the peer benchmarks.

    generate_log.py --people N --days D --seed S --out DIR

writes into DIR:

- ``donations.csv``: the toolkit's donation log (``timestamp,user,kind``): ISO 8601 local
  times with the person's UTC offset (``2026-03-02T08:17:00+01:00``), string user ids
  (``person-0001``), kind names;
- ``donations-numeric.csv``: the same rows in the same order (``minute,user,kind``):
  integer minutes since 1970-01-01T00:00Z (the instant), integer user id (``person-0001``
  is 1), integer kind id (the kind name's rank in byte order among all kinds, from 0);
- ``kinds.csv``: ``kind,name``, the kind ids;
- ``visits.csv``: the toolkit's visit log (``timestamp,user``, read by ``replay --visits
  FILE``): ISO 8601 local times to the second with the person's UTC offset, string user
  ids;
- ``visits-numeric.csv``: the same visits in the same order (``second,user``): integer
  seconds since 1970-01-01T00:00Z, integer user id.

The world. Each person has a UTC offset (one of a few), 5 to 10 of the 12 kinds (a stack
holds 10 widgets: ``replay --stack all`` refuses a person with more), Zipf preferences over
them (kind of rank r has weight 1/(r+1)) and a peak hour per kind. Per local day the person
donates 25 to 35 times; each donation's local hour is drawn from a daily rhythm (the bench
workload's hour weights, docs/performance.md), its minute uniformly, and its kind from the
person's kinds with weight (4 if the hour is within 1 of the kind's peak hour, else 1) /
(rank + 1). Times are whole minutes, so a person can donate twice in one minute (about
once a day), which exercises replay's rules for equal instants.

Visits (the bench workload's shape, docs/performance.md): per person and local day 80 to
100 visits; two donations in three have a visit 0 to 120 s (whole seconds, uniformly)
before them, and the rest of the day's visits are at hours drawn from the same rhythm, the
second within the hour uniform. So a visit sometimes falls on a donation's instant (lag 0),
which exercises replay's order at equal instants (visits before donations). About three
visits per donation: 2,000 x 30 days gives about 5.4 M visits. The visits come from their
own random stream (seeded by (seed, 1)), so the donations are the same bytes as without
them.

Rows are written sorted by instant (all people interleaved), equal instants in generation
order; each pair of files has the same rows in the same order, so a stable sort by (user, time)
gives the same row order for either. Deterministic for a seed (numpy's PCG64).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

KINDS = ["RecentPurchases", "Weather", "Calendar", "Music", "Photos", "Notes",
         "Reminders", "Fitness", "News", "Maps", "Stocks", "Podcasts"]
# The bench workload's daily rhythm, hours 0-23 (docs/performance.md, "The reference workload").
HOUR_WEIGHTS = np.array([1, .5, .3, .3, .3, 1, 3, 8, 9, 6, 5, 6, 8, 6, 5, 5, 6, 8, 9, 9, 8, 6, 4, 2])
OFFSETS_MIN = np.array([0, 60, 120, -300, -240, 330, 540])   # UTC offsets, minutes east
START_MINUTE = 29_540_160                                     # 2026-03-02T00:00:00Z in minutes


def generate(people: int, days: int, seed: int):
    """Returns (minute, user, kind, offset) arrays, rows in output order, and the kind names
    by id (byte order)."""
    rng = np.random.default_rng(seed)
    names = sorted(KINDS, key=lambda s: s.encode("utf-8"))
    k_all = len(names)
    # Per person: offset, kinds (5..10 of 12, as ids), ranks, peak hours.
    offset = rng.choice(OFFSETS_MIN, size=people)
    n_kinds = rng.integers(5, 11, size=people)
    # A random permutation of the 12 kinds per person: the first n_kinds are the person's,
    # and a kind's position in it is its preference rank.
    perm = np.argsort(rng.random((people, k_all)), axis=1)
    rank_of = np.empty_like(perm)
    np.put_along_axis(rank_of, perm, np.arange(k_all)[None, :].repeat(people, 0), axis=1)
    owned = rank_of < n_kinds[:, None]                                   # people x kinds
    hp = HOUR_WEIGHTS / HOUR_WEIGHTS.sum()
    peak = rng.choice(24, size=(people, k_all), p=hp)
    hours = np.arange(24)
    dist = np.abs(hours[None, None, :] - peak[:, :, None])
    dist = np.minimum(dist, 24 - dist)                                   # circular
    w = np.where(dist <= 1, 4.0, 1.0) / (rank_of[:, :, None] + 1.0)      # people x kinds x hours
    w = w * owned[:, :, None]
    w = np.transpose(w, (0, 2, 1))                                       # people x hours x kinds
    cum = np.cumsum(w, axis=2)
    cum /= cum[:, :, -1:]

    # Donations: per person and local day a count in 25..35.
    counts = rng.integers(25, 36, size=(people, days))
    total = int(counts.sum())
    person = np.repeat(np.repeat(np.arange(people), days), counts.ravel())
    day = np.repeat(np.tile(np.arange(days), people), counts.ravel())
    hour = rng.choice(24, size=total, p=hp)
    minute_in_hour = rng.integers(0, 60, size=total)
    local = START_MINUTE + day * 1440 + hour * 60 + minute_in_hour       # local wall time, minutes
    instant = local - offset[person]
    u = rng.random(total)
    kind = np.empty(total, dtype=np.int64)
    chunk = 1 << 20
    for a in range(0, total, chunk):
        b = min(total, a + chunk)
        c = cum[person[a:b], hour[a:b]]                                  # rows x kinds
        kind[a:b] = (c <= u[a:b, None]).sum(axis=1)
    # The last owned kind's cumulative weight is 1.0 exactly, so kind < 12, and it is owned.
    kind = np.minimum(kind, k_all - 1)
    order = np.argsort(instant, kind="stable")
    return instant[order], person[order], kind[order], offset[person[order]], names, offset


def generate_visits(instant: np.ndarray, person: np.ndarray, offset_of: np.ndarray, people: int,
                    days: int, seed: int):
    """Visits for the donations (instant in minutes, person; rows in output order): returns
    (second, person) arrays sorted by instant, equal instants in generation order."""
    rng = np.random.default_rng([seed, 1])
    hp = HOUR_WEIGHTS / HOUR_WEIGHTS.sum()
    n = len(instant)
    # A visit 0..120 s before two donations in three.
    paired = rng.random(n) < 2 / 3
    lag = rng.integers(0, 121, size=n)
    p_sec = instant[paired] * 60 - lag[paired]
    p_person = person[paired]
    # The rest of each person-day's 80..100 visits, at rhythm-drawn local times.
    day = (instant + offset_of[person] - START_MINUTE) // 1440
    paired_per_day = np.bincount(p_person * days + day[paired], minlength=people * days)
    want = rng.integers(80, 101, size=people * days)
    extra = np.maximum(want - paired_per_day, 0)
    total = int(extra.sum())
    e_person = np.repeat(np.arange(people * days) // days, extra)
    e_day = np.repeat(np.arange(people * days) % days, extra)
    hour = rng.choice(24, size=total, p=hp)
    sec = rng.integers(0, 3600, size=total)
    e_sec = (START_MINUTE + e_day * 1440 + hour * 60 - offset_of[e_person]) * 60 + sec
    second = np.concatenate([p_sec, e_sec])
    who = np.concatenate([p_person, e_person])
    order = np.argsort(second, kind="stable")
    return second[order], who[order]


def iso_strings(instant: np.ndarray, offset: np.ndarray, unit: str = "m") -> np.ndarray:
    """`YYYY-MM-DDTHH:MM:SS+HH:MM` local wall time with its offset, per row; `instant` in
    minutes (unit "m") or seconds (unit "s") since the epoch, `offset` in minutes."""
    local = (instant + offset * (60 if unit == "s" else 1)).astype(f"datetime64[{unit}]")
    wall = np.datetime_as_string(local, unit="s")
    sign = np.where(offset < 0, "-", "+")
    a = np.abs(offset)
    suffix = np.char.add(np.char.add(sign, np.char.zfill((a // 60).astype(str), 2)),
                         np.char.add(":", np.char.zfill((a % 60).astype(str), 2)))
    return np.char.add(wall.astype(str), suffix)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=2000)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="folder for donations.csv, donations-numeric.csv, visits.csv, visits-numeric.csv, kinds.csv")
    args = ap.parse_args(argv)
    if args.people < 1 or args.days < 1:
        ap.error("--people and --days must be at least 1")
    started = time.perf_counter()
    os.makedirs(args.out, exist_ok=True)
    instant, person, kind, offset, names, offset_of = generate(args.people, args.days, args.seed)
    v_second, v_person = generate_visits(instant, person, offset_of, args.people, args.days, args.seed)
    width = max(4, len(str(args.people)))
    names_arr = np.array(names)
    chunk = 250_000   # rows formatted at a time: the string arrays stay small
    with open(os.path.join(args.out, "donations.csv"), "w", newline="\n") as f:
        f.write("timestamp,user,kind\n")
        for a in range(0, len(instant), chunk):
            s = slice(a, a + chunk)
            users = np.char.add("person-", np.char.zfill((person[s] + 1).astype(str), width))
            stamps = iso_strings(instant[s], offset[s])
            lines = np.char.add(np.char.add(np.char.add(stamps, ","), np.char.add(users, ",")), names_arr[kind[s]])
            f.write("\n".join(lines.tolist()))
            f.write("\n")
    with open(os.path.join(args.out, "donations-numeric.csv"), "w", newline="\n") as f:
        f.write("minute,user,kind\n")
        for a in range(0, len(instant), chunk):
            s = slice(a, a + chunk)
            np.savetxt(f, np.stack([instant[s], person[s] + 1, kind[s]], axis=1), fmt="%d", delimiter=",")
    with open(os.path.join(args.out, "visits.csv"), "w", newline="\n") as f:
        f.write("timestamp,user\n")
        for a in range(0, len(v_second), chunk):
            s = slice(a, a + chunk)
            users = np.char.add("person-", np.char.zfill((v_person[s] + 1).astype(str), width))
            stamps = iso_strings(v_second[s], offset_of[v_person[s]], unit="s")
            f.write("\n".join(np.char.add(np.char.add(stamps, ","), users).tolist()))
            f.write("\n")
    with open(os.path.join(args.out, "visits-numeric.csv"), "w", newline="\n") as f:
        f.write("second,user\n")
        for a in range(0, len(v_second), chunk):
            s = slice(a, a + chunk)
            np.savetxt(f, np.stack([v_second[s], v_person[s] + 1], axis=1), fmt="%d", delimiter=",")
    with open(os.path.join(args.out, "kinds.csv"), "w", newline="\n") as f:
        f.write("kind,name\n")
        for i, n in enumerate(names):
            f.write(f"{i},{n}\n")
    print(f"generate_log: {args.people} people x {args.days} days, seed {args.seed}: "
          f"{len(instant):,} donations, {len(v_second):,} visits in {args.out} ({time.perf_counter() - started:.1f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
