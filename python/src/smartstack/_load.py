"""Reading a report folder as typed pandas DataFrames."""

from __future__ import annotations

import json
import warnings
import os
from pathlib import Path
from typing import Optional

import pandas as pd

# Names and labels: always text (a person called "007" stays "007"), as category when repeated.
TEXT_COLUMNS = frozenset({
    "run_id", "source", "strategy", "parameters", "baseline", "metric", "person", "user",
    "instance", "kind", "intent", "shown", "previous", "target", "targets", "top", "rule",
    "state", "shown_state", "table", "fields",
})
# Instants: ISO 8601 with Z or an offset, read as timezone-aware (UTC) datetimes.
TIME_COLUMNS = frozenset({"time", "timestamp", "started", "finished"})
# Local times with their offset (trace.csv, explain.csv, relevance output): wall time kept.
LOCAL_TIME_COLUMNS = frozenset({"local_time"})
# UTC offsets in seconds east of UTC (daily.csv's offsets at a local day's start and end, a
# log's utc_offset): integers, nullable Int64 when some are empty. daily.csv's start_utc
# and end_utc are instants (`*_utc`), so `start_utc + utc_offset` is `date` at 00:00.
OFFSET_COLUMNS = frozenset({"utc_offset", "utc_offset_end"})
_INTEGER = r"-?[0-9]+"


class Report(dict):
    """A report folder: `{file stem: DataFrame}` for every CSV in it, keys sorted by name,
    plus `manifest` (the parsed manifest.json, or None) and `folder`."""

    def __init__(self, folder: Path, frames: dict, manifest: Optional[dict]):
        super().__init__(frames)
        self.folder = folder
        self.manifest = manifest

    def source_config(self, label: str) -> Optional[dict]:
        """The manifest's config of a source, by its label (`drift`, `sample[horizon=60]`)."""
        sources = ((self.manifest or {}).get("config") or {}).get("sources", [])
        for name in (label, label.split("[")[0]):
            for source in sources:
                if source.get("name") == name:
                    return source
        return None

    def input_path(self, path: str) -> Optional[Path]:
        """A path from the manifest's config (relative to the config file's folder, which
        is relative to where the batch ran): tried from the current folder and from each
        folder above the report folder. None when it is in none of them."""
        config_dir = Path((self.manifest or {}).get("config_file") or ".").parent
        for base in (Path.cwd(), *self.folder.resolve().parents):
            candidate = base / config_dir / path
            if candidate.is_file():
                return candidate.resolve()
        return None

    def __repr__(self) -> str:
        shapes = ", ".join(f"{k}: {len(v)}x{v.shape[1]}" for k, v in self.items())
        return f"Report({str(self.folder)!r}; {shapes})"


def _is_time(name: str) -> bool:
    return name not in LOCAL_TIME_COLUMNS and (
        name in TIME_COLUMNS or name.endswith("_time") or name.endswith("_utc"))


def _local_times(column: pd.Series) -> pd.Series:
    """`local_time` (ISO 8601 with the zone's offset): timezone-aware datetimes that keep
    their wall time. One offset in the column gives a fixed-offset dtype; several (a
    daylight-saving change) give Timestamps each with its own offset (object dtype)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            parsed = pd.to_datetime(column, format="ISO8601")
            if isinstance(parsed.dtype, pd.DatetimeTZDtype):
                return parsed
        except (ValueError, TypeError):
            pass
    return column.map(lambda v: pd.Timestamp(v) if isinstance(v, str) and v else pd.NaT)


def _typed(name: str, column: pd.Series) -> pd.Series:
    """One column read as text, given its type: time, date, text (category when values
    repeat), integer (nullable Int64 when some are empty), float, or else text."""
    values = column.dropna()
    if name in LOCAL_TIME_COLUMNS and len(values):
        return _local_times(column)
    if _is_time(name) and len(values):
        try:
            return pd.to_datetime(column, utc=True, format="ISO8601")
        except (ValueError, TypeError):
            pass
    if name in OFFSET_COLUMNS and len(values) and values.str.fullmatch(_INTEGER).all():
        numbers = pd.to_numeric(column)
        return numbers.astype("Int64") if column.isna().any() else numbers.astype("int64")
    if name == "date" and len(values):
        try:
            return pd.to_datetime(column, format="%Y-%m-%d")
        except (ValueError, TypeError):
            pass
    if name not in TEXT_COLUMNS and len(values):
        try:
            numbers = pd.to_numeric(column)
        except (ValueError, TypeError):
            numbers = None
        if numbers is not None:
            if values.str.fullmatch(_INTEGER).all():
                return numbers.astype("Int64") if column.isna().any() else numbers
            return numbers.astype("float64")
    if len(values) and values.nunique() * 2 <= len(values):
        # Categories in file order (the reports are sorted by key), not alphabetical.
        return pd.Series(pd.Categorical(column, categories=list(dict.fromkeys(values))),
                         index=column.index, name=name)
    return column


def read_csv(path: os.PathLike | str) -> pd.DataFrame:
    """One report CSV with typed columns; an empty field is missing (NaN, NaT or <NA>)."""
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    return pd.DataFrame({name: _typed(name, raw[name]) for name in raw.columns}, index=raw.index)


def load(folder: os.PathLike | str) -> Report:
    """Every report file in `folder`: runs, daily, summary, paired, trace, explain, grid...
    (each `*.csv` directly in it) as DataFrames keyed by file stem, and `manifest.json` as
    `report.manifest`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such report folder")
    frames = {p.stem: read_csv(p) for p in sorted(folder.glob("*.csv")) if p.is_file()}
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else None
    if not frames and manifest is None:
        raise FileNotFoundError(f"{folder}: no report files (*.csv, manifest.json)")
    return Report(folder, frames, manifest)


def _points(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    strategy = frame["strategy"].astype(str)
    return strategy, frame["parameters"].astype(str).where(frame["parameters"].notna(), "")


def point_labels(frame: pd.DataFrame, among: Optional[pd.DataFrame] = None) -> pd.Series:
    """A label per row for its strategy point: the strategy's name alone when there is one
    parameter set for it, else `name:` and the parameters that differ between its points
    (`hour-of-week:half-life-days=7`). Works on runs, daily, summary and paired; `among`
    (default: `frame`) is the frame whose points decide the labels and their order, so that
    paired.csv, which lacks the baseline, gets the same labels as runs.csv."""
    strategy, parameters = _points(frame if among is None else among)
    labels = {}
    for name in dict.fromkeys(strategy):
        sets = list(dict.fromkeys(parameters[strategy == name]))
        if len(sets) == 1:
            labels.update({(name, sets[0]): name})
            continue
        parsed = [dict(p.split("=", 1) for p in s.split(";") if p) for s in sets]
        varying = [k for k in parsed[0] if len({d.get(k) for d in parsed}) > 1] or list(parsed[0])
        for s, d in zip(sets, parsed):
            labels[(name, s)] = name + ":" + ";".join(f"{k}={d.get(k, '')}" for k in varying)
    order = list(dict.fromkeys(labels.values()))
    strategy, parameters = _points(frame)
    return pd.Series(pd.Categorical([labels[k] for k in zip(strategy, parameters)], categories=order),
                     index=frame.index, name="point")


# Twenty markers that print distinctly, so that strategies past the tenth colour stay apart.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p", "d", "H", "8", "1", "2", "3", "4", "+")


def styles(labels) -> dict:
    """`{label: {"color": ..., "marker": ...}}` for matplotlib: the ten default colours in
    turn and a different marker for each label (twenty before markers repeat)."""
    return {label: {"color": f"C{i % 10}", "marker": MARKERS[i % len(MARKERS)]}
            for i, label in enumerate(dict.fromkeys(labels))}
