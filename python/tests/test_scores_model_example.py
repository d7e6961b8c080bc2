"""The worked example of python/README.md runs as it stands: a logistic regression trained
in Python on the commuter log's first days, its scores written with `write_scores`, run
through `replay` (freely and under a rotation limit) and `batch` (Smart Rotate off)."""

import contextlib
import io
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "python" / "README.md"


def example_code() -> str:
    text = README.read_text()
    section = text[text.index("## A worked example"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readmes_model_example_runs_through_replay_and_batch_under_the_stacks_rules(tmp_path, monkeypatch):
    # CI installs the `model` extra (.ci/run: pip install "./python[model]"), so there it runs.
    pytest.importorskip("sklearn", reason="the worked example needs scikit-learn: pip install './python[model]'")
    code = example_code().replace('Path("reports/scores-model")', f'Path({str(tmp_path / "scores-model")!r})')
    monkeypatch.chdir(REPO)
    namespace: dict = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), namespace)
    free, limited, off = namespace["free"].runs, namespace["limited"].runs, namespace["off"].runs
    assert list(free["strategy"]) == ["scores", "mfu"]
    scores_row = free.set_index("strategy").loc["scores"]
    # The model ranks better than mfu on the later days.
    assert scores_row["hit_rate"] > free.set_index("strategy").loc["mfu", "hit_rate"]
    # The rotation limit binds the scores' ranking; Smart Rotate off keeps the first widget.
    assert limited.set_index("strategy").loc["scores", "rotations"] < scores_row["rotations"]
    assert list(off["rotations"]) == [0]
    # The README shows what the example prints.
    shown = re.search(r"It prints.*?```text\n(.*?)```", README.read_text(), re.S).group(1)
    assert printed.getvalue() == shown
