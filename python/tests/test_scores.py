"""Outside scores from a DataFrame: `write_scores` and `replay(scores=...)` (issue 32 item 3)."""

from pathlib import Path

import pandas as pd
import pytest

import smartstack

REPO = Path(__file__).resolve().parents[2]
TINY_LOG = REPO / "Datasets" / "logs" / "tiny.csv"


def scores_frame() -> pd.DataFrame:
    # Out of time order on purpose: write_scores sorts (stably) by time.
    return pd.DataFrame({
        "user": ["ana", "ana", "ben", "ana"],
        "timestamp": pd.to_datetime(["2026-03-03T12:00:00Z", "2026-03-02T00:00:00Z",
                                     "2026-03-02T00:00:00Z", "2026-03-02T00:00:00Z"], utc=True),
        "kind": ["Weather", "Music", "News", "Weather"],
        "score": [0.95, 0.9, 0.5, 0.2],
        "model": ["m1"] * 4,
    })


def test_write_scores_writes_the_format_in_time_order(tmp_path):
    path = smartstack.write_scores(scores_frame(), tmp_path / "s.csv")
    assert path.read_text().splitlines() == [
        "user,timestamp,kind,score",
        "ana,2026-03-02T00:00:00.000Z,Music,0.9",
        "ben,2026-03-02T00:00:00.000Z,News,0.5",
        "ana,2026-03-02T00:00:00.000Z,Weather,0.2",
        "ana,2026-03-03T12:00:00.000Z,Weather,0.95",
    ]


def test_write_scores_needs_one_target_column(tmp_path):
    with pytest.raises(ValueError, match="exactly one of the columns 'instance' and 'kind'"):
        smartstack.write_scores(scores_frame().drop(columns="kind"), tmp_path / "s.csv")
    with pytest.raises(ValueError, match="'score'"):
        smartstack.write_scores(scores_frame().drop(columns="score"), tmp_path / "s.csv")


def test_a_written_score_file_replays_with_the_scores_strategy(tmp_path):
    path = smartstack.write_scores(scores_frame(), tmp_path / "s.csv")
    run = smartstack.replay(log=TINY_LOG, scores=path, strategy="scores", out=tmp_path / "out", quiet=True)
    assert list(run.runs["strategy"]) == ["scores"]
    # A DataFrame goes straight in too (written to a temporary CSV for the run).
    run2 = smartstack.replay(log=TINY_LOG, scores=scores_frame().sort_values("timestamp", kind="stable"),
                             strategy="scores", out=tmp_path / "out2", quiet=True)
    assert run2.runs["hit_rate"].tolist() == run.runs["hit_rate"].tolist()
