"""The exporter of an exposure log to Open Bandit Pipeline's bandit_feedback (issue 29 item
17). obp itself does not install on Python 3.11 (docs/coming-from-obp-and-coba.md), so the
export is checked against OBP's IPW and SNIPW as OBP computes them, and against
`smartstack evaluate` on the same log."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import smartstack
import smartstack.obp as sobp

REPO = Path(__file__).resolve().parents[2]
FIELD_STUDY = REPO / "Datasets" / "exposures" / "field-study.csv"


@pytest.fixture(scope="module")
def feedback():
    return sobp.to_bandit_feedback(FIELD_STUDY)


def test_the_keys_obp_reads_have_its_shapes(feedback):
    log = pd.read_csv(FIELD_STUDY)
    n, k = feedback["n_rounds"], feedback["n_actions"]
    assert n == len(log) and k == len(feedback["action_names"])
    assert feedback["action"].shape == (n,) and feedback["action"].dtype.kind == "i"
    assert (feedback["position"] == 0).all() and feedback["len_list"] == 1
    assert np.allclose(feedback["pscore"], log["propensity"])
    assert np.array_equal(feedback["reward"], log["reward"].to_numpy(float))
    assert feedback["context"].shape == (n, 168) and (feedback["context"].sum(axis=1) == 1).all()
    assert feedback["action_context"].shape == (k, k)
    assert [feedback["action_names"][a] for a in feedback["action"]] == list(log["shown"])
    # pi_b: the shown instance's probability is its propensity, each row sums to 1 over the candidates.
    rows = np.arange(n)
    assert np.allclose(feedback["pi_b"][rows, feedback["action"], 0], feedback["pscore"])
    assert np.allclose(feedback["pi_b"].sum(axis=(1, 2)), 1)
    assert not (feedback["pi_b"][..., 0][~feedback["candidates"]]).any()
    assert sobp.to_bandit_feedback(FIELD_STUDY, reward="hit")["reward"].tolist() == log["hit"].tolist()


def test_stated_candidate_probabilities_become_pi_b():
    frame = pd.DataFrame({
        "logging_strategy": ["eps"] * 2, "person": ["a", "a"],
        "time": ["2026-03-02T08:00:00Z", "2026-03-02T09:00:00Z"],
        "candidates": ["w=0.8;c=0.2", "w=0.5;c=0.25;m=0.25"], "shown": ["c", "m"],
        "propensity": [0.2, 0.25], "reward": [1, 0], "hit": [1, 0]})
    feedback = sobp.to_bandit_feedback(frame)
    assert feedback["pi_b_exact"] and feedback["action_names"] == ["w", "c", "m"]
    assert np.allclose(feedback["pi_b"][:, :, 0], [[0.8, 0.2, 0], [0.5, 0.25, 0.25]])
    # Monday 08:00 and 09:00 UTC: hours 8 and 9 of the week.
    assert feedback["hour_of_week"].tolist() == [8, 9]


def test_obp_estimators_on_the_export_agree_with_evaluate(tmp_path, feedback):
    """`static` shows each person's first candidate: OBP's IPW and SNIPW on the exported
    feedback with that action_dist equal evaluate's IPS and SNIPS, for taps and hits."""
    log = smartstack.read_csv(FIELD_STUDY)
    first = {}
    choices = [first.setdefault(p, str(c).split(";")[0].split("=")[0])
               for p, c in zip(log["person"].astype(str), log["candidates"])]
    dist = sobp.action_dist(feedback, choices)
    assert dist.shape == (feedback["n_rounds"], feedback["n_actions"], 1)
    result = smartstack.evaluate(exposures=FIELD_STUDY, strategy="static", out=tmp_path / "e", quiet=True)
    estimates = result.estimates.assign(**{c: lambda f, c=c: f[c].astype(str)
                                           for c in ("strategy", "estimator", "metric")})

    def toolkit(estimator, metric):
        row = estimates[(estimates["strategy"] == "static") & (estimates["estimator"] == estimator)
                        & (estimates["metric"] == metric)]
        assert len(row) == 1, (estimator, metric, sorted(set(estimates["estimator"])), sorted(set(estimates["metric"])))
        return float(row["estimate"].iloc[0])

    hits = sobp.to_bandit_feedback(FIELD_STUDY, reward="hit")
    assert sobp.ipw(feedback, dist) == pytest.approx(toolkit("ips", "tap_rate"), abs=1e-6)
    assert sobp.snipw(feedback, dist) == pytest.approx(toolkit("snips", "tap_rate"), abs=1e-6)
    assert sobp.ipw(hits, dist) == pytest.approx(toolkit("ips", "hit_rate"), abs=1e-6)
    assert sobp.snipw(hits, dist) == pytest.approx(toolkit("snips", "hit_rate"), abs=1e-6)


def test_a_log_without_the_required_columns_is_refused():
    with pytest.raises(ValueError, match="propensity"):
        sobp.to_bandit_feedback(pd.DataFrame({"logging_strategy": [], "person": [], "time": [], "candidates": [],
                                              "shown": [], "reward": [], "hit": []}))
