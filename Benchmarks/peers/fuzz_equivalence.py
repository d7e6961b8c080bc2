#!/usr/bin/env python3
"""Compares pandas_mfu.py with `smartstack replay --strategy mfu` on random small logs
full of ties, with visits made from donations (`--horizon 0`) and from a visit file.

    SMARTSTACK=.build/release/smartstack Benchmarks/peers/.venv/bin/python \\
        Benchmarks/peers/fuzz_equivalence.py [TRIALS]      # default 200

Each trial (seeded by its number) writes a log of 1 to 60 rows: three people, rows in
random order (not sorted by time), times from a dozen instants within a minute or a dozen
minutes, some with milliseconds, all in `Z`; kinds from a random prefix of seven names,
one with a non-ASCII letter and one in lower case, so the byte-order tie-break differs
from an alphabetical one. It replays the log with the toolkit and runs the peer's ISO
mode on it (visits, hits). Then, on the same log, a visit file of 0 to 40 rows: four
people (one with no donation, whose visits the toolkit ignores), rows in random order,
times from the same instants (so many visits fall on a donation's instant, and some
visits share one), with or without milliseconds, in `Z` or as the same instant in
`+01:00`, and a horizon from 0, 0.5, 1, 30, 60, 300 and 100000 seconds:
`replay --visits FILE --horizon H` against `pandas_mfu.mfu_hits_visits` (visits,
target_visits, hits). Both of the peer's readers (`--engine c` and `--engine pyarrow`)
read every log. Exits 1 at any difference, naming the trial, the mode and the reader.
"""
from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pandas_mfu  # noqa: E402

KINDS = ["Weather", "Music", "News", "Maps", "Zeta", "Ärger", "apple"]
# The peer's two CSV readers (pandas_mfu.py --engine), each checked on every log.
ENGINES = ["c", "pyarrow"]


def main() -> int:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    binary = os.environ.get("SMARTSTACK", ".build/release/smartstack")
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "log.csv")
        visit_log = os.path.join(work, "visits.csv")
        visit_rows = 0
        out = os.path.join(work, "out")
        for trial in range(trials):
            r = random.Random(trial)
            kinds = KINDS[: r.randint(1, len(KINDS))]
            with open(log, "w", encoding="utf-8") as f:
                f.write("timestamp,user,kind\n")
                for _ in range(r.randint(1, 60)):
                    sec = r.randint(0, 12) * r.choice([1, 60])
                    frac = r.choice(["", ".500", ".123"])
                    f.write(f"2026-03-02T08:{sec // 60:02d}:{sec % 60:02d}{frac}Z,{r.choice('abc')},{r.choice(kinds)}\n")
            subprocess.run([binary, "replay", "--log", log, "--strategy", "mfu", "--horizon", "0",
                            "--out", out, "--quiet", "--overwrite"], check=True)
            row = next(csv.DictReader(open(os.path.join(out, "runs.csv"), encoding="utf-8")))
            for engine in ENGINES:
                visits, hits = pandas_mfu.mfu_hits(*pandas_mfu.read_iso(log, engine))
                if (visits, hits) != (int(row["visits"]), int(row["hits"])):
                    bad += 1
                    print(f"trial {trial} ({engine}): pandas_mfu visits={visits} hits={hits}, "
                          f"smartstack visits={row['visits']} hits={row['hits']}")

            # The same log with a visit file and a horizon.
            with open(visit_log, "w", encoding="utf-8") as f:
                f.write("timestamp,user\n")
                for _ in range(r.randint(0, 40)):
                    sec = r.randint(0, 12) * r.choice([1, 60]) + r.choice([0, 0, 0, -1, 1, -30])
                    ms = r.choice([0, 0, 500, 123])
                    # The instant 08:00:00Z + sec, written in Z or in +01:00.
                    plus = r.random() < 0.5
                    hh, rest = divmod(8 * 3600 + sec + (3600 if plus else 0), 3600)
                    mm, ss = divmod(rest, 60)
                    frac = f".{ms:03d}" if ms else ""
                    stamp = f"2026-03-02T{hh:02d}:{mm:02d}:{ss:02d}{frac}{'+01:00' if plus else 'Z'}"
                    f.write(f"{stamp},{r.choice('abcd')}\n")
            horizon = r.choice(["0", "0.5", "1", "30", "60", "300", "100000"])
            subprocess.run([binary, "replay", "--log", log, "--visits", visit_log, "--strategy", "mfu",
                            "--horizon", horizon, "--out", out, "--quiet", "--overwrite"], check=True)
            row = next(csv.DictReader(open(os.path.join(out, "runs.csv"), encoding="utf-8")))
            want = (int(row["visits"]), int(row["target_visits"]), int(row["hits"]))
            for engine in ENGINES:
                t, user, kind, vt, vuser = pandas_mfu.read_iso_visits(log, visit_log, engine)
                got = pandas_mfu.mfu_hits_visits(t, user, kind, vt, vuser, int(round(float(horizon) * 1000)))
                visit_rows += got[0] if engine == "c" else 0
                if got != want:
                    bad += 1
                    print(f"trial {trial} (--visits FILE --horizon {horizon}, {engine}): pandas_mfu visits, "
                          f"target_visits, hits = {got}, smartstack {want}")
    print(f"fuzz_equivalence: {trials} logs, each with visits from donations and from a visit file "
          f"({visit_rows} scored visit rows in all), each read with {' and '.join(ENGINES)}, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
