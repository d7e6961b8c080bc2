"""Writes python/src/smartstack/_commands.py: the typed functions batch(), replay(),
simulate(), evaluate() and validate(), one keyword parameter per option of the command,
from the tool's own description of its options (`smartstack COMMAND
--experimental-dump-help`, swift-argument-parser's JSON).

    python python/generate_api.py [BINARY]      # default: $SMARTSTACK_BIN, else .build/release/smartstack

Run it after changing a command's options: python/tests/test_api.py fails while the
functions and the binary's options differ (names, kinds, required or not), and says so;
so does `swift test` (Tests/smartstackTests/PythonPackageOptionsTests.swift, which
compares the OPTIONS table below with the binary's options by the same rules).
"""

from __future__ import annotations

import json
import keyword
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE / "src" / "smartstack" / "_commands.py"
COMMANDS = {   # command: (result class, what it is for)
    "batch": ("BatchResult", "Runs an experiment: every source x strategy point x replicate, with CIs and paired tests."),
    "replay": ("ReplayResult", "Replays a donation log through each strategy and scores it."),
    "simulate": ("SimulateResult", "Simulates a scenario's people over days and scores each strategy."),
    "evaluate": ("EvaluateResult", "Estimates target strategies off-policy from an exposure log, or validates the estimators."),
    "validate": ("ValidateResult", "Checks a log and describes it (people, kinds, span), writing nothing."),
}
SKIPPED = {"help", "version", "experimental-dump-help"}
FRAMES = {"log", "visits", "exposures", "scores"}
PATHS = {"out", "config", "scenario", "stack", "timelines", "scores", "context", "log", "visits", "exposures", "file", "validate"}
PATHS |= {"emit-log", "emit-exposures"}
LISTS = {"strategy", "logging", "baseline"}
# Numbers whose option gives no default to tell the type by.
NUMBERS = {"seed": "int", "replicates": "int", "jobs": "int", "days": "int", "normaliser-window-days": "int",
           "horizon": "float", "warmup-days": "float", "relevance-threshold": "float"}


def dump(binary: str, command: str) -> dict:
    text = subprocess.run([binary, command, "--experimental-dump-help"], capture_output=True, text=True,
                          check=True).stdout
    info = json.loads(text)["command"]
    if info.get("commandName") != command:   # a dump of the whole tool: find the command
        info = next(c for c in info.get("subcommands", []) if c["commandName"] == command)
    return info


def arguments(info: dict) -> list[dict]:
    """The command's arguments as (cli name, python name, kind, required, repeating, default, help)."""
    found = []
    for a in info.get("arguments", []) or []:
        if not a.get("shouldDisplay", True):
            continue
        if a["kind"] == "positional":
            cli = a.get("valueName") or "argument"
        else:
            longs = [n["name"] for n in a.get("names") or [] if n["kind"] in ("long", "longWithSingleDash")]
            if not longs:
                continue
            cli = longs[0]
        if cli in SKIPPED:
            continue
        python = cli.replace("-", "_")
        if keyword.iskeyword(python):
            python += "_"
        found.append({"cli": cli, "python": python, "kind": a["kind"], "required": not a.get("isOptional", True),
                      "repeating": a.get("isRepeating", False), "default": a.get("defaultValue"),
                      "help": " ".join((a.get("abstract") or "").split())})
    return found


def annotation(arg: dict) -> str:
    if arg["kind"] == "flag":
        return "bool"
    if arg["cli"] in FRAMES or (arg["kind"] == "positional" and arg["cli"] == "log"):
        return "str | os.PathLike | pd.DataFrame"
    if arg["cli"] in PATHS:
        return "str | os.PathLike"
    if arg["repeating"] or arg["cli"] in LISTS:
        return "str | Sequence[str]"
    if arg["cli"] in NUMBERS:
        return NUMBERS[arg["cli"]]
    default = arg["default"] or ""
    if re.fullmatch(r"-?[0-9]+", default):
        return "int"
    if re.fullmatch(r"-?[0-9]+\.[0-9]*(e-?[0-9]+)?", default):
        return "float"
    return "str"


def signature(arg: dict) -> str:
    kind = annotation(arg)
    if arg["kind"] == "flag":
        return f"{arg['python']}: bool = False"
    if arg["required"]:
        return f"{arg['python']}: {kind}"
    return f"{arg['python']}: {kind} | None = None"


def function(command: str, info: dict) -> str:
    result, purpose = COMMANDS[command]
    args = arguments(info)
    positional = [a for a in args if a["kind"] == "positional"]
    named = [a for a in args if a["kind"] != "positional"]
    params = [signature(a) for a in positional]
    params.append("*")
    params += [signature(a) for a in sorted(named, key=lambda a: not a["required"])]
    params += ["binary: str | os.PathLike | None = None", "cwd: str | os.PathLike | None = None",
               "progress: bool | None = None"]
    doc = [f"`smartstack {command}`: {purpose}", ""]
    abstract = " ".join((info.get("abstract") or "").split())
    if abstract:
        doc += textwrap.wrap(f"The tool: {abstract}", 88) + [""]
    doc.append("Parameters (the command's options; None or False: the tool's default):")
    for a in positional + named:
        flag = a["cli"] if a["kind"] == "positional" else f"--{a['cli']}"
        default = f" (default: {a['default']})" if a["default"] not in (None, "") and a["kind"] != "flag" else ""
        required = " Required." if a["required"] and a["kind"] != "positional" else ""
        line = f"{a['python']} ({flag}): {a['help']}{default}{required}"
        doc += textwrap.wrap(line, 88, initial_indent="    ", subsequent_indent="        ")
    doc += ["    binary: the smartstack executable (default: find_binary()).",
            "    cwd: the folder the tool runs in (relative paths are relative to it).",
            "    progress: show the tool's standard error (progress, warnings) as it comes;",
            "        default: unless quiet=True.", ""]
    if command == "validate":
        doc += ["Returns a ValidateResult (the --json report as `info`)."]
    else:
        doc += [f"Returns {'an' if result[0] in 'AEIOU' else 'a'} {result}: its DataFrames and `plot()`.",
                "DataFrames given as log=, visits= or exposures= are written to a temporary CSV file."]
    doc += ["Raises SmartStackError with the tool's message when it fails."]
    body_doc = "\n".join(("    " + line) if line else "" for line in doc)
    mapping = ", ".join(f"{a['python']!r}: {a['python']}" for a in named)
    pos = ", ".join(a["python"] for a in positional)
    lines = [f"def {command}({', '.join(params)}) -> _api.{result}:",
             f'    """{body_doc.lstrip()}\n    """',
             f"    given = {{{mapping}}}"]
    if command == "validate" and any(a["cli"] == "json" for a in named):
        lines.append("    given['json'] = True   # the report as JSON, for ValidateResult.info")
    lines.append(f"    run = _api.execute({command!r}, [{pos}], given, binary=binary, cwd=cwd, progress=progress)")
    if command == "validate":
        lines.append("    return _api.ValidateResult(run)")
    else:
        default_out = next((a["default"] for a in named if a["cli"] == "out"), None)
        lines.append(f"    return _api.{result}(run, _api.folder_of(run, cwd, {default_out!r}))")
    return "\n".join(lines)


def spec(binary: str) -> dict:
    """{command: [(cli name, kind, required)]}: what the test compares with the functions."""
    return {c: [(a["cli"], a["kind"], a["required"]) for a in arguments(dump(binary, c))] for c in COMMANDS}


def generate(binary: str) -> str:
    infos = {c: dump(binary, c) for c in COMMANDS}
    table = {c: [[a["cli"], a["kind"], a["required"]] for a in arguments(i)] for c, i in infos.items()}
    parts = ['"""The typed functions of the tool\'s commands. GENERATED by python/generate_api.py from',
             '`smartstack COMMAND --experimental-dump-help`: do not edit; run it again after changing',
             'a command\'s options (python/tests/test_api.py checks that they agree)."""',
             "",
             "from __future__ import annotations",
             "",
             "import os",
             "from typing import Sequence",
             "",
             "import pandas as pd",
             "",
             "from . import _api",
             "",
             "# The options each function was generated from: (name, kind, required).",
             f"OPTIONS = {json.dumps(table, indent=1)}".replace("true", "True").replace("false", "False"),
             ""]
    for command, info in infos.items():
        parts += ["", function(command, info), ""]
    return "\n".join(parts)


if __name__ == "__main__":
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SMARTSTACK_BIN") or str(
        HERE.parent / ".build" / "release" / "smartstack")
    TARGET.write_text(generate(binary), encoding="utf-8")
    print(f"wrote {TARGET}")
