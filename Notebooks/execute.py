"""Executes one notebook with parameters and saves it executed, as .ipynb and as HTML.

    python execute.py NOTEBOOK.ipynb OUT_DIR [NAME=VALUE ...]
    python execute.py --check NOTEBOOK.ipynb... -- [NAME=VALUE ...]
    python execute.py --has-timelines FOLDER     # exit 0: the relevance explorer can run on it

Papermill-style: the notebook's cell tagged `parameters` holds the defaults; a cell tagged
`injected-parameters` with `NAME = VALUE` (VALUE as a Python literal: strings quoted by this
script when they are not literals) is inserted after it. The kernel runs in the current
folder. OUT_DIR/NAME.ipynb keeps every output; OUT_DIR/NAME.html is the same, for a browser.
A failing cell still saves both (with the error in them) and exits 1.

The names a notebook takes are the ones its `parameters` cell assigns. A NAME that none of
the notebooks of a run takes is refused (exit 2) with a did-you-mean before anything runs
(`--check`, which Notebooks/run.sh calls with every notebook it will run); a NAME that
another notebook of the run takes but this one does not is left out of this one, with a note.
"""

import ast
import difflib
import json
import sys
from pathlib import Path


def literal(text: str) -> str:
    try:
        ast.literal_eval(text)
        return text
    except (ValueError, SyntaxError):
        return repr(text)


def parameters(nb) -> list[str]:
    """The names the notebook's cell tagged `parameters` assigns, in order (`nb`: the
    notebook's JSON, or a path to it)."""
    if not isinstance(nb, dict):
        nb = json.loads(Path(nb).read_text(encoding="utf-8"))
    names: list[str] = []
    for cell in nb.get("cells", []):
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            source = cell.get("source", "")
            for node in ast.parse(source if isinstance(source, str) else "".join(source)).body:
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AnnAssign) else []
                names += [t.id for t in targets if isinstance(t, ast.Name) and t.id not in names]
    return names


def refused(assignments, known: list[str], notebooks: list[str]) -> list[str]:
    """One message per assignment that is not NAME=VALUE with a NAME in `known`."""
    problems = []
    for assignment in assignments:
        name, equals, _ = assignment.partition("=")
        if not equals or not name.isidentifier():
            problems.append(f"{assignment!r}: a notebook parameter is set as NAME=VALUE (e.g. METRIC=mrr)")
        elif name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6) or \
                difflib.get_close_matches(name.upper(), known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else ""
            problems.append(f"{name}: no such notebook parameter{hint} "
                            f"(the parameters of {', '.join(notebooks)}: {', '.join(known)})")
    return problems


def has_timelines(folder) -> bool:
    """Whether `folder` has a trace.csv and its manifest.json (read as JSON) names a source
    with timelines; `"timelines": null` is none (the relevance explorer needs one)."""
    folder = Path(folder)
    if not (folder / "trace.csv").is_file() or (folder / "trace.csv").stat().st_size == 0:
        return False
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    config = manifest.get("config") if isinstance(manifest, dict) else None
    sources = (config or {}).get("sources") if isinstance(config, dict) else None
    return any(isinstance(s, dict) and bool(s.get("timelines")) for s in sources or [])


def check(notebooks: list[str], assignments) -> int:
    known: list[str] = []
    for notebook in notebooks:
        known += [n for n in parameters(notebook) if n not in known]
    problems = refused(assignments, known, [Path(n).stem for n in notebooks])
    for problem in problems:
        print(f"Notebooks/run.sh: {problem}", file=sys.stderr)
    return 2 if problems else 0


def main(notebook: str, out_dir: str, *assignments: str) -> int:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from nbconvert import HTMLExporter

    nb = nbformat.read(notebook, as_version=4)
    own = parameters(notebook)
    malformed = [a for a in assignments if not a.partition("=")[1] or not a.partition("=")[0].isidentifier()]
    if malformed:
        print("\n".join(refused(malformed, own, [Path(notebook).stem])), file=sys.stderr)
        return 2
    lines = ["# Injected by Notebooks/execute.py"]
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        if name not in own:
            print(f"{Path(notebook).stem} takes no parameter {name}: not set here")
            continue
        lines.append(f"{name} = {literal(value)}")
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    injected = nbformat.v4.new_code_cell("\n".join(lines), metadata={"tags": ["injected-parameters"]})
    nb.cells.insert(tagged[0] + 1 if tagged else 0, injected)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
    except CellExecutionError as error:
        print(error, file=sys.stderr)
        status = 1
    stem = Path(notebook).stem
    nbformat.write(nb, out / f"{stem}.ipynb")
    html, _ = HTMLExporter().from_notebook_node(nb)
    (out / f"{stem}.html").write_text(html, encoding="utf-8")
    return status


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--has-timelines":
        sys.exit(0 if has_timelines(sys.argv[2]) else 1)
    if len(sys.argv) >= 2 and sys.argv[1] == "--check":
        rest = sys.argv[2:]
        split = rest.index("--") if "--" in rest else len(rest)
        sys.exit(check(rest[:split], rest[split + 1:]))
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
