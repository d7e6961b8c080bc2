"""The data behind the notebooks' figures (issue 29 items 9 and 10)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import smartstack

REPO = Path(__file__).resolve().parents[2]
TINY_LOG = REPO / "Datasets" / "logs" / "tiny.csv"
TINY_EXPERIMENT = REPO / "Datasets" / "experiments" / "tiny.json"
FIELD_STUDY = REPO / "Datasets" / "exposures" / "field-study.csv"


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    out = tmp_path_factory.mktemp("batch")
    smartstack.batch(TINY_EXPERIMENT, out=out, replicates=2, quiet=True)
    return smartstack.load(out)


def test_the_tradeoff_uses_the_unit_of_the_intervals_per_source(batch):
    data = smartstack.tradeoff_data(batch, "hit_rate")
    summary = batch["summary"].assign(point=smartstack.point_labels(batch["summary"], among=batch["runs"]))
    sources = list(dict.fromkeys(batch["runs"]["source"].astype(str)))
    assert list(dict.fromkeys(data["source"])) == sources
    for _, row in data.iterrows():
        s = summary[(summary["source"].astype(str) == row["source"]) & (summary["point"].astype(str) == row["point"])]
        hit = s[s["metric"].astype(str) == "hit_rate"].iloc[0]
        rot = s[s["metric"].astype(str) == "rotations_per_day"].iloc[0]
        assert row["metric"] == hit["mean"] and row["n"] == hit["n"]
        assert (row["metric_low"], row["metric_high"]) == (hit["ci_low"], hit["ci_high"])
        assert row["rotations_per_day"] == rot["mean"] and row["rotations_low"] == rot["ci_low"]
    assert set(data["unit"]) == {"mean over units, 95% CI"}


def test_the_tradeoff_of_a_replay_folder_says_it_is_pooled(tmp_path):
    smartstack.replay(log=TINY_LOG, strategy="mfu,oracle", out=tmp_path, quiet=True)
    data = smartstack.tradeoff_data(smartstack.load(tmp_path), "hit_rate")
    assert data["unit"].str.contains("pooled").all() and data["metric_low"].isna().all()
    assert (data["n"] >= 1).all()


def test_interval_rows_carry_n(batch):
    data = smartstack.interval_data(batch, "hit_rate")
    assert len(data) and (data["n"] > 0).all()
    assert (data["ci_low"] <= data["centre"]).all() and (data["centre"] <= data["ci_high"]).all()
    paired = smartstack.interval_data(batch, "hit_rate", paired=True)
    assert "p_value" in paired and paired["baseline"].nunique() == 1


def test_period_bars_have_intervals_over_days(batch):
    daily = batch["daily"]
    source = str(daily["source"].iloc[0])
    data = smartstack.period_data(daily, source, change_day=2)
    assert list(dict.fromkeys(data["period"])) == ["before", "first week after"]
    d = daily[daily["source"].astype(str) == source]
    for _, row in data.iterrows():
        days = d[smartstack.point_labels(d, among=daily).astype(str) == row["point"]]
        days = days[(days["day"] < 2) if row["period"] == "before" else (days["day"] >= 2)]
        assert row["n"] == days["day"].nunique()
        assert row["hit_rate"] == pytest.approx(days["hits"].sum() / days["target_visits"].sum())
        if row["n"] > 1:
            assert row["ci_low"] <= row["hit_rate"] <= row["ci_high"]
        else:
            assert np.isnan(row["ci_low"])


def test_the_estimates_of_an_evaluate_folder(tmp_path):
    smartstack.evaluate(exposures=FIELD_STUDY, strategy="mfu,static", out=tmp_path / "one", quiet=True)
    rows = smartstack.estimates_frame(tmp_path / "one")
    assert set(rows["folder"]) == {"."}
    assert {"estimate", "ci_low", "ci_high", "people", "visits", "note"} <= set(rows.columns)
    assert rows["note"].dtype == "string"
    # A folder of evaluate folders: one frame, the subfolder named in `folder`.
    smartstack.evaluate(exposures=FIELD_STUDY, strategy="mru", out=tmp_path / "two", quiet=True)
    both = smartstack.estimates_frame(tmp_path)
    assert set(both["folder"]) == {"one", "two"}
    with pytest.raises(FileNotFoundError, match="estimates.csv"):
        smartstack.estimates_frame(tmp_path / "one" / "nowhere")
