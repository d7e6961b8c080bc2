"""The typed API (issue 29 item 11): functions with the CLI's options as keyword parameters,
result objects with DataFrames, DataFrames as inputs, lazy tables, progress, plots."""

import importlib.util
import inspect
import os
import stat
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import smartstack

REPO = Path(__file__).resolve().parents[2]
TINY_LOG = REPO / "Datasets" / "logs" / "tiny.csv"
TINY_EXPERIMENT = REPO / "Datasets" / "experiments" / "tiny.json"
FIELD_STUDY = REPO / "Datasets" / "exposures" / "field-study.csv"
COMMANDS = ("batch", "replay", "simulate", "evaluate", "validate")


def _generator():
    spec = importlib.util.spec_from_file_location("generate_api", REPO / "python" / "generate_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_functions_have_every_option_of_the_binary_and_no_other():
    """Generated from `smartstack COMMAND --experimental-dump-help`; a binary whose options
    changed fails here until python/generate_api.py is run again."""
    from smartstack import _commands
    live = _generator().spec(str(smartstack.find_binary()))
    recorded = {c: [tuple(o) for o in options] for c, options in _commands.OPTIONS.items()}
    assert live == recorded, "the binary's options differ from smartstack's functions: run python python/generate_api.py"
    for command, options in live.items():
        parameters = inspect.signature(getattr(smartstack, command)).parameters
        for cli, kind, required in options:
            name = cli.replace("-", "_") + ("_" if cli in ("from", "in", "with") else "")
            assert name in parameters, f"{command}: no parameter for --{cli}"
            parameter = parameters[name]
            if kind != "positional":
                assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, f"{command}({name})"
            assert (parameter.default is inspect.Parameter.empty) == (required and kind != "flag"), f"{command}({name})"
        own = set(parameters) - {"binary", "cwd", "progress"}
        assert len(own) == len(options), f"{command}: parameters the binary does not have"


def test_a_misspelt_keyword_is_a_type_error_not_an_ignored_option(tmp_path):
    with pytest.raises(TypeError, match="strategyy"):
        smartstack.replay(log=TINY_LOG, strategyy="mfu", out=tmp_path)


def test_functions_have_docstrings_from_the_options_help():
    doc = smartstack.replay.__doc__
    assert "--horizon" in doc and "--log" in doc and "Required" in doc
    for command in COMMANDS:
        assert getattr(smartstack, command).__doc__


def test_replay_returns_a_result_with_dataframes(tmp_path):
    result = smartstack.replay(log=TINY_LOG, strategy=["mfu", "oracle"], horizon=1800, out=tmp_path / "r")
    assert isinstance(result, smartstack.ReplayResult)
    assert list(result.runs["strategy"].astype(str)) == ["mfu", "oracle"]
    assert result.summary is None and result.daily["hits"].dtype == "int64"
    assert result.folder == tmp_path / "r"


def test_a_dataframe_log_gives_the_same_reports_as_its_file(tmp_path):
    log = pd.read_csv(TINY_LOG, dtype=str, keep_default_na=False)
    # As a researcher holds it: instants as timezone-aware datetimes.
    log["timestamp"] = pd.to_datetime(log["timestamp"], utc=True, format="ISO8601")
    from_file = smartstack.replay(log=TINY_LOG, strategy="mfu,hour-of-week", out=tmp_path / "file")
    from_frame = smartstack.replay(log=log, strategy="mfu,hour-of-week", out=tmp_path / "frame")
    assert "DataFrame" not in " ".join(from_frame.run.args)
    columns = ["strategy", "visits", "target_visits", "hits", "hit_rate", "rotations"]
    pd.testing.assert_frame_equal(from_file.runs[columns], from_frame.runs[columns])


def test_frame_to_csv_writes_instants_parameters_and_lists(tmp_path):
    frame = pd.DataFrame({
        "timestamp": pd.to_datetime(["2026-03-02T08:01:05.123+01:00"], utc=True),
        "naive": pd.to_datetime(["2026-03-02 08:01:05"]),
        "kind": ["A"], "parameters": [{"card": "a;b", "x": "1=2"}], "candidates": [["w", "c"]]})
    text = smartstack.frame_to_csv(frame, tmp_path / "x.csv").read_text()
    assert text.splitlines()[1] == "2026-03-02T07:01:05.123Z,2026-03-02 08:01:05,A,card=a%3Bb;x=1%3D2,w;c"


def test_load_does_not_read_a_trace_until_asked(tmp_path):
    out = tmp_path / "b"
    smartstack.batch(TINY_EXPERIMENT, out=out, replicates=1, trace=True, quiet=True)
    report = smartstack.load(out)
    assert "trace" in report.tables and "trace" in report
    assert "trace" not in report.loaded and "runs" in report.loaded
    assert "not read yet" in repr(report)
    assert report["trace"]["has_target"].dtype == "int64"
    assert "trace" in report.loaded
    only = smartstack.load(out, tables=["runs", "summary"])
    assert only.tables == ["runs", "summary"] and set(only) == {"runs", "summary"}
    with pytest.raises(KeyError, match="did you mean trace"):
        smartstack.load(out, tables=["trce"])


def test_a_trace_changed_after_load_is_refused_when_read(tmp_path):
    out = tmp_path / "b"
    smartstack.batch(TINY_EXPERIMENT, out=out, replicates=1, trace=True, quiet=True)
    report = smartstack.load(out)
    with open(out / "trace.csv", "a") as f:
        f.write("x\n")
    with pytest.raises(smartstack.MixedReportError, match="trace.csv does not match"):
        report["trace"]


def _fake_binary(tmp_path, script):
    path = tmp_path / "smartstack"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


class _Clock:
    """A stream that records when each write came."""

    def __init__(self):
        self.writes = []

    def write(self, text):
        self.writes.append((time.monotonic(), text))

    def flush(self):
        pass


def test_progress_is_shown_while_the_command_runs(tmp_path, monkeypatch):
    binary = _fake_binary(tmp_path, "echo 'batch: 1/2 cells' >&2\nsleep 1\necho 'batch: 2/2 cells' >&2\n")
    clock = _Clock()
    monkeypatch.setattr(sys, "stderr", clock)
    started = time.monotonic()
    result = smartstack.batch(binary=binary, out=tmp_path / "o")
    ended = time.monotonic()
    first = next(t for t, text in clock.writes if "1/2" in text)
    assert first - started < (ended - started) - 0.5, "the first progress line came only at the end"
    assert "2/2 cells" in result.run.stderr


def test_quiet_shows_nothing(tmp_path, monkeypatch):
    binary = _fake_binary(tmp_path, "echo 'warning: x' >&2\n")
    clock = _Clock()
    monkeypatch.setattr(sys, "stderr", clock)
    smartstack.replay(log="x.csv", binary=binary, quiet=True)
    assert clock.writes == []


def test_a_binary_without_the_swift_runtime_says_so(tmp_path):
    binary = _fake_binary(tmp_path, "echo \"$0: error while loading shared libraries: libswiftCore.so: "
                                    "cannot open shared object file: No such file or directory\" >&2\nexit 127\n")
    with pytest.raises(smartstack.MissingSwiftRuntime, match="static-swift-stdlib"):
        smartstack.replay(log="x.csv", binary=binary, progress=False)


def test_simulate_and_batch_results(tmp_path):
    scenario = REPO / "Datasets" / "scenarios" / "tiny.json"
    sim = smartstack.simulate(scenario=scenario, strategy=["mfu", "oracle"], days=3, out=tmp_path / "s", quiet=True)
    assert isinstance(sim, smartstack.SimulateResult) and len(sim.runs) == 2
    batch = smartstack.batch(TINY_EXPERIMENT, out=tmp_path / "b", replicates=1, quiet=True)
    assert isinstance(batch, smartstack.BatchResult)
    assert {"mean", "ci_low", "ci_high", "n"} <= set(batch.summary.columns)
    assert "hour-of-week:half-life-days=2" in set(batch.points().astype(str))


def test_evaluate_returns_estimates_with_their_notes(tmp_path):
    result = smartstack.evaluate(exposures=FIELD_STUDY, strategy=["mfu", "static"], out=tmp_path / "e", quiet=True)
    assert isinstance(result, smartstack.EvaluateResult)
    estimates = result.estimates
    assert {"strategy", "estimator", "metric", "estimate", "ci_low", "ci_high", "note"} <= set(estimates.columns)
    assert set(estimates["strategy"].astype(str)) == {"mfu", "static"}


def test_validate_returns_the_logs_description():
    result = smartstack.validate(log=TINY_LOG)
    assert isinstance(result, smartstack.ValidateResult)
    assert isinstance(result.info, dict) and result.info
    assert len(result.summary) == 1


def test_plot_on_results(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    batch = smartstack.batch(TINY_EXPERIMENT, out=tmp_path / "b", replicates=1, quiet=True)
    for kind in ("intervals", "paired", "tradeoff"):
        fig = batch.plot(kind=kind)
        assert fig.axes and fig.get_suptitle()
    replay = smartstack.replay(log=TINY_LOG, strategy="mfu,oracle", out=tmp_path / "r", quiet=True)
    assert replay.plot().axes
    evaluate = smartstack.evaluate(exposures=FIELD_STUDY, strategy="mfu,static", out=tmp_path / "e", quiet=True)
    assert evaluate.plot().axes


def test_where_the_swift_runtime_is_missing_the_package_says_so():
    """The binary the package runs, in a private mount namespace where the folder of its
    Swift runtime is hidden (an empty tmpfs over it): a build linked against the toolchain's
    runtime raises MissingSwiftRuntime; a --static-swift-stdlib build still runs."""
    import shutil
    import subprocess
    binary = str(smartstack.find_binary())
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ldd"):
        pytest.skip("needs root and unshare to hide the Swift runtime")
    linked = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    runtime = next((line.split("=>")[1].split("(")[0].strip() for line in linked.splitlines()
                    if "libswiftCore.so" in line and "=>" in line), None)
    script = ("import smartstack, sys\n"
              "try:\n"
              f"    smartstack.validate({str(TINY_LOG)!r}, binary={binary!r}, progress=False)\n"
              "    print('ran')\n"
              "except smartstack.MissingSwiftRuntime:\n"
              "    print('missing runtime')\n")
    hidden = os.path.dirname(runtime) if runtime else "/mnt"
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                           f"mount -t tmpfs none {hidden} && exec \"$0\" -c \"$1\"", sys.executable, script],
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    if "mount" in done.stderr and done.returncode != 0:
        pytest.skip(f"cannot make a mount namespace here: {done.stderr.strip()}")
    assert done.stdout.strip() == ("missing runtime" if runtime else "ran"), done.stderr


def test_a_dataframe_of_visits_gives_the_same_reports_as_its_file(tmp_path):
    log = pd.read_csv(TINY_LOG, dtype=str, keep_default_na=False)
    visits = pd.DataFrame({"timestamp": pd.to_datetime(log["timestamp"], utc=True, format="ISO8601")
                           - pd.Timedelta(minutes=2), "user": log["user"]})
    path = tmp_path / "visits.csv"
    visits.assign(timestamp=visits["timestamp"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(path, index=False)
    from_file = smartstack.replay(log=TINY_LOG, visits=path, strategy="mfu", out=tmp_path / "file", quiet=True)
    from_frame = smartstack.replay(log=TINY_LOG, visits=visits, strategy="mfu", out=tmp_path / "frame", quiet=True)
    columns = ["strategy", "visits", "target_visits", "hits"]
    pd.testing.assert_frame_equal(from_file.runs[columns], from_frame.runs[columns])
    assert from_frame.runs["visits"].iloc[0] == len(visits)


def test_a_replay_shows_its_progress_lines_through_the_pipe(tmp_path, monkeypatch):
    """Through a pipe the tool draws no bar; the package asks for plain lines
    (SMARTSTACK_PROGRESS=lines), so a notebook sees a replay's progress, not only a batch's."""
    monkeypatch.delenv("SMARTSTACK_PROGRESS", raising=False)
    clock = _Clock()
    monkeypatch.setattr(sys, "stderr", clock)
    result = smartstack.replay(log=REPO / "Datasets" / "logs" / "tiny.csv", strategy=["mfu", "mru"],
                               out=tmp_path / "r")
    assert "replay: 2/2 runs done in" in result.run.stderr
    assert any("replay: 2/2 runs done in" in text for _, text in clock.writes)
    quiet = smartstack.replay(log=REPO / "Datasets" / "logs" / "tiny.csv", strategy="mfu", out=tmp_path / "q",
                              quiet=True)
    assert "replay:" not in quiet.run.stderr
