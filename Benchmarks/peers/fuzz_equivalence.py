#!/usr/bin/env python3
"""Compares pandas_mfu.py with `smartstack replay --strategy mfu --horizon 0` on random
small logs full of ties.

    SMARTSTACK=.build/release/smartstack Benchmarks/peers/.venv/bin/python \\
        Benchmarks/peers/fuzz_equivalence.py [TRIALS]      # default 200

Each trial (seeded by its number) writes a log of 1 to 60 rows: three people, rows in
random order (not sorted by time), times from a dozen instants within a minute or a dozen
minutes, some with milliseconds, all in `Z`; kinds from a random prefix of seven names,
one with a non-ASCII letter and one in lower case, so the byte-order tie-break differs
from an alphabetical one. It replays the log with the toolkit and runs the peer's ISO
mode on it; exits 1 at any difference in visits or hits, naming the trial.
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


def main() -> int:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    binary = os.environ.get("SMARTSTACK", ".build/release/smartstack")
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "log.csv")
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
            visits, hits = pandas_mfu.mfu_hits(*pandas_mfu.read_iso(log))
            if (visits, hits) != (int(row["visits"]), int(row["hits"])):
                bad += 1
                print(f"trial {trial}: pandas_mfu visits={visits} hits={hits}, "
                      f"smartstack visits={row['visits']} hits={row['hits']}")
    print(f"fuzz_equivalence: {trials} logs, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
