#!/usr/bin/env python3
"""SimPy's version of the stack simulation's event loop, for `smartstack bench`'s mfu events/s.

    simpy_stack.py [--people 200] [--days 14] [--seed 1] [--repeat 3] [--json]

The workload has the shape of `smartstack bench --no-relevance` (docs/performance.md, "The
reference workload"); the defaults are `--quick`'s 200 people x 14 days:

- a stack of 10 instances: a random 10 of the 12 kinds, each a candidate from the start;
- per day 80..100 visits at times drawn from the bench's daily rhythm (hour by its weights,
  millisecond uniformly), from 2026-03-02T00:00:00Z, in UTC;
- per day 25..35 donations, each with probability 2/3 0..120 s after a uniformly chosen
  visit of that day, else at its own rhythm-drawn time; its kind drawn with weight (4 if
  the hour is within 1 of the kind's peak hour else 1) / (rank + 1) over the 12 kinds
  (Zipf ranks, a random permutation); the two kinds outside the stack match no instance;
  sorted by time (equal times by kind);
- a visit's target is the first donation at or after it within 300 s.

The draws are numpy's (PCG64 from --seed), not the bench's xoshiro256**: the same
distributions, not the same people. Generating them is not timed, as in the bench.

The simulation: one SimPy `Environment`, one process per person that walks its merged
event list (visits before donations at equal instants, as replay orders them) with
`yield env.timeout(...)`, so SimPy's event queue interleaves every person's events by time.
At a donation the matched instance's count and last donation time go up; at a visit `mfu`
shows the candidate with the most donations, then the most recent last donation, then the
smaller kind name (the toolkit's order), and a hit is a visit that shows its target
(hit_rate = hits / visits with a target, as the bench reports it). The
top is kept up to date at each donation (only the donated instance's key grows, so the
top is the larger of the old top and it): a visit costs O(1), as the engine's reused
decision does.

Events = visits + donations (the bench's events_per_s with no relevance entries);
events/s = events / wall seconds of `env.run()`; with --repeat N the fastest of N runs.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import simpy

KINDS = ["RecentPurchases", "Weather", "Calendar", "Music", "Photos", "Notes",
         "Reminders", "Fitness", "News", "Maps", "Stocks", "Podcasts"]
HOUR_WEIGHTS = np.array([1, .5, .3, .3, .3, 1, 3, 8, 9, 6, 5, 6, 8, 6, 5, 5, 6, 8, 9, 9, 8, 6, 4, 2])
START_MS = 1_772_409_600_000          # 2026-03-02T00:00:00Z
DAY_MS = 86_400_000
HORIZON_MS = 300_000


def rhythm_times(rng, day0, n):
    hp = HOUR_WEIGHTS / HOUR_WEIGHTS.sum()
    hours = rng.choice(24, size=n, p=hp)
    return day0 + hours * 3_600_000 + rng.integers(0, 3_600_000, size=n), hours


def person_events(rng, days):
    """One person's events as a list of (time_ms, is_donation, value): value is the instance
    (-1: none) of a donation, or of a visit the target's instance (-1: a target matching no
    instance, -2: no target), in processing
    order; and the stack's tie rank of each instance (kind name order)."""
    stack_kinds = rng.permutation(12)[:10]            # instance i shows kind stack_kinds[i]
    instance_of_kind = np.full(12, -1)
    instance_of_kind[stack_kinds] = np.arange(10)
    rank = rng.permutation(12)
    peak = rng.choice(24, size=12, p=HOUR_WEIGHTS / HOUR_WEIGHTS.sum())
    hours24 = np.arange(24)
    dist = np.abs(hours24[:, None] - peak[None, :])
    dist = np.minimum(dist, 24 - dist)
    w = np.where(dist <= 1, 4.0, 1.0) / (rank[None, :] + 1.0)   # hour x kind
    cum = np.cumsum(w, axis=1)
    cum /= cum[:, -1:]
    v_all, d_all, k_all = [], [], []
    for day in range(days):
        day0 = START_MS + day * DAY_MS
        nv = int(rng.integers(80, 101))
        visits, _ = rhythm_times(rng, day0, nv)
        nd = int(rng.integers(25, 36))
        own, own_hours = rhythm_times(rng, day0, nd)
        after = visits[rng.integers(0, nv, size=nd)] + rng.integers(0, 120_001, size=nd)
        opened = rng.random(nd) < 2 / 3
        t = np.where(opened, after, own)
        hours = np.where(opened, ((after - day0) // 3_600_000) % 24, own_hours)
        kinds = (cum[hours] <= rng.random(nd)[:, None]).sum(axis=1)
        v_all.append(visits)
        d_all.append(t)
        k_all.append(np.minimum(kinds, 11))
    visits = np.sort(np.concatenate(v_all))
    dt = np.concatenate(d_all)
    dk = np.concatenate(k_all)
    order = np.lexsort((dk, dt))
    dt, dk = dt[order], dk[order]
    dinst = instance_of_kind[dk]
    # Targets: the first donation at or after the visit within the horizon.
    j = np.searchsorted(dt, visits, side="left")
    jj = np.minimum(j, len(dt) - 1)
    ok = (j < len(dt)) & (dt[jj] - visits <= HORIZON_MS)
    # -2: no target; -1: a target donation that matches no instance (still a target visit,
    # as in replay: its hasTarget is the donation's, whatever it matches).
    target = np.where(ok, dinst[jj], -2)
    # Merge: visits before donations at equal instants.
    times = np.concatenate([visits, dt])
    is_don = np.concatenate([np.zeros(len(visits), bool), np.ones(len(dt), bool)])
    value = np.concatenate([target, dinst])
    order = np.lexsort((is_don, times))
    names = [KINDS[k].encode() for k in stack_kinds]
    tie = [sorted(names).index(n) for n in names]      # 0 = smallest kind name
    events = list(zip(times[order].tolist(), is_don[order].tolist(), value[order].tolist()))
    return events, tie


def person_process(env, events, tie, stats):
    n = len(tie)
    count = [0] * n
    # The key mfu ranks by: (count, last donation, -tie rank); every instance a candidate.
    key = [(0, -1, -tie[i]) for i in range(n)]
    top = max(range(n), key=key.__getitem__)
    hits = 0
    visits = 0
    targeted = 0
    now = 0
    for t, is_donation, value in events:
        if t != now:
            yield env.timeout(t - now)
            now = t
        if is_donation:
            if value >= 0:
                count[value] += 1
                k = (count[value], t, -tie[value])
                key[value] = k
                if k > key[top]:
                    top = value
        else:
            visits += 1
            if value != -2:
                targeted += 1
                if top == value:
                    hits += 1
    stats[0] += visits
    stats[1] += hits
    stats[2] += targeted


def run_once(people_events):
    env = simpy.Environment(initial_time=0)
    stats = [0, 0, 0]
    for events, tie in people_events:
        # Each process starts at time 0 and waits until its first event.
        env.process(person_process(env, [(t - START_MS, d, v) for t, d, v in events], tie, stats))
    # The shift to times from the start is part of setting up, not timed; only env.run() is.
    started = time.perf_counter()
    cpu = time.process_time()
    env.run()
    return time.perf_counter() - started, time.process_time() - cpu, stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="SimPy's stack simulation (mfu), events/s like smartstack bench --no-relevance")
    ap.add_argument("--people", type=int, default=200)
    ap.add_argument("--days", type=int, default=14)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    g0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    people_events = [person_events(rng, args.days) for _ in range(args.people)]
    generation = time.perf_counter() - g0
    visits = sum(sum(1 for e in ev if not e[1]) for ev, _ in people_events)
    donations = sum(len(ev) for ev, _ in people_events) - visits
    best = None
    for _ in range(max(1, args.repeat)):
        wall, cpu, stats = run_once(people_events)
        if best is None or wall < best[0]:
            best = (wall, cpu, stats)
    wall, cpu, (v, hits, targeted) = best
    assert v == visits
    events = visits + donations
    result = {
        "simpy": simpy.__version__, "people": args.people, "days": args.days, "seed": args.seed,
        "repetitions": args.repeat, "visits": visits, "donations": donations, "events": events,
        "generation_s": round(generation, 4), "seconds": round(wall, 4), "cpu_seconds": round(cpu, 4),
        "events_per_s": round(events / wall), "visits_per_s": round(visits / wall),
        "target_visits": targeted, "hits": hits, "hit_rate": round(hits / targeted, 6) if targeted else None,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(" ".join(f"{k}={v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
