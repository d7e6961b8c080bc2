"""Notebooks/execute.py, which Notebooks/run.sh calls (issue 29 items 7 and 8): unknown
notebook parameters are refused with a did-you-mean; a traced folder without timelines is
told apart by reading its manifest as JSON; run.sh runs every notebook (issue 33 item 7 added
context-day)."""

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "Notebooks"


@pytest.fixture(scope="module")
def execute():
    spec = importlib.util.spec_from_file_location("execute", NOTEBOOKS / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_notebook_declares_its_parameters(execute):
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        names = execute.parameters(notebook)
        assert names[:2] == ["REPORTS", "OUT"], notebook.name


def test_a_misspelt_parameter_is_refused_with_a_suggestion(execute, capsys):
    notebooks = [str(NOTEBOOKS / "compare-strategies.ipynb"), str(NOTEBOOKS / "learning-curves.ipynb")]
    assert execute.check(notebooks, ["METRC=mrr"]) == 2
    assert "METRC: no such notebook parameter; did you mean METRIC?" in capsys.readouterr().err
    assert execute.check(notebooks, ["metric=mrr"]) == 2
    assert "did you mean METRIC?" in capsys.readouterr().err
    assert execute.check(notebooks, ["METRIC"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err
    # A name one notebook of the run takes is accepted (SOURCE: learning-curves).
    assert execute.check(notebooks, ["METRIC=mrr", "SOURCE=commuter-log"]) == 0


def test_the_relevance_explorer_needs_a_source_with_timelines(execute, tmp_path):
    def folder(name, sources, trace=True):
        path = tmp_path / name
        path.mkdir()
        if trace:
            (path / "trace.csv").write_text("run_id,person,time\nx,a,2026-03-02T08:00:00Z\n")
        (path / "manifest.json").write_text(json.dumps({"config": {"sources": sources}}, indent=2))
        return path

    # `"timelines": null` once matched run.sh's grep '"timelines"'.
    assert not execute.has_timelines(folder("null", [{"name": "log", "timelines": None}]))
    assert not execute.has_timelines(folder("none", [{"name": "log"}]))
    assert execute.has_timelines(folder("some", [{"name": "log", "timelines": "t.json"}]))
    assert not execute.has_timelines(folder("untraced", [{"name": "log", "timelines": "t.json"}], trace=False))
    broken = folder("broken", [])
    (broken / "manifest.json").write_text("{")
    assert not execute.has_timelines(broken)


def test_run_sh_runs_every_notebook():
    # A notebook added to Notebooks/ but not to run.sh would never run headless.
    run_sh = (NOTEBOOKS / "run.sh").read_text(encoding="utf-8")
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        assert f"run_notebook {notebook.stem} " in run_sh, notebook.name


def test_the_context_day_takes_a_person_and_a_day(execute):
    notebook = NOTEBOOKS / "context-day.ipynb"
    assert execute.parameters(notebook) == ["REPORTS", "OUT", "PERSON", "DAY"]
    assert execute.check([str(notebook)], ["PERSN=commuter-2"]) == 2
