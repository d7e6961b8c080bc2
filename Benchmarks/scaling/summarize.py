#!/usr/bin/env python3
"""Summarises Benchmarks/scaling.sh's rounds into scaling.csv and draws scaling.png.

    summarize.py MEASUREMENTS.csv MACHINE.txt SCALING.csv SCALING.png

MEASUREMENTS.csv has one row per round: command, jobs, people, days, visits, log_bytes,
round, wall_s (seconds, process start to exit), peak_rss_mb (GNU time's maximum resident
set size, 1 MB = 1,000 kB). SCALING.csv gets one row per (command, jobs, people, days),
ordered by command, jobs and visits: people, days, visits (the scored visits, runs.csv),
log_bytes, rounds, and wall_s_min/median/max, peak_rss_mb_min/median/max. SCALING.png
plots the medians against visits on log-log axes, with the min-max range as bars: wall
time on the left, peak RSS on the right, one line per command and --jobs; MACHINE.txt's
first lines are its caption.
"""
from __future__ import annotations

import csv
import statistics
import sys

FIELDS = ["command", "jobs", "people", "days", "visits", "log_bytes", "rounds",
          "wall_s_min", "wall_s_median", "wall_s_max",
          "peak_rss_mb_min", "peak_rss_mb_median", "peak_rss_mb_max"]


def summarize(rows: list[dict]) -> list[dict]:
    """One row per (command, jobs, people, days); its visits and log bytes must agree
    between rounds (the same command on the same input)."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["command"], int(r["jobs"]), int(r["people"]), int(r["days"])), []).append(r)
    out = []
    for (command, jobs, people, days), rs in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1], int(g[1][0]["visits"]))):
        visits = {r["visits"] for r in rs}
        log_bytes = {r["log_bytes"] for r in rs}
        if len(visits) != 1 or len(log_bytes) != 1:
            raise SystemExit(f"summarize.py: {command} --jobs {jobs} on {people} x {days} scored different visits "
                             f"or read different logs between rounds: {sorted(visits)}, {sorted(log_bytes)}")
        wall = [float(r["wall_s"]) for r in rs]
        rss = [float(r["peak_rss_mb"]) for r in rs]
        out.append({
            "command": command, "jobs": jobs, "people": people, "days": days,
            "visits": visits.pop(), "log_bytes": log_bytes.pop(), "rounds": len(rs),
            "wall_s_min": f"{min(wall):.4f}", "wall_s_median": f"{statistics.median(wall):.4f}",
            "wall_s_max": f"{max(wall):.4f}",
            "peak_rss_mb_min": f"{min(rss):.1f}", "peak_rss_mb_median": f"{statistics.median(rss):.1f}",
            "peak_rss_mb_max": f"{max(rss):.1f}",
        })
    return out


def plot(summary: list[dict], caption: str, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    panels = [("wall_s", "wall time (s)"), ("peak_rss_mb", "peak RSS (MB)")]
    lines = []
    for s in summary:
        key = (s["command"], s["jobs"])
        if key not in lines:
            lines.append(key)
    for ax, (field, label) in zip(axes, panels):
        for command, jobs in lines:
            rs = [s for s in summary if (s["command"], s["jobs"]) == (command, jobs)]
            x = [int(s["visits"]) for s in rs]
            mid = [float(s[field + "_median"]) for s in rs]
            lo = [m - float(s[field + "_min"]) for m, s in zip(mid, rs)]
            hi = [float(s[field + "_max"]) - m for m, s in zip(mid, rs)]
            ax.errorbar(x, mid, yerr=[lo, hi], marker="o" if command == "replay" else "s",
                        linestyle="-" if jobs == 1 else "--", capsize=3,
                        label=f"{command} --jobs {jobs}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain = FuncFormatter(lambda v, _: f"{v:g}")   # 0.05, 30, 1e+06: not 5x10^-2
        ax.yaxis.set_major_formatter(plain)
        low, high = ax.get_ylim()
        if high < 10 * low:                             # less than a decade: label the minor ticks too
            ax.yaxis.set_minor_formatter(plain)
        ax.set_xlabel("visits")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(caption, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(fig)


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 64
    measurements, machine, csv_path, png_path = argv[1:]
    rows = list(csv.DictReader(open(measurements, encoding="utf-8")))
    if not rows:
        print(f"{measurements}:1:1: no measurements", file=sys.stderr)
        return 64
    summary = summarize(rows)
    with open(csv_path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(summary)
    lines = open(machine, encoding="utf-8").read().splitlines()
    caption = " | ".join(l for l in lines if l.startswith(("date:", "machine:", "smartstack:")))
    plot(summary, caption, png_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
