"""The typed API's machinery: running a command with its progress shown, DataFrames as input
files, and the result objects the functions of `_commands.py` return."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from ._load import Report, load, point_labels
from ._run import Run, SmartStackError, find_binary, options

# Options whose value may be a DataFrame: written to a temporary CSV file for the run.
FRAME_OPTIONS = frozenset({"log", "visits", "exposures", "scores"})
# The message a binary built against the toolchain's Swift runtime gives where it is missing.
_MISSING_RUNTIME = "error while loading shared libraries"


class MissingSwiftRuntime(SmartStackError):
    """The binary could not start: it needs the Swift runtime libraries (libswiftCore.so and
    Foundation's), which a plain `swift build` links from the toolchain. Install the Swift
    toolchain, put its `usr/lib/swift/linux` on LD_LIBRARY_PATH, or use a binary built with
    `--static-swift-stdlib` (README, "Python")."""


def _csv_value(value: Any) -> Any:
    if isinstance(value, dict):   # donation parameters: key=value;... percent-encoded
        def enc(text: Any) -> str:
            return str(text).replace("%", "%25").replace(";", "%3B").replace("=", "%3D")
        return ";".join(f"{enc(k)}={enc(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ";".join(str(v) for v in value)
    return value


def frame_to_csv(frame: pd.DataFrame, path: os.PathLike | str) -> Path:
    """A DataFrame as a toolkit CSV input: datetimes with a time zone as ISO 8601 UTC
    (`2026-03-02T08:01:05.123Z`), naive datetimes as naive local times (`2026-03-02
    08:01:05`, read in the command's --timezone), dict values (donation `parameters`) as
    `key=value;...` percent-encoded, lists (exposure `candidates`, `target`) joined by `;`,
    missing values as empty fields. Columns are kept as named (matched by name)."""
    out = pd.DataFrame(index=frame.index)
    for name, column in frame.items():
        if isinstance(column.dtype, pd.DatetimeTZDtype):
            utc = column.dt.tz_convert("UTC")
            out[name] = utc.dt.strftime("%Y-%m-%dT%H:%M:%S.%f").str[:-3] + "Z"
        elif pd.api.types.is_datetime64_any_dtype(column):
            out[name] = column.dt.strftime("%Y-%m-%d %H:%M:%S")
        elif column.dtype == object:
            out[name] = column.map(_csv_value)
        else:
            out[name] = column
    path = Path(path)
    out.to_csv(path, index=False, lineterminator="\n")
    return path


def write_scores(frame: pd.DataFrame, path: os.PathLike | str) -> Path:
    """Writes an outside model's scores as the CSV `replay --scores` and a batch source's
    `"scores"` read (README, "Scores from an outside model"): columns `user` (optional),
    `timestamp`, `instance` or `kind` (exactly one), `score`, in that order; other columns
    are left out. Rows are sorted by time (stable: rows at one time keep their order, so
    the later one still wins), which puts each user's rows in the time order the reader
    requires. Timestamps as in `frame_to_csv`. Returns the path."""
    targets = [c for c in ("instance", "kind") if c in frame.columns]
    if len(targets) != 1:
        raise ValueError("scores need exactly one of the columns 'instance' and 'kind', found: "
                         + ", ".join(map(str, frame.columns)))
    missing = [c for c in ("timestamp", "score") if c not in frame.columns]
    if missing:
        raise ValueError("scores need the column(s) " + ", ".join(f"'{c}'" for c in missing))
    columns = (["user"] if "user" in frame.columns else []) + ["timestamp", targets[0], "score"]
    ordered = frame[columns].sort_values("timestamp", kind="stable")
    return frame_to_csv(ordered, path)


def _stream(pipe, sink, chunks: list) -> None:
    """Copies the child's stderr to `sink` as it comes (a batch's progress lines), keeping it."""
    while True:
        data = pipe.read1(4096) if hasattr(pipe, "read1") else pipe.read(4096)
        if not data:
            break
        chunks.append(data)
        if sink is not None:
            try:
                sink.write(data.decode("utf-8", "replace"))
                sink.flush()
            except (ValueError, OSError):
                pass


def execute(command: str, positional: list, given: dict, *, binary=None, cwd=None,
            progress: Optional[bool] = None) -> Run:
    """Runs `smartstack COMMAND POSITIONAL... OPTIONS...` for the typed functions: DataFrames
    given for log/visits/exposures become temporary CSV files (removed afterwards); the tool's
    standard error (a batch's progress, warnings) is shown as it comes when `progress` (default:
    unless quiet=True) and kept in the result; a failure raises `SmartStackError` (or
    `MissingSwiftRuntime` when the binary cannot start for want of the Swift runtime)."""
    given = {k: v for k, v in given.items() if v is not None}
    with tempfile.TemporaryDirectory(prefix="smartstack-") as temporary:
        for name in FRAME_OPTIONS & set(given):
            if isinstance(given[name], pd.DataFrame):
                given[name] = frame_to_csv(given[name], Path(temporary) / f"{name}.csv")
        positional = [frame_to_csv(a, Path(temporary) / f"argument{i}.csv") if isinstance(a, pd.DataFrame) else a
                      for i, a in enumerate(positional)]
        args = [os.fspath(find_binary(binary)), command]
        args += [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in positional if a is not None]
        args += options(**given)
        if progress is None:
            progress = not given.get("quiet", False)
        env = None
        if progress and "SMARTSTACK_PROGRESS" not in os.environ:
            # Through a pipe the tool draws no bar; plain progress lines (every 2 s) show in a
            # notebook for every long command, not only batch.
            env = dict(os.environ, SMARTSTACK_PROGRESS="lines")
        child = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=env)
        chunks: list = []
        reader = threading.Thread(target=_stream, args=(child.stderr, sys.stderr if progress else None, chunks),
                                  daemon=True)
        reader.start()
        stdout = child.stdout.read()
        child.wait()
        reader.join()
        out_text, err_text = stdout.decode("utf-8", "replace"), b"".join(chunks).decode("utf-8", "replace")
    if child.returncode != 0:
        if child.returncode == 127 and _MISSING_RUNTIME in err_text:
            raise MissingSwiftRuntime(args, child.returncode, out_text,
                                      err_text + "\n" + (MissingSwiftRuntime.__doc__ or ""))
        raise SmartStackError(args, child.returncode, out_text, err_text)
    out = given.get("out")
    if out is not None:
        out = Path(cwd or ".") / out
    return Run(args=args, stdout=out_text, stderr=err_text, out=out)


class Result:
    """A finished command: `run` (its arguments and output), `folder`, and the report folder
    read lazily: `report` (a `Report`, every table but the big per-visit ones until asked),
    `tables` (the names in it), `table(name)` and the common tables as attributes
    (`runs`, `daily`, `summary`, `paired`, `trace`, `explain`) as pandas DataFrames."""

    def __init__(self, run: Run, folder: Optional[Path]):
        self.run = run
        self.folder = folder
        self._report: Optional[Report] = None

    @property
    def report(self) -> Report:
        if self._report is None:
            if self.folder is None:
                raise FileNotFoundError("this command wrote no report folder")
            self._report = load(self.folder)
        return self._report

    @property
    def tables(self) -> list[str]:
        return self.report.tables

    def table(self, name: str) -> pd.DataFrame:
        return self.report[name]

    runs = property(lambda self: self.report["runs"], doc="runs.csv: one row per cell (source, strategy point, replicate).")
    daily = property(lambda self: self.report["daily"], doc="daily.csv: one row per cell and local day.")
    summary = property(lambda self: self.report.get("summary"), doc="summary.csv (a batch): means with 95% CIs, or None.")
    paired = property(lambda self: self.report.get("paired"), doc="paired.csv (a batch): paired differences, or None.")
    tuning = property(lambda self: self.report.get("tuning"), doc="tuning.csv (a config with \"tune\"): every trial of the search on the validation window, or None.")
    people = property(lambda self: self.report.get("people"), doc="people.csv (--people, outputs.people): one row per person, strategy, replicate (and split), or None.")
    trace = property(lambda self: self.report["trace"], doc="trace.csv (--trace): one row per scored visit; read when asked.")
    explain = property(lambda self: self.report["explain"], doc="explain.csv (--explain); read when asked.")

    @property
    def stdout(self) -> str:
        return self.run.stdout

    @property
    def out(self) -> Optional[Path]:
        """The --out given (as `Run.out`), None without one."""
        return self.run.out

    def plot(self, metric: str = "hit_rate", kind: Optional[str] = None):
        """A matplotlib figure of the results: with summary.csv (a batch) the metric per
        strategy point and source with 95% CIs (`kind="intervals"`, the default), its paired
        differences (`kind="paired"`), or rotations against the metric (`kind="tradeoff"`,
        the only one for a replay or simulate folder)."""
        from . import _plot
        name = ((self.report.manifest or {}).get("config") or {}).get("name")
        if kind is None:
            kind = "intervals" if self.summary is not None else "tradeoff"
        if kind == "intervals":
            return _plot.plot_intervals(self.report, metric, name=name)
        if kind == "paired":
            return _plot.plot_intervals(self.report, metric, paired=True, name=name)
        if kind == "tradeoff":
            return _plot.plot_tradeoff(self.report, metric, name=name)
        raise ValueError(f"kind={kind!r}: one of intervals, paired, tradeoff")

    def _repr_html_(self) -> str:
        frame = self.summary if self.summary is not None else self.runs
        return f"<p>smartstack {self.run.args[1]} → {self.folder}</p>" + frame.head(30)._repr_html_()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(folder={str(self.folder)!r}, command={' '.join(self.run.args[1:])!r})"


class BatchResult(Result):
    """`smartstack batch`'s folder: runs, daily, summary, paired (and trace with --trace)."""

    def points(self, frame: Optional[pd.DataFrame] = None) -> pd.Series:
        """The strategy point label of each row (`hour-of-week:half-life-days=7` in a sweep)."""
        return point_labels(self.runs if frame is None else frame, among=self.runs)


class ReplayResult(Result):
    """`smartstack replay`'s folder: runs and daily (trace, explain when asked for)."""


class SimulateResult(Result):
    """`smartstack simulate`'s folder: runs and daily (trace, explain when asked for)."""


class EvaluateResult(Result):
    """`smartstack evaluate`'s folder: `estimates` (--exposures: one row per logging
    strategy, target, estimator and metric, with the 95% interval and the note) or
    `validation` (--validate: bias, coverage, truth per estimator)."""

    @property
    def estimates(self) -> Optional[pd.DataFrame]:
        return self.report.get("estimates")

    @property
    def validation(self) -> Optional[pd.DataFrame]:
        return self.report.get("validation")

    def plot(self, metric: Optional[str] = None, kind: Optional[str] = None):
        """The estimates with their 95% intervals (estimates.png of the
        counterfactual-estimates notebook), one panel per logging strategy and metric."""
        from . import _plot
        if self.estimates is None:
            raise ValueError(f"{self.folder}: no estimates.csv (the validation has its notebook: "
                             "Notebooks/estimator-validation.ipynb)")
        rows = _plot.estimates_frame(self.folder)
        if metric is not None:
            rows = rows[rows["metric"] == metric]
        return _plot.plot_estimates(rows)

    def _repr_html_(self) -> str:
        frame = self.estimates if self.estimates is not None else self.validation
        return f"<p>smartstack evaluate → {self.folder}</p>" + (frame.head(40)._repr_html_() if frame is not None else "")


class ValidateResult:
    """`smartstack validate`'s verdict on a log: `info` (its `--json` report as a dict),
    `stdout`, `stderr` (warnings), and `summary`, the top-level counts as a one-row DataFrame."""

    def __init__(self, run: Run):
        self.run = run
        self.stdout = run.stdout
        self.stderr = run.stderr
        try:
            self.info = json.loads(run.stdout)
        except ValueError:
            self.info = None

    @property
    def summary(self) -> pd.DataFrame:
        info = self.info or {}
        return pd.DataFrame([{k: v for k, v in info.items() if not isinstance(v, (dict, list))}])

    def __repr__(self) -> str:
        return f"ValidateResult({self.info if self.info is not None else self.stdout.strip()!r})"


def folder_of(run: Run, cwd, default_out: Optional[str]) -> Optional[Path]:
    """The report folder of a finished run: its --out, else the command's default --out."""
    if run.out is not None:
        return run.out
    if default_out:
        return Path(cwd or ".") / default_out
    return None
