#!/usr/bin/env python3
"""Generates a seeded multi-person donation log for the peer benchmarks.

    generate_log.py --people N --days D --seed S --out DIR [--toolkit-only] [--chunk-rows N]

writes into DIR (``--toolkit-only``: only donations.csv, visits.csv and kinds.csv):

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

Memory stays bounded as the log grows: people are generated a chunk at a time (about
``--chunk-rows`` rows), each chunk sorted by instant and saved as a run in a temporary
folder inside DIR, and the runs are merged window by window of instants into the files
(a stable merge: equal instants keep generation order, as one stable sort of all rows
would). Each random stream (hours, minutes, kinds, ...) is drawn by its own cursor, a
copy of the generator moved to where that stream starts, so the numbers drawn, and the
files, are the same bytes for any ``--chunk-rows``. Only per-person and per-person-day
arrays (about half a byte per visit: some 550 bytes a person, 24 a person-day) grow
with the size.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

KINDS = ["RecentPurchases", "Weather", "Calendar", "Music", "Photos", "Notes",
         "Reminders", "Fitness", "News", "Maps", "Stocks", "Podcasts"]
# The bench workload's daily rhythm, hours 0-23 (docs/performance.md, "The reference workload").
HOUR_WEIGHTS = np.array([1, .5, .3, .3, .3, 1, 3, 8, 9, 6, 5, 6, 8, 6, 5, 5, 6, 8, 9, 9, 8, 6, 4, 2])
HP = HOUR_WEIGHTS / HOUR_WEIGHTS.sum()
OFFSETS_MIN = np.array([0, 60, 120, -300, -240, 330, 540])   # UTC offsets, minutes east
START_MINUTE = 29_540_160                                     # 2026-03-02T00:00:00Z in minutes
FORMAT_ROWS = 100_000                                         # rows formatted as text at a time


def _copy(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state (the buffered half-word included)."""
    g = np.random.Generator(np.random.PCG64())
    g.bit_generator.state = rng.bit_generator.state
    return g


def _after(rng: np.random.Generator, total: int, draw, chunk: int) -> np.random.Generator:
    """A copy of `rng` as it is after `draw(g, n)` calls drawing `total` values in all:
    the start of the stream drawn after that one. numpy draws these the same in one call
    or in pieces, so the pieces (of `chunk`) only bound the memory."""
    g = _copy(rng)
    for a in range(0, total, chunk):
        draw(g, min(chunk, total - a))
    return g


def _person_chunks(rows_per_person: np.ndarray, chunk: int):
    """(p0, p1) ranges of people with about `chunk` rows each (at least one person)."""
    ends = np.cumsum(rows_per_person)
    p0 = 0
    people = len(rows_per_person)
    while p0 < people:
        before = ends[p0 - 1] if p0 else 0
        p1 = max(p0 + 1, int(np.searchsorted(ends, before + chunk, side="right")))
        yield p0, min(p1, people)
        p0 = p1


class SortedRuns:
    """Rows added in chunks and read back in one stable order by key: each chunk is
    sorted (stably) and saved as a run; `merged` reads windows of keys [a, b) from every
    run, concatenated in the order the runs were added, and sorts each window stably, so
    equal keys come out in the order they were added, as one stable sort of all rows."""

    def __init__(self, folder: str, name: str):
        self.folder, self.name = folder, name
        self.runs = 0
        self.total = 0
        self.lo, self.hi = None, None

    def _path(self, run: int, column: int) -> str:
        return os.path.join(self.folder, f"{self.name}-{run}-{column}.npy")

    def add(self, key: np.ndarray, *columns: np.ndarray) -> None:
        if len(key) == 0:
            return
        order = np.argsort(key, kind="stable")
        for c, values in enumerate((key,) + columns):
            np.save(self._path(self.runs, c), values[order])
        self.runs += 1
        self.total += len(key)
        lo, hi = int(key[order[0]]), int(key[order[-1]])
        self.lo = lo if self.lo is None else min(self.lo, lo)
        self.hi = hi if self.hi is None else max(self.hi, hi)

    def merged(self, columns: int, chunk: int):
        """Yields (key, *columns) arrays, about `chunk` rows at a time, in key order. Each
        window opens the runs' files afresh and copies its slices out, so that the pages
        read do not stay mapped (and counted in the resident set) for the whole merge."""
        if self.total == 0:
            return
        at = [0] * self.runs
        width = max(1, chunk * (self.hi - self.lo + 1) // self.total)
        for a in range(self.lo, self.hi + 1, width):
            parts = []
            for r in range(self.runs):
                keys = np.load(self._path(r, 0), mmap_mode="r")
                b = at[r] + int(np.searchsorted(keys[at[r]:], a + width, side="left"))
                if b > at[r]:
                    parts.append((r, at[r], b))
                at[r] = b
                del keys
            if not parts:
                continue
            window = []
            for c in range(columns + 1):
                pieces = []
                for r, i, j in parts:
                    values = np.load(self._path(r, c), mmap_mode="r")
                    pieces.append(np.array(values[i:j]))
                    del values
                window.append(np.concatenate(pieces))
            order = np.argsort(window[0], kind="stable")
            yield tuple(values[order] for values in window)
        for r in range(self.runs):
            for c in range(columns + 1):
                os.remove(self._path(r, c))


class World:
    """The people (offsets, kinds, preferences, peak hours, donations per day), drawn
    from the donations' generator in the order they always were; the per-row streams
    (hours, minutes, kind draws) start where these end."""

    def __init__(self, people: int, days: int, seed: int, chunk: int):
        rng = np.random.default_rng(seed)
        self.people, self.days = people, days
        self.names = sorted(KINDS, key=lambda s: s.encode("utf-8"))
        k_all = len(self.names)
        self.offset = rng.choice(OFFSETS_MIN, size=people)
        n_kinds = rng.integers(5, 11, size=people)
        # A random permutation of the 12 kinds per person: the first n_kinds are the person's,
        # and a kind's position in it is its preference rank.
        perm = np.argsort(rng.random((people, k_all)), axis=1)
        self.rank_of = np.empty_like(perm)
        np.put_along_axis(self.rank_of, perm, np.arange(k_all)[None, :].repeat(people, 0), axis=1)
        self.owned = self.rank_of < n_kinds[:, None]                     # people x kinds
        self.peak = rng.choice(24, size=(people, k_all), p=HP)
        # Donations: per person and local day a count in 25..35.
        self.counts = rng.integers(25, 36, size=(people, days))
        total = int(self.counts.sum())
        self.hours = _copy(rng)
        self.minutes = _after(rng, total, lambda g, n: g.choice(24, size=n, p=HP), chunk)
        self.draws = _after(self.minutes, total, lambda g, n: g.integers(0, 60, size=n), chunk)
        self.total = total

    def cumulative_weights(self, p0: int, p1: int) -> np.ndarray:
        """People p0..<p1 x hours x kinds: each hour's cumulative kind weights, normalised."""
        hours = np.arange(24)
        dist = np.abs(hours[None, None, :] - self.peak[p0:p1, :, None])
        dist = np.minimum(dist, 24 - dist)                                   # circular
        w = np.where(dist <= 1, 4.0, 1.0) / (self.rank_of[p0:p1, :, None] + 1.0)
        w = w * self.owned[p0:p1, :, None]
        w = np.transpose(w, (0, 2, 1))                                       # people x hours x kinds
        cum = np.cumsum(w, axis=2)
        cum /= cum[:, :, -1:]
        return cum

    def donations(self, p0: int, p1: int):
        """The donations of people p0..<p1 in generation order: (minute instant, person, kind)."""
        days = self.days
        counts = self.counts[p0:p1].ravel()
        n = int(counts.sum())
        person = np.repeat(np.repeat(np.arange(p0, p1), days), counts)
        day = np.repeat(np.tile(np.arange(days), p1 - p0), counts)
        hour = self.hours.choice(24, size=n, p=HP)
        minute_in_hour = self.minutes.integers(0, 60, size=n)
        local = START_MINUTE + day * 1440 + hour * 60 + minute_in_hour   # local wall time, minutes
        instant = local - self.offset[person]
        u = self.draws.random(n)
        c = self.cumulative_weights(p0, p1)[person - p0, hour]            # rows x kinds
        # The last owned kind's cumulative weight is 1.0 exactly, so kind < 12, and it is owned.
        kind = np.minimum((c <= u[:, None]).sum(axis=1), len(self.names) - 1)
        return instant, person, kind


class Visits:
    """The visits' generator (seeded by (seed, 1)) and its streams: two donations in three
    (in output order) get a visit 0..120 s before them, and each person-day is filled up
    to its 80..100 visits at rhythm-drawn times."""

    def __init__(self, world: World, seed: int, chunk: int):
        rng = np.random.default_rng([seed, 1])
        self.world, self.chunk = world, chunk
        self.paired = _copy(rng)
        self.lags = _after(rng, world.total, lambda g, n: g.random(n), chunk)
        self.paired_per_day = np.zeros(world.people * world.days, dtype=np.int64)

    def pair(self, instant: np.ndarray, person: np.ndarray):
        """The visits paired with these donations (the next ones in output order):
        (second, person) in donation order."""
        paired = self.paired.random(len(instant)) < 2 / 3
        lag = self.lags.integers(0, 121, size=len(instant))
        day = (instant + self.world.offset[person] - START_MINUTE) // 1440
        self.paired_per_day += np.bincount(person[paired] * self.world.days + day[paired],
                                           minlength=len(self.paired_per_day))
        return instant[paired] * 60 - lag[paired], person[paired]

    def extras(self):
        """After every donation is paired: the rest of each person-day's visits, people a
        chunk at a time in generation order: (second, person) arrays."""
        w = self.world
        days = w.days
        want = self.lags.integers(80, 101, size=w.people * days)
        extra = np.maximum(want - self.paired_per_day, 0)
        total = int(extra.sum())
        hours = _copy(self.lags)
        seconds = _after(self.lags, total, lambda g, n: g.choice(24, size=n, p=HP), self.chunk)
        for p0, p1 in _person_chunks(extra.reshape(w.people, days).sum(axis=1), self.chunk):
            cells = np.arange(p0 * days, p1 * days)
            e_person = np.repeat(cells // days, extra[cells])
            e_day = np.repeat(cells % days, extra[cells])
            hour = hours.choice(24, size=len(e_person), p=HP)
            sec = seconds.integers(0, 3600, size=len(e_person))
            yield (START_MINUTE + e_day * 1440 + hour * 60 - w.offset[e_person]) * 60 + sec, e_person


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


class Writer:
    """The CSV files of one stream (ISO/string and, unless toolkit-only, numeric), appended
    to a chunk of rows at a time."""

    def __init__(self, out: str, name: str, header: str, numeric_header: str | None):
        self.f = open(os.path.join(out, name + ".csv"), "w", newline="\n")
        self.f.write(header + "\n")
        self.numeric = None
        if numeric_header:
            self.numeric = open(os.path.join(out, name + "-numeric.csv"), "w", newline="\n")
            self.numeric.write(numeric_header + "\n")

    def write(self, lines, numeric_columns) -> None:
        self.f.write("\n".join(lines.tolist()))
        self.f.write("\n")
        if self.numeric:
            np.savetxt(self.numeric, np.stack(numeric_columns, axis=1), fmt="%d", delimiter=",")

    def close(self) -> None:
        self.f.close()
        if self.numeric:
            self.numeric.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=2000)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="folder for donations.csv, donations-numeric.csv, visits.csv, visits-numeric.csv, kinds.csv")
    ap.add_argument("--toolkit-only", action="store_true",
                    help="write only the toolkit's files (donations.csv, visits.csv, kinds.csv), not the numeric exports")
    ap.add_argument("--chunk-rows", type=int, default=1 << 19,
                    help="rows generated, sorted and merged at a time (memory; the files do not depend on it)")
    args = ap.parse_args(argv)
    if args.people < 1 or args.days < 1:
        ap.error("--people and --days must be at least 1")
    if args.chunk_rows < 1:
        ap.error("--chunk-rows must be at least 1")
    started = time.perf_counter()
    os.makedirs(args.out, exist_ok=True)
    chunk = args.chunk_rows
    world = World(args.people, args.days, args.seed, chunk)
    visits = Visits(world, args.seed, chunk)
    width = max(4, len(str(args.people)))
    names = np.array(world.names)

    def users(person):
        return np.char.add("person-", np.char.zfill((person + 1).astype(str), width))

    with tempfile.TemporaryDirectory(dir=args.out, prefix=".generate_log-") as runs_folder:
        donation_runs = SortedRuns(runs_folder, "donations")
        for p0, p1 in _person_chunks(world.counts.sum(axis=1), chunk):
            donation_runs.add(*world.donations(p0, p1))
        visit_runs = SortedRuns(runs_folder, "visits")
        out = Writer(args.out, "donations", "timestamp,user,kind",
                     None if args.toolkit_only else "minute,user,kind")
        n_donations = 0
        for instant, person, kind in donation_runs.merged(2, chunk):
            visit_runs.add(*visits.pair(instant, person))
            n_donations += len(instant)
            for a in range(0, len(instant), FORMAT_ROWS):
                s = slice(a, a + FORMAT_ROWS)
                stamps = iso_strings(instant[s], world.offset[person[s]])
                lines = np.char.add(np.char.add(np.char.add(stamps, ","), np.char.add(users(person[s]), ",")),
                                    names[kind[s]])
                out.write(lines, [instant[s], person[s] + 1, kind[s]])
        out.close()
        for second, person in visits.extras():
            visit_runs.add(second, person)
        out = Writer(args.out, "visits", "timestamp,user", None if args.toolkit_only else "second,user")
        n_visits = 0
        for second, person in visit_runs.merged(1, chunk):
            n_visits += len(second)
            for a in range(0, len(second), FORMAT_ROWS):
                s = slice(a, a + FORMAT_ROWS)
                stamps = iso_strings(second[s], world.offset[person[s]], unit="s")
                out.write(np.char.add(np.char.add(stamps, ","), users(person[s])), [second[s], person[s] + 1])
        out.close()
    with open(os.path.join(args.out, "kinds.csv"), "w", newline="\n") as f:
        f.write("kind,name\n")
        for i, n in enumerate(world.names):
            f.write(f"{i},{n}\n")
    print(f"generate_log: {args.people} people x {args.days} days, seed {args.seed}: "
          f"{n_donations:,} donations, {n_visits:,} visits in {args.out} ({time.perf_counter() - started:.1f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
