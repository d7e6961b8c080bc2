"""An exposure log as Open Bandit Pipeline's `bandit_feedback` dictionary.

    import smartstack.obp
    feedback = smartstack.obp.to_bandit_feedback("Datasets/exposures/field-study.csv")
    pi = smartstack.obp.action_dist(feedback, choices)   # a target's choice per visit
    # then, with obp installed (it needs Python < 3.11):
    # from obp.ope import OffPolicyEvaluation, InverseProbabilityWeighting
    # OffPolicyEvaluation(bandit_feedback=feedback, ope_estimators=[InverseProbabilityWeighting()])
    #     .estimate_policy_values(action_dist=pi)

The exposure log is the CSV of docs/counterfactual.md ("Exposure log format"), or a
DataFrame of it. No import of obp here: the dictionary holds numpy arrays only, so it is
built and checked where obp does not install. docs/coming-from-obp-and-coba.md maps the
concepts and says what OBP's fixed action set and i.i.d. rounds leave out.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence

import numpy as np
import pandas as pd

from ._load import read_csv

REQUIRED = ("logging_strategy", "person", "time", "candidates", "shown", "propensity", "reward", "hit")


def _candidates(text) -> list[tuple[str, Optional[float]]]:
    """`a;b;c` or `a=0.2;b=0.8` as [(id, probability or None)]."""
    out = []
    for part in str(text).split(";"):
        if not part:
            continue
        name, equals, probability = part.partition("=")
        out.append((name, float(probability) if equals else None))
    return out


def read_exposures(exposures: os.PathLike | str | pd.DataFrame) -> pd.DataFrame:
    """The exposure log as a DataFrame (a path is read with `smartstack.read_csv`), its
    required columns checked."""
    frame = exposures if isinstance(exposures, pd.DataFrame) else read_csv(exposures)
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise ValueError(f"not an exposure log: no column {', '.join(missing)} (docs/counterfactual.md, "
                         "\"Exposure log format\")")
    return frame


def to_bandit_feedback(exposures: os.PathLike | str | pd.DataFrame, reward: str = "reward",
                       timezone: str = "UTC") -> dict:
    """OBP's `bandit_feedback` for an exposure log: one round per logged visit, in the log's
    order; actions are the instance ids (every id among the candidates and the shown ones, in
    order of first appearance: `action_names`); one slot, so `position` is all 0 and `len_list`
    is 1.

    Keys OBP reads: `n_rounds`, `n_actions`, `action` (the shown instance's index), `position`,
    `reward` (the log's `reward` column, a tap; `reward="hit"` for the hit), `pscore` (the
    logged propensity of the shown instance), `context` (one-hot local hour of week, 168
    columns, Monday 00h = 0, in `timezone`: the features of the toolkit's own reward model)
    and `action_context` (the identity: one-hot action ids). Keys OBP's synthetic data also
    has: `pi_b` (n_rounds, n_actions, 1), the logging distribution where the log states
    per-candidate probabilities, else 1 on the shown instance's propensity and the rest
    spread evenly over the other candidates (only `pscore` is then exact; `pi_b_exact` says
    which). Extra keys, which OBP ignores: `action_names`, `candidates` (a boolean mask, n_rounds
    x n_actions: what the stack could show at each visit; OBP assumes every action always can),
    `person`, `time`, `hour_of_week`, `logging_strategy`."""
    frame = read_exposures(exposures)
    if reward not in ("reward", "hit"):
        raise ValueError(f"reward={reward!r}: 'reward' (a tap) or 'hit'")
    candidates = [_candidates(c) for c in frame["candidates"].astype(str)]
    shown = frame["shown"].astype(str).tolist()
    names: list[str] = []
    for row, s in zip(candidates, shown):
        for name, _ in row:
            if name not in names:
                names.append(name)
        if s not in names:
            names.append(s)
    index = {n: i for i, n in enumerate(names)}
    n, k = len(frame), len(names)
    mask = np.zeros((n, k), dtype=bool)
    pi_b = np.zeros((n, k, 1))
    exact = True
    pscore = frame["propensity"].to_numpy(dtype=float)
    for r, (row, s) in enumerate(zip(candidates, shown)):
        ids = [index[name] for name, _ in row]
        mask[r, ids] = True
        if row and all(p is not None for _, p in row):
            for name, p in row:
                pi_b[r, index[name], 0] = p
        else:
            exact = False
            others = [i for i in ids if i != index[s]]
            pi_b[r, index[s], 0] = pscore[r]
            for i in others:
                pi_b[r, i, 0] = (1 - pscore[r]) / len(others)
    times = pd.to_datetime(frame["time"], utc=True, format="ISO8601").dt.tz_convert(timezone)
    hour_of_week = (times.dt.day_of_week * 24 + times.dt.hour).to_numpy(dtype=int)
    context = np.zeros((n, 168))
    context[np.arange(n), hour_of_week] = 1.0
    return {
        "n_rounds": n,
        "n_actions": k,
        "len_list": 1,
        "action": np.array([index[s] for s in shown], dtype=int),
        "position": np.zeros(n, dtype=int),
        "reward": frame[reward].to_numpy(dtype=float),
        "pscore": pscore,
        "context": context,
        "action_context": np.eye(k),
        "pi_b": pi_b,
        "pi_b_exact": exact,
        "action_names": names,
        "candidates": mask,
        "person": frame["person"].astype(str).to_numpy(),
        "time": times.dt.tz_convert("UTC").to_numpy(),
        "hour_of_week": hour_of_week,
        "logging_strategy": str(frame["logging_strategy"].iloc[0]) if n else "",
    }


def action_dist(feedback: dict, choices: Sequence) -> np.ndarray:
    """A deterministic target's `action_dist` (n_rounds, n_actions, 1) for OBP's estimators:
    1 on the instance it chooses at each round (`choices`, instance ids or action indices)."""
    n, k = feedback["n_rounds"], feedback["n_actions"]
    if len(choices) != n:
        raise ValueError(f"{len(choices)} choices for {n} rounds")
    index = {name: i for i, name in enumerate(feedback["action_names"])}
    dist = np.zeros((n, k, 1))
    for r, choice in enumerate(choices):
        i = choice if isinstance(choice, (int, np.integer)) else index.get(str(choice))
        if i is None:
            raise ValueError(f"round {r}: {choice!r} is not an action ({', '.join(index)})")
        dist[r, i, 0] = 1.0
    return dist


def ipw(feedback: dict, dist: np.ndarray) -> float:
    """OBP's `InverseProbabilityWeighting` estimate, as its `_estimate_round_rewards` computes
    it: mean of reward x dist[round, action, position] / pscore (for checks where obp does
    not install)."""
    w = dist[np.arange(feedback["n_rounds"]), feedback["action"], feedback["position"]] / feedback["pscore"]
    return float(np.mean(feedback["reward"] * w))


def snipw(feedback: dict, dist: np.ndarray) -> float:
    """OBP's `SelfNormalizedInverseProbabilityWeighting`: sum of reward x w over sum of w."""
    w = dist[np.arange(feedback["n_rounds"]), feedback["action"], feedback["position"]] / feedback["pscore"]
    return float(np.sum(feedback["reward"] * w) / np.sum(w)) if np.sum(w) > 0 else float("nan")
