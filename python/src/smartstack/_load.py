"""Reading a report folder as typed pandas DataFrames."""

from __future__ import annotations

import io
import json
import warnings
import os
import stat
import zlib
from pathlib import Path
from typing import Optional, Sequence

import pandas as pd

# Names and labels: always text (a person called "007" stays "007"), as category when repeated.
TEXT_COLUMNS = frozenset({
    "run_id", "source", "strategy", "parameters", "label", "baseline", "metric", "person", "user",
    "instance", "kind", "intent", "shown", "previous", "target", "targets", "top", "rule",
    "state", "shown_state", "table", "fields", "split",
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
    plus `manifest` (the parsed manifest.json, or None) and `folder`.

    The big per-visit tables (`trace`, `explain`: LAZY_TABLES) are read on first use
    (`report["trace"]`, `.get`, `.items()`, `.values()`), checked then against the manifest
    read by `load`; `tables` lists every table, `loaded` those read so far."""

    def __init__(self, folder: Path, frames: dict, manifest: Optional[dict], lazy: Optional[dict] = None):
        super().__init__(frames)
        self.folder = folder
        self.manifest = manifest
        self._lazy = dict(lazy or {})

    @property
    def tables(self) -> list[str]:
        """Every table of the report, read or not, sorted by name."""
        return sorted(set(dict.keys(self)) | set(self._lazy))

    @property
    def loaded(self) -> list[str]:
        """The tables read so far."""
        return sorted(dict.keys(self))

    def __missing__(self, key):
        reader = self._lazy.pop(key, None)
        if reader is None:
            raise KeyError(key)
        frame = reader()
        dict.__setitem__(self, key, frame)
        return frame

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self._lazy

    def __iter__(self):
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def keys(self):
        return dict.fromkeys(self.tables).keys()   # a view: set operations work as on a dict

    def get(self, key, default=None):
        return self[key] if key in self else default

    def items(self):
        return [(k, self[k]) for k in self.tables]

    def values(self):
        return [self[k] for k in self.tables]

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
        shapes = ", ".join(f"{k}: {len(dict.__getitem__(self, k))}x{dict.__getitem__(self, k).shape[1]}"
                           if dict.__contains__(self, k) else f"{k}: not read yet" for k in self.tables)
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


# The report files a toolkit command writes as one set (OutputClaim.reportNames).
REPORT_NAMES = ("runs.csv", "daily.csv", "summary.csv", "paired.csv", "trace.csv", "explain.csv",
                "estimates.csv", "validation.csv", "tuning.csv", "people.csv", "fit-report.csv",
                "fit-distributions.csv")
# Where a set committed by a run killed while moving it into place waits (OutputSet).
_COMMITTED = ".reports-committed"


class MixedReportError(ValueError):
    """A report folder whose files do not match its manifest.json: files of two runs, or a
    file changed or cut short. `smartstack report DIR` gives the same verdict; running the
    batch again with --resume rebuilds the reports from the journal."""


def _current_path(folder: Path, name: str) -> Path:
    """Where the current set's file `name` is: in `.reports-committed/` while a killed run's
    move into place is unfinished and the file has not moved yet, else in the folder (as
    `OutputSet.currentPath`, which `smartstack report` uses)."""
    committed = folder / _COMMITTED
    if (committed / ".names").is_file() and (committed / name).is_file():
        return committed / name
    return folder / name


def _read_current(folder: Path, name: str) -> Optional[bytes]:
    """The bytes of the current set's file `name`, None when it has none. A file moved into
    the folder between finding and opening it is read from its new place."""
    for _ in range(3):
        path = _current_path(folder, name)
        try:
            # Non-blocking, and regular files only: a FIFO named like a report would block
            # a plain open for ever (as FileIO.readBytes refuses it on the Swift side).
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            if path.parent == folder:
                return None
            continue
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise MixedReportError(f"{path}: is not a regular file (a FIFO, a device or a folder)")
            return file.read()
    return None


# Tables read only when asked for (a traced run's trace.csv can be hundreds of megabytes).
LAZY_TABLES = frozenset({"trace", "explain"})


def _check(folder: Path, name: str, entry: dict, data: Optional[bytes]) -> bytes:
    """`data` (file `name`'s bytes) checked against its manifest entry's size and CRC-32."""
    if data is None:
        raise MixedReportError(
            f"{folder / name}: no such file, though manifest.json lists it: the folder does not "
            "hold the set its manifest describes. Run the batch again with --resume to rebuild it")
    crc = entry.get("crc32")
    if len(data) != entry.get("bytes") or (crc is not None and f"{zlib.crc32(data):08x}" != crc):
        raise MixedReportError(
            f"{folder / name} does not match manifest.json (the manifest says {entry.get('bytes')} "
            f"bytes with CRC-32 {crc}, the file has {len(data)} bytes with CRC-32 "
            f"{zlib.crc32(data):08x}): the folder holds files of different runs, or the file was "
            "changed. Run the batch again with --resume to rebuild the reports from the journal")
    return data


def _read_set(folder: Path, manifest_bytes: bytes, wanted=None) -> tuple[dict, Optional[dict], dict]:
    """The manifest, `{name: bytes}` of the files it lists that are `wanted` (stems; None:
    all), each checked against the manifest's size and CRC-32 (when it gives one: older
    manifests give FNV-1a 64 only, too slow in pure Python, so only sizes are checked), and
    `{name: entry}` of the listed files not wanted, which are only checked to exist.
    `contents` is None for a manifest written before manifests listed their files with
    sizes (nothing to check)."""
    manifest = json.loads(manifest_bytes.decode("utf-8"))
    if not any(isinstance(e, dict) for e in manifest.get("files", [])):
        return manifest, None, {}
    contents, deferred = {}, {}
    for entry in manifest.get("files", []):
        if not isinstance(entry, dict):   # a manifest written before file hashes
            continue
        name = entry.get("name")
        if name not in REPORT_NAMES:
            continue
        if wanted is not None and Path(name).stem not in wanted:
            if not _current_path(folder, name).is_file():
                _check(folder, name, entry, None)
            deferred[name] = entry
            continue
        contents[name] = _check(folder, name, entry, _read_current(folder, name))
    return manifest, contents, deferred


def _lazy_reader(folder: Path, name: str, entry: Optional[dict]):
    """Reads a deferred table on first use, checked against the manifest `load` read."""
    def read() -> pd.DataFrame:
        if entry is None:
            return read_csv(folder / name)
        data = _check(folder, name, entry, _read_current(folder, name))
        return read_csv(io.BytesIO(data))
    return read


def load(folder: os.PathLike | str, tables: Optional[Sequence[str]] = None) -> Report:
    """Every report file in `folder`: runs, daily, summary, paired, trace, explain, grid...
    as DataFrames keyed by file stem, and `manifest.json` as `report.manifest`.

    `tables` (file stems: `["runs", "summary"]`) reads only those, and the report holds only
    those (a name the folder lacks raises KeyError naming the ones it has). Without it the
    report holds every table, and the big per-visit ones (`trace`, `explain`) are read on
    first use (`report["trace"]`), so loading a traced folder does not parse its trace
    unless asked.

    With a manifest.json that lists its files (every smartstack batch, merge, replay and
    simulate folder), the report files are exactly those it lists, read as one set: from
    `.reports-committed/` first when a run was killed while moving its new set into place
    (as `smartstack report` reads them), each checked against the manifest's size and
    CRC-32, and read again when a run replaces the set while they are being read (the
    manifest changed); a folder whose files do not match raises `MixedReportError` (a table
    read on first use is checked then, against the manifest read here). Other `*.csv` files
    directly in the folder (not report names, e.g. an emitted log) are loaded too. Without
    a manifest, every `*.csv` directly in the folder is loaded."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such report folder")
    if isinstance(tables, str):
        tables = [tables]
    wanted = None if tables is None else {Path(t).stem for t in tables}
    for attempt in range(3):
        manifest_bytes = _read_current(folder, "manifest.json")
        if manifest_bytes is None:
            paths = {p.stem: p for p in sorted(folder.glob("*.csv")) if p.is_file()}
            if not paths:
                raise FileNotFoundError(f"{folder}: no report files (*.csv, manifest.json)")
            return _report(folder, None, {}, {}, paths, wanted)
        try:
            manifest, contents, deferred = _read_set(folder, manifest_bytes, _eager(wanted))
        except MixedReportError:
            if attempt == 2 or _read_current(folder, "manifest.json") == manifest_bytes:
                raise
            continue
        if _read_current(folder, "manifest.json") != manifest_bytes and attempt < 2:
            continue   # a run published a new set while this one was read
        on_disk = {p.name for p in folder.glob("*.csv") if p.is_file()}
        if contents is None:
            contents = {}
            others = on_disk
        else:
            others = on_disk - set(REPORT_NAMES)
        return _report(folder, manifest, contents, deferred, {Path(n).stem: folder / n for n in others}, wanted)
    raise MixedReportError(f"{folder}: its report set kept changing while it was read")


def _eager(wanted):
    """The stems `_read_set` reads now: `wanted`, or (None) every report but the lazy ones."""
    if wanted is not None:
        return wanted
    return {Path(n).stem for n in REPORT_NAMES} - LAZY_TABLES


def _report(folder: Path, manifest, contents: dict, deferred: dict, paths: dict, wanted) -> Report:
    """The Report of the checked `contents`, the `deferred` manifest entries and the other
    CSV files `paths` ({stem: path}), restricted to `wanted` when given."""
    available = sorted({Path(n).stem for n in contents} | {Path(n).stem for n in deferred} | set(paths))
    if wanted is not None:
        missing = sorted(wanted - set(available))
        if missing:
            import difflib
            hints = [f"{m} (did you mean {c[0]}?)" if (c := difflib.get_close_matches(m, available, 1)) else m
                     for m in missing]
            raise KeyError(f"{folder}: no table {', '.join(hints)}; it has {', '.join(available)}")
    frames, lazy = {}, {}
    for name, data in contents.items():
        frames[Path(name).stem] = read_csv(io.BytesIO(data))
    for name, entry in deferred.items():
        lazy[Path(name).stem] = _lazy_reader(folder, name, entry)
    for stem, path in paths.items():
        if stem in frames or stem in lazy:
            continue
        if wanted is None and stem in LAZY_TABLES:
            lazy[stem] = _lazy_reader(folder, path.name, None)
        elif wanted is None or stem in wanted:
            frames[stem] = read_csv(path)
    if wanted is not None:
        frames = {k: v for k, v in frames.items() if k in wanted}
        lazy = {k: v for k, v in lazy.items() if k in wanted}
    _label_points(frames)
    return Report(folder, dict(sorted(frames.items())), manifest, lazy)


def _label_points(frames: dict) -> None:
    """Gives runs and daily the `label` column of summary.csv (each strategy point's label,
    as the console tables print it), after their `parameters` column, so that every table
    of a folder names its points alike (`point_labels`)."""
    summary = frames.get("summary")
    if summary is None or "label" not in summary.columns:
        return
    label_of = dict(zip(zip(*_points(summary)), summary["label"].astype(str)))
    for stem in ("runs", "daily"):
        frame = frames.get(stem)
        if frame is None or "label" in frame.columns or "strategy" not in frame.columns:
            continue
        keys = list(zip(*_points(frame)))
        if all(k in label_of for k in keys):
            labels = [label_of[k] for k in keys]
            frame.insert(frame.columns.get_loc("parameters") + 1, "label",
                         pd.Categorical(labels, categories=list(dict.fromkeys(labels))))


def _points(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    strategy = frame["strategy"].astype(str)
    return strategy, frame["parameters"].astype(str).where(frame["parameters"].notna(), "")


def point_labels(frame: pd.DataFrame, among: Optional[pd.DataFrame] = None) -> pd.Series:
    """A label per row for its strategy point. Works on runs, daily, summary and paired;
    `among` (default: `frame`) is the frame whose points decide the labels' order, so that
    paired.csv, which lacks the baseline, lists its points as runs.csv does.

    The label is the reports' own `label` column when `frame` has one (summary.csv and
    paired.csv; `load` gives runs and daily theirs): the name plus only the parameters that
    differ from their defaults (`hour-of-week:half-life-days=7`), as the console tables
    print it. Without one (reports of an older version, a frame of your own) it is made
    here: the strategy's name alone when there is one parameter set for it, else `name:`
    and the parameters that differ between its points."""
    if "label" in frame.columns:
        labels = frame["label"].astype(str)
        first = among if among is not None and "label" in among.columns else frame
        order = list(dict.fromkeys(first["label"].astype(str)))
        order += [x for x in dict.fromkeys(labels) if x not in order]
        return pd.Series(pd.Categorical(labels, categories=order), index=frame.index, name="point")
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
