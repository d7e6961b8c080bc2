"""The package against the real binary ($SMARTSTACK_BIN, the packaged one, or PATH)."""

from pathlib import Path

import pandas as pd
import pytest

import smartstack

REPO = Path(__file__).resolve().parents[2]
TINY_LOG = REPO / "Datasets" / "logs" / "tiny.csv"
TINY_EXPERIMENT = REPO / "Datasets" / "experiments" / "tiny.json"


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay")
    run = smartstack.replay(log=TINY_LOG, strategy=["mfu", "hour-of-week", "oracle"], horizon=1800, out=out)
    return run, smartstack.load(out)


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("batch")
    smartstack.batch(TINY_EXPERIMENT, out=out, replicates=1, trace=True, quiet=True)
    return smartstack.load(out)


def test_replay_writes_a_folder_that_loads(replayed):
    run, report = replayed
    assert run.out is not None and (run.out / "runs.csv").is_file()
    assert {"runs", "daily"} <= set(report)
    assert list(report) == sorted(report)
    runs = report["runs"]
    assert list(runs["strategy"].astype(str)) == ["mfu", "hour-of-week", "oracle"]
    assert (runs["visits"] > 0).all()


def test_replay_columns_are_typed(replayed):
    runs, daily = replayed[1]["runs"], replayed[1]["daily"]
    assert runs["visits"].dtype == "int64"
    assert runs["hits"].dtype == "int64"
    assert runs["hit_rate"].dtype == "float64"
    assert isinstance(runs["strategy"].dtype, pd.CategoricalDtype) or runs["strategy"].nunique() == len(runs)
    assert daily["day"].dtype == "int64"
    assert pd.api.types.is_datetime64_any_dtype(daily["date"])
    assert isinstance(daily["strategy"].dtype, pd.CategoricalDtype)
    # Categories keep file order, not alphabetical order.
    assert list(daily["strategy"].cat.categories) == ["mfu", "hour-of-week", "oracle"]


def test_daily_local_days_load_typed(tmp_path):
    # A zone with an offset: each local date with its offsets (int, seconds east of UTC)
    # and its span as UTC datetimes, consistent with each other.
    smartstack.replay(log=TINY_LOG, strategy=["mfu"], timezone="Europe/Berlin", out=tmp_path)
    daily = smartstack.load(tmp_path)["daily"]
    assert daily["utc_offset"].dtype == "int64" and daily["utc_offset_end"].dtype == "int64"
    assert set(daily["utc_offset"]) <= {3600, 7200}
    for column in ("start_utc", "end_utc"):
        assert isinstance(daily[column].dtype, pd.DatetimeTZDtype)
        assert str(daily[column].dt.tz) == "UTC"
    start = daily["start_utc"].dt.tz_localize(None) + pd.to_timedelta(daily["utc_offset"], unit="s")
    end = daily["end_utc"].dt.tz_localize(None) + pd.to_timedelta(daily["utc_offset_end"], unit="s")
    assert (start == daily["date"]).all()
    assert (end == daily["date"] + pd.Timedelta(days=1)).all()


def test_batch_sweep_loads_every_file(swept):
    assert {"runs", "daily", "summary", "paired", "trace"} <= set(swept)
    assert swept.manifest["run"] == "batch"
    trace = swept["trace"]
    assert isinstance(trace["time"].dtype, pd.DatetimeTZDtype)
    assert str(trace["time"].dt.tz) == "UTC"
    assert trace["has_target"].dtype == "int64"
    summary = swept["summary"]
    assert summary["mean"].dtype == "float64"
    assert summary["n"].dtype == "int64"
    assert isinstance(summary["metric"].dtype, pd.CategoricalDtype)
    # An empty field is missing, and the integer column stays integer.
    assert swept["runs"]["regret"].dtype == "float64"


def test_point_labels_tell_sweep_points_apart(swept):
    labels = smartstack.point_labels(swept["summary"])
    assert list(labels.cat.categories) == [
        "mfu", "mru", "random", "hour-of-week", "hour-of-week:half-life-days=2", "oracle"]
    # The same labels, in the same order, on every table of the folder (issue 29 item 12).
    for stem in ("runs", "daily", "summary"):
        assert list(smartstack.point_labels(swept[stem]).cat.categories) == list(labels.cat.categories)
    pivot = swept["summary"].pivot_table(index="label", columns="metric", values="mean", observed=True)
    assert len(pivot) == 6


def test_a_failing_command_raises_with_the_tools_message(tmp_path):
    missing = tmp_path / "nope.csv"
    with pytest.raises(smartstack.SmartStackError) as caught:
        smartstack.replay(log=missing, out=tmp_path / "out")
    assert caught.value.returncode == 66
    assert "nope.csv" in caught.value.stderr
    assert "nope.csv" in str(caught.value)


def test_options_from_keywords():
    assert smartstack.options(log="a.csv", strategy=["mfu", "oracle"], from_="T", trace=True,
                              quiet=False, seed=None, half_life=3) == [
        "--log", "a.csv", "--strategy", "mfu,oracle", "--from", "T", "--trace", "--half-life", "3"]


def test_an_explicit_binary_that_is_not_there_is_named(tmp_path):
    with pytest.raises(smartstack.BinaryNotFound, match="nowhere"):
        smartstack.find_binary(tmp_path / "nowhere")


def test_load_refuses_a_folder_without_reports(tmp_path):
    with pytest.raises(FileNotFoundError, match="no report files"):
        smartstack.load(tmp_path)


def test_styles_give_distinct_markers_past_ten():
    labels = [f"s{i}" for i in range(13)]
    markers = [style["marker"] for style in smartstack.styles(labels).values()]
    assert len(set(markers)) == 13


def test_a_sources_config_and_inputs_come_from_the_manifest(swept):
    config = swept.source_config("tiny-world")
    assert config["kind"] == "scenario"
    assert swept.input_path(config["scenario"]) == (REPO / "Datasets" / "scenarios" / "tiny.json").resolve()
    assert swept.source_config("nowhere") is None


def test_simulate_with_explanations_loads(tmp_path):
    scenario = REPO / "Datasets" / "scenarios" / "tiny.json"
    run = smartstack.simulate(scenario=scenario, strategy="mfu,oracle", explain=True, out=tmp_path / "sim")
    report = smartstack.load(run.out)
    assert {"runs", "daily", "explain"} <= set(report)
    explain = report["explain"]
    assert isinstance(explain["time"].dtype, pd.DatetimeTZDtype)
    assert explain["hit"].dtype == "int64"
    assert list(smartstack.point_labels(report["runs"])) == ["mfu", "oracle"]
    # local_time: the scenario's zone (Europe/Berlin) with its offset, wall time kept.
    local = explain["local_time"]
    first = local.iloc[0]
    assert first.utcoffset() is not None and first.utcoffset().total_seconds() in (3600, 7200)
    assert first.tz_convert("UTC") == explain["time"].iloc[0]
    assert report.manifest["run"] == "simulate"


REPORT_CSVS = ("runs.csv", "daily.csv", "summary.csv", "paired.csv")


def _batch(binary, folder, seed, crash=None, extra=()):
    import os
    import subprocess
    env = dict(os.environ, SMARTSTACK_NO_FSYNC="1")
    if crash:
        env["SMARTSTACK_CRASH_AT"] = crash
    return subprocess.run([str(binary), "batch", str(TINY_EXPERIMENT), "--out", str(folder), "--seed", str(seed),
                           "--replicates", "1", "--quiet", *extra], env=env, capture_output=True).returncode


def _frames(report):
    return {name: report[name[:-4]] for name in REPORT_CSVS}


@pytest.mark.parametrize("point", ["report:3", "commit:1", "move:1", "move:2", "move:3", "move:4", "move:5"])
def test_load_reads_a_whole_set_when_a_publish_was_killed(tmp_path, point):
    """A batch killed while its new set is staged, committed or moved in (between two
    renames, the folder itself then holding new files beside old ones): load() gives the
    previous set (before the commit) or the new one (after), never the mix; the next
    `smartstack report` finishes the move, leaving the new set's bytes on disk."""
    import shutil
    binary = smartstack.find_binary()
    previous, new, out = tmp_path / "previous", tmp_path / "new", tmp_path / "out"
    assert _batch(binary, previous, 1) == 0 and _batch(binary, new, 2) == 0
    shutil.copytree(previous, out)
    assert _batch(binary, out, 2, crash=point, extra=["--overwrite"]) == -9
    on_disk = [(out / n).read_bytes() for n in REPORT_CSVS]
    if point in ("move:1", "move:2", "move:3"):
        # The folder's own files are a mix: the loader must not read them as they are.
        assert on_disk != [(new / n).read_bytes() for n in REPORT_CSVS]
        assert on_disk != [(previous / n).read_bytes() for n in REPORT_CSVS]
    loaded = _frames(smartstack.load(out))
    expected = previous if point.startswith("report:") else new
    for name, frame in _frames(smartstack.load(expected)).items():
        pd.testing.assert_frame_equal(loaded[name], frame)
    smartstack.run("report", out)
    assert [(out / n).read_bytes() for n in REPORT_CSVS] == [(expected / n).read_bytes() for n in REPORT_CSVS]
    assert not (out / ".reports-committed").exists() and not (out / ".reports-staging").exists()


def test_load_refuses_a_folder_of_two_runs(tmp_path):
    binary = smartstack.find_binary()
    a, b = tmp_path / "a", tmp_path / "b"
    assert _batch(binary, a, 1) == 0 and _batch(binary, b, 2) == 0
    (a / "daily.csv").write_bytes((b / "daily.csv").read_bytes())
    with pytest.raises(smartstack.MixedReportError, match="daily.csv does not match manifest.json"):
        smartstack.load(a)


def test_a_tuned_batch_loads_its_tuning_csv(tmp_path):
    """docs/batch.md "Tuning": tuning.csv loads typed, one chosen trial per tuned point,
    and the chosen parameters are those of the test-window rows."""
    config = REPO / "Datasets" / "experiments" / "tuning-commuter.json"
    result = smartstack.batch(config, out=tmp_path / "out", quiet=True)
    tuning = result.tuning
    assert list(tuning.columns) == ["strategy", "point", "search", "trial", "rung", "people", "parameters", "metric", "mean", "n", "chosen"]
    chosen = tuning[tuning["chosen"] == 1]
    assert list(chosen["strategy"].astype(str)) == ["hour-of-week", "hour-of-week", "smart-rotate", "smart-rotate"]
    runs = result.runs
    test = runs[runs["split"].astype(str) == "test"]
    assert set(chosen["parameters"].astype(str)) <= set(test["parameters"].astype(str))


def test_people_csv_loads_one_row_per_person_and_matches_summary(tmp_path):
    """docs/batch.md "people.csv": one typed row per run and person; the per-person hit
    rates averaged over people and replicates give summary.csv's per-unit mean."""
    result = smartstack.batch(TINY_EXPERIMENT, out=tmp_path / "out", replicates=2, people=True, quiet=True)
    people, runs, summary = result.people, result.runs, result.summary
    assert people is not None
    assert list(people.columns[:7]) == ["run_id", "source", "strategy", "parameters", "replicate", "person", "visits"]
    assert people["visits"].dtype == "int64" and people["hit_rate"].dtype == "float64"
    # Each run's people add up to its pooled counts.
    totals = people.groupby("run_id", observed=True)[["visits", "hits"]].sum()
    pooled = runs.set_index("run_id")[["visits", "hits"]]
    assert (totals.loc[pooled.index] == pooled).all().all()
    # The first summary row is the log source's (units: people, each at its mean over
    # the replicates where it is defined).
    row = summary[(summary["metric"].astype(str) == "hit_rate")].iloc[0]
    # run_id is source|descriptor|replicate; the first row's point (mfu) has no parameters.
    mine = people[people["run_id"].astype(str).str.startswith(f"{row['source']}|{row['label']}|")]
    assert len(mine) > 0
    units = mine.groupby("person", observed=True)["hit_rate"].mean().dropna()
    assert abs(units.mean() - row["mean"]) < 1e-12
    assert len(units) == row["n"]


def test_people_csv_is_absent_unless_asked_for(swept):
    assert "people" not in swept


def test_a_fit_report_loads_typed(tmp_path):
    """docs/fit.md "The report": fit-report.csv and fit-distributions.csv load, the
    distances and tolerances as numbers and one row per statistic."""
    import subprocess
    binary = smartstack.find_binary()
    out = tmp_path / "fit"
    subprocess.run([str(binary), "fit", str(TINY_LOG), "--report", str(out), "--strategy", "mfu,mru", "--quiet"],
                   check=True)
    report = smartstack.load(out)
    rows = report["fit-report"]
    assert list(rows.columns) == ["statistic", "distance", "log_count", "log_summary", "sim_count", "sim_summary",
                                  "value", "tolerance", "within"]
    judged = rows[rows["distance"].astype(str).isin(["KS", "TV"])]
    assert len(judged) == 6 and judged["value"].dtype == "float64" and (judged["tolerance"] >= 0.05).all()
    distributions = report["fit-distributions"]
    assert set(distributions["statistic"].astype(str)) == {
        "visits_per_day", "donations_by_hour_of_week", "app_shares", "inter_arrival_seconds", "session_seconds",
        "same_app_as_previous"}
