"""The data behind the notebooks' figures, and the figures (matplotlib, imported on use).

Each figure has a function that returns its data as a DataFrame (tested on its own) and a
function that draws it: the notebooks and the result objects' `plot()` call these.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd

from ._load import point_labels, read_csv, styles

# Under this many units (people; a scenario's person-replicates) a bootstrap interval is
# narrow and undercovers: the figures say so (batch and report warn at the same count).
SMALL_N = 10
# Metrics that are rates in [0, 1]: their axes and intervals are drawn within it.
RATES = frozenset({"hit_rate", "hit_rate_macro", "hit_at_3", "mrr", "mrr_macro", "coverage", "tap_rate",
                   "relevance_honoured", "windows_surfaced", "exposure_gini"})


def _wrap(text: str, width_inches: float) -> str:
    """A title wrapped to the figure's width (about 12.5 characters an inch at 11 pt)."""
    return "\n".join(textwrap.wrap(text, max(30, int(width_inches * 12.5))))


# ---------------------------------------------------------------------------------------
# The trade-off between rotations and the metric (compare-tradeoff.png)

def tradeoff_data(report, metric: str = "hit_rate") -> pd.DataFrame:
    """Per source and strategy point: the metric and rotations per active person-day, in the
    unit of the confidence-interval figure. From summary.csv (a batch folder): the mean over
    units with its 95% bootstrap interval (`*_low`, `*_high`) and `n` units. Without it (a
    replay or simulate folder): runs.csv's pooled values (`unit` says which), no interval,
    `n` = people."""
    runs = report["runs"]
    summary = report.get("summary")
    if summary is not None and {metric, "rotations_per_day"} <= set(summary["metric"].astype(str)):
        s = summary.assign(point=point_labels(summary, among=runs))
        keys = ["source", "point"]
        y = s[s["metric"] == metric].set_index(keys)
        x = s[s["metric"] == "rotations_per_day"].set_index(keys)
        data = pd.DataFrame({
            "metric": y["mean"], "metric_low": y["ci_low"], "metric_high": y["ci_high"],
            "rotations_per_day": x["mean"].reindex(y.index), "rotations_low": x["ci_low"].reindex(y.index),
            "rotations_high": x["ci_high"].reindex(y.index), "n": y["n"]}).reset_index()
        data["unit"] = "mean over units, 95% CI"
    else:
        r = runs.assign(point=point_labels(runs))
        column = metric if metric in r.columns else "hit_rate"
        g = r.groupby(["source", "point"], observed=True, sort=False)
        data = g[["rotations_per_day", column]].mean().rename(columns={column: "metric"})
        data["n"] = g["people"].max()
        data = data.reset_index()
        for c in ("metric_low", "metric_high", "rotations_low", "rotations_high"):
            data[c] = np.nan
        data["unit"] = "pooled over visits (no summary.csv: no interval)"
    data["source"] = data["source"].astype(str)
    data["point"] = data["point"].astype(str)
    return data[["source", "point", "rotations_per_day", "rotations_low", "rotations_high",
                 "metric", "metric_low", "metric_high", "n", "unit"]]


def _grid(count: int, width: float, height: float):
    import matplotlib.pyplot as plt
    columns = min(3, max(count, 1))
    rows = int(np.ceil(max(count, 1) / columns))
    fig, axes = plt.subplots(rows, columns, figsize=(max(width * columns, 7.5), height * rows),
                             squeeze=False, layout="constrained")
    for ax in axes.flat[count:]:
        ax.axis("off")
    return fig, list(axes.flat)


def plot_tradeoff(report, metric: str = "hit_rate", name: Optional[str] = None):
    """compare-tradeoff.png: one panel per source, rotations per active person-day against
    the metric, each strategy point with its interval (when there is one) and its n; the
    legend beside the panels, a note under a panel whose n is small."""
    data = tradeoff_data(report, metric)
    sources = list(dict.fromkeys(data["source"]))
    points = list(dict.fromkeys(data["point"]))
    look = styles(points)
    fig, axes = _grid(len(sources), 4.6, 4.0)
    for ax, source in zip(axes, sources):
        d = data[data["source"] == source]
        for _, row in d.iterrows():
            s = look[row["point"]]
            if pd.notna(row["metric_low"]):
                ax.errorbar(row["rotations_per_day"], row["metric"],
                            xerr=[[row["rotations_per_day"] - row["rotations_low"]],
                                  [row["rotations_high"] - row["rotations_per_day"]]],
                            yerr=[[row["metric"] - row["metric_low"]], [row["metric_high"] - row["metric"]]],
                            fmt="none", ecolor=s["color"], alpha=0.45, capsize=2, lw=1)
            ax.scatter(row["rotations_per_day"], row["metric"], zorder=3, s=36, **s)
            if d["n"].nunique() > 1:   # else the title gives the one n
                ax.annotate(f"n={int(row['n'])}", (row["rotations_per_day"], row["metric"]), fontsize=7,
                            xytext=(4, 3), textcoords="offset points", color="0.35")
        one_n = f" (n = {int(d['n'].iloc[0])} per point)" if d["n"].nunique() == 1 else ""
        small = d["n"].min()
        if small < SMALL_N:   # the warning in the title, where it covers no point
            ax.set_title(f"{source}{one_n}\nn = {int(small)} < {SMALL_N}: intervals undercover", fontsize=9, color="C3")
        else:
            ax.set_title(source + one_n, fontsize=10)
        ax.set_xlabel("rotations per active person-day")
        ax.set_ylabel(metric)
        if metric in RATES:
            ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    handles = [_handle(p, look[p]) for p in points]
    fig.legend(handles=handles, loc="outside lower center", fontsize=8, title="strategy point",
               ncol=min(len(points), 4), title_fontsize=8)
    unit = data["unit"].iloc[0] if len(data) else ""
    title = f"{name + ': ' if name else ''}rotations versus {metric}, one panel per source ({unit})"
    fig.suptitle(_wrap(title, fig.get_figwidth()), fontsize=11)
    return fig


def _handle(label, style):
    import matplotlib.pyplot as plt
    return plt.Line2D([], [], linestyle="", label=label, **style)


# ---------------------------------------------------------------------------------------
# Per-source intervals of one metric (compare-hit-rate.png) and paired differences

def interval_data(report, metric: str = "hit_rate", paired: bool = False) -> pd.DataFrame:
    """summary.csv's (or paired.csv's, `paired=True`) rows for the metric, labelled by
    strategy point, in the reports' order: `source, point, centre, ci_low, ci_high, n`
    (and `p_value` for paired)."""
    runs = report["runs"]
    frame = report.get("paired" if paired else "summary")
    if frame is None or frame.empty:
        return pd.DataFrame(columns=["source", "point", "centre", "ci_low", "ci_high", "n"])
    d = frame[frame["metric"].astype(str) == metric].assign(point=lambda f: point_labels(f, among=runs))
    centre = "mean_difference" if paired else "mean"
    d = d.dropna(subset=[centre])
    out = pd.DataFrame({"source": d["source"].astype(str), "point": d["point"].astype(str),
                        "centre": d[centre], "ci_low": d["ci_low"], "ci_high": d["ci_high"], "n": d["n"]})
    if paired:
        out["p_value"] = d["p_value"]
        out["baseline"] = d["baseline"].astype(str)
    return out.reset_index(drop=True)


def plot_intervals(report, metric: str = "hit_rate", paired: bool = False, name: Optional[str] = None):
    """compare-METRIC.png (or compare-paired.png): per source a panel, each strategy point a
    row with its mean (difference) and 95% interval and its n; a note where n is small."""
    data = interval_data(report, metric, paired)
    points = list(dict.fromkeys(point_labels(report["runs"]).astype(str)))
    look = styles(points)
    sources = list(dict.fromkeys(data["source"]))
    fig, axes = _grid(len(sources), 4.8, 0.3 * len(points) + 1.6)
    for ax, source in zip(axes, sources):
        d = data[data["source"] == source].set_index("point")
        d = d.loc[[p for p in points if p in d.index]]
        for y, (point, row) in enumerate(d.iterrows()):
            ax.errorbar([row["centre"]], [y], xerr=[[row["centre"] - row["ci_low"]], [row["ci_high"] - row["centre"]]],
                        fmt="none", ecolor="gray", capsize=3)
            s = look[point]
            filled = (not paired) or (pd.notna(row.get("p_value")) and row["p_value"] < 0.05)
            ax.scatter([row["centre"]], [y], marker=s["marker"], color=s["color"], zorder=3,
                       facecolors=s["color"] if filled else "white")
        ax.set_yticks(range(len(d)), [f"{p} (n={int(n)})" for p, n in zip(d.index, d["n"])], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(source, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        if paired:
            ax.axvline(0, color="black", linewidth=0.8)
            base = d["baseline"].iloc[0] if len(d) else ""
            ax.set_xlabel(f"{metric} minus {base}'s (mean over units, 95% CI)")
        else:
            ax.set_xlabel(f"{metric} (mean over units, 95% CI)")
        if len(d) and d["n"].min() < SMALL_N:
            ax.set_title(f"{source}\nn = {int(d['n'].min())} < {SMALL_N} units: intervals undercover",
                         fontsize=9, color="C3")
    if paired:
        title = (f"{name + ': ' if name else ''}{metric} minus the baseline's on the same units "
                 "(paired, 95% CI); filled: Wilcoxon p\u00a0<\u00a00.05, hollow: p\u00a0≥\u00a00.05")
    else:
        title = f"{name + ': ' if name else ''}{metric} per strategy point and source (mean over units, 95% bootstrap CI)"
    fig.suptitle(_wrap(title, fig.get_figwidth()), fontsize=11)
    return fig


# ---------------------------------------------------------------------------------------
# Learning periods with intervals (learning-periods.png)

def period_data(daily: pd.DataFrame, source: str, change_day: Optional[int] = None,
                resamples: int = 1000, seed: int = 1) -> pd.DataFrame:
    """Hit rate per strategy point and period (before / first week after / later the change
    day, else week by week) on one source, pooled over visits (people and replicates), with
    a 95% percentile bootstrap interval over the period's days (daily.csv pools people, and a
    deterministic replay's replicates are copies, so days are the units that vary; one day:
    no interval) and `n` days."""
    d = daily[daily["source"].astype(str) == source].copy()
    d["point"] = point_labels(d, among=daily).astype(str)

    def period(day):
        if change_day is None:
            return f"week {day // 7 + 1}"
        if day < change_day:
            return "before"
        return "first week after" if day < change_day + 7 else "later"

    d["period"] = d["day"].map(period)
    d["unit"] = d["day"]
    rng = np.random.default_rng(seed)
    rows = []
    periods = list(dict.fromkeys(d.sort_values("day")["period"]))
    for point in dict.fromkeys(d["point"]):
        for name in periods:
            g = d[(d["point"] == point) & (d["period"] == name)]
            per_unit = g.groupby("unit")[["hits", "target_visits"]].sum()
            hits, visits = per_unit["hits"].to_numpy(float), per_unit["target_visits"].to_numpy(float)
            rate = hits.sum() / visits.sum() if visits.sum() else np.nan
            low = high = np.nan
            if len(per_unit) > 1 and visits.sum():
                draws = rng.integers(0, len(per_unit), size=(resamples, len(per_unit)))
                v = visits[draws].sum(axis=1)
                rates = np.where(v > 0, hits[draws].sum(axis=1) / np.where(v > 0, v, 1), np.nan)
                low, high = np.nanquantile(rates, [0.025, 0.975])
            rows.append({"point": point, "period": name, "hit_rate": rate, "ci_low": low, "ci_high": high,
                         "n": len(per_unit), "target_visits": int(visits.sum())})
    return pd.DataFrame(rows)


def plot_periods(data: pd.DataFrame, source: str, change_day: Optional[int] = None):
    """learning-periods.png: grouped bars per strategy point and period with 95% intervals."""
    import matplotlib.pyplot as plt
    points = list(dict.fromkeys(data["point"]))
    periods = list(dict.fromkeys(data["period"]))
    width = 0.8 / max(len(periods), 1)
    fig, ax = plt.subplots(figsize=(min(16, max(8, 0.35 * len(points) * len(periods) + 3)), 4.8),
                           layout="constrained")
    for i, name in enumerate(periods):
        p = data[data["period"] == name].set_index("point").reindex(points)
        x = np.arange(len(points)) + (i - (len(periods) - 1) / 2) * width
        err = np.array([p["hit_rate"] - p["ci_low"], p["ci_high"] - p["hit_rate"]])
        ax.bar(x, p["hit_rate"], width, label=name, color=f"C{i % 10}",
               yerr=np.where(np.isnan(err), 0, err), capsize=2, error_kw={"lw": 0.8})
    ax.set_xticks(np.arange(len(points)), points, rotation=30, ha="right")
    ax.set_ylabel("hit rate (pooled over visits; 95% CI over days)")
    ax.set_xlabel("strategy point")
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y", alpha=0.3)
    fig.legend(loc="outside lower center", fontsize=8, title="period", ncol=min(len(periods), 6), title_fontsize=8)
    n = int(data["n"].min()) if len(data) else 0
    title = f"Hit rate on {source} by period" + (f" (routine changes on day {change_day})" if change_day is not None else "")
    title += f"; at least {n} day(s) per bar" + (": no interval" if n < 2 else (
        " (< 10: intervals undercover)" if n < SMALL_N else ""))
    ax.set_title(_wrap(title, fig.get_figwidth()), fontsize=10)
    return fig


# ---------------------------------------------------------------------------------------
# Counterfactual estimates (estimates.png, an evaluate --exposures folder)

def estimates_frame(folder: os.PathLike | str) -> pd.DataFrame:
    """Every estimates.csv in `folder` (the folder of `smartstack evaluate --exposures`) or in
    its subfolders, one frame with a `folder` column (the subfolder's name, or `.`)."""
    folder = Path(folder)
    files = [folder / "estimates.csv"] if (folder / "estimates.csv").is_file() else sorted(folder.glob("*/estimates.csv"))
    if not files:
        raise FileNotFoundError(f"{folder}: no estimates.csv in it or in its subfolders "
                                "(smartstack evaluate --exposures LOG --strategy ... --out DIR writes one)")
    frames = []
    for f in files:
        frame = read_csv(f)
        for column in ("logging_strategy", "strategy", "estimator", "metric"):
            frame[column] = frame[column].astype(str)
        if "note" in frame:
            frame["note"] = frame["note"].astype("string").fillna("")
        frame.insert(0, "folder", "." if f.parent == folder else f.parent.name)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def plot_estimates(rows: pd.DataFrame):
    """estimates.png: one panel per (folder, logging strategy, metric); each target strategy
    a row, each estimator a marker with its 95% interval. A rate's interval is drawn within
    [0, 1] with an arrow where it reaches past; `†` marks a row with a note (the notes are
    listed under the figure); the panel title gives people and visits, with a warning under
    10 people."""
    import matplotlib.pyplot as plt
    cases = list(dict.fromkeys(zip(rows["folder"], rows["logging_strategy"], rows["metric"])))
    estimators = list(dict.fromkeys(rows["estimator"]))
    look = styles(estimators)
    most = max((rows[(rows["folder"] == f) & (rows["logging_strategy"] == l)]["strategy"].nunique()
                for f, l, _ in cases), default=1)
    fig, axes = _grid(len(cases), 5.0, 0.45 * most * max(1, len(estimators) / 3) + 1.9)
    offsets = np.linspace(-0.3, 0.3, len(estimators)) if len(estimators) > 1 else [0.0]
    notes: dict = {}   # (target, note) -> the estimators and metrics it is written on
    for ax, (folder, logging, metric) in zip(axes, cases):
        case = rows[(rows["folder"] == folder) & (rows["logging_strategy"] == logging) & (rows["metric"] == metric)]
        targets = list(dict.fromkeys(case["strategy"]))
        rate = metric in RATES
        for offset, estimator in zip(offsets, estimators):
            e = case[case["estimator"] == estimator].set_index("strategy").reindex(targets)
            y = np.arange(len(targets)) + offset
            low, high = e["ci_low"].to_numpy(float), e["ci_high"].to_numpy(float)
            if rate:
                low_c, high_c = np.clip(low, 0, 1), np.clip(high, 0, 1)
            else:
                low_c, high_c = low, high
            est = e["estimate"].to_numpy(float)
            ax.errorbar(est, y, xerr=[np.nan_to_num(est - low_c), np.nan_to_num(high_c - est)],
                        fmt=look[estimator]["marker"], color=look[estimator]["color"], ms=5, capsize=2, lw=1,
                        label=estimator)
            if rate:
                for yi, lo, hi in zip(y, low, high):
                    if lo < 0:
                        ax.annotate("", (0, yi), (0.04, yi), arrowprops={"arrowstyle": "->", "color": "C3"})
                    if hi > 1:
                        ax.annotate("", (1, yi), (0.96, yi), arrowprops={"arrowstyle": "->", "color": "C3"})
            if "note" in e:
                for target, note in zip(targets, e["note"].fillna("")):
                    if note:
                        several = len({(f, l) for f, l, _ in cases}) > 1
                        where = notes.setdefault((f"{logging}: {target}" if several else target, note), ({}, {}))
                        where[0][estimator] = where[1][metric] = True
        flagged = {t for t in targets if "note" in case and (case[case["strategy"] == t]["note"].fillna("") != "").any()}
        ax.set_yticks(np.arange(len(targets)), [t + (" †" if t in flagged else "") for t in targets])
        ax.invert_yaxis()
        if rate:
            ax.set_xlim(-0.03, 1.03)
        ax.grid(axis="x", alpha=0.3)
        ax.set_xlabel(f"estimated {metric} of the target\n(95% CI over people)")
        people = int(case["people"].max()) if "people" in case and len(case) else 0
        visits = int(case["visits"].max()) if "visits" in case and len(case) else 0
        where = "" if folder == "." else f"{folder}: "
        title = f"{where}logging {logging}, {metric}\nn = {people} people, {visits} visits"
        if people < SMALL_N:
            title += f"\nonly {people} people (< {SMALL_N}): the intervals undercover"
        ax.set_title(title, fontsize=9, color="C3" if people < SMALL_N else "black")
    fig.legend(handles=[_handle(e, look[e]) for e in estimators], loc="outside right center", fontsize=8,
               title="estimator", title_fontsize=8)
    fig.suptitle("Off-policy estimates of each target strategy, with 95% bootstrap intervals", fontsize=11)
    if notes:
        width = int(fig.get_figwidth() * 17)   # characters a line at 7 pt
        lines = [textwrap.fill(f"† {target} ({', '.join(e)}; {', '.join(m)}): {note}", width, subsequent_indent="   ")
                 for (target, note), (e, m) in notes.items()]
        shown = lines[:6] + ([f"... and {len(lines) - 6} more notes: see the table"] if len(lines) > 6 else [])
        fig.supxlabel("\n".join(shown), fontsize=7, ha="left", x=0.01, color="0.25")
    return fig
