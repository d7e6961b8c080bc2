"""Executes one notebook with parameters and saves it executed, as .ipynb and as HTML.

    python execute.py NOTEBOOK.ipynb OUT_DIR [NAME=VALUE ...]

Papermill-style: the notebook's cell tagged `parameters` holds the defaults; a cell tagged
`injected-parameters` with `NAME = VALUE` (VALUE as a Python literal: strings quoted by this
script when they are not literals) is inserted after it. The kernel runs in the current
folder. OUT_DIR/NAME.ipynb keeps every output; OUT_DIR/NAME.html is the same, for a browser.
A failing cell still saves both (with the error in them) and exits 1.
"""

import ast
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter


def literal(text: str) -> str:
    try:
        ast.literal_eval(text)
        return text
    except (ValueError, SyntaxError):
        return repr(text)


def main(notebook: str, out_dir: str, *assignments: str) -> int:
    nb = nbformat.read(notebook, as_version=4)
    lines = ["# Injected by Notebooks/execute.py"]
    for assignment in assignments:
        name, _, value = assignment.partition("=")
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
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
