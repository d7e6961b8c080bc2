"""Running the `smartstack` binary with keyword arguments as its options."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

# The binary a wheel carries (python/hatch_build.py puts it there); absent in a plain checkout.
PACKAGED_BINARY = Path(__file__).resolve().parent / "bin" / "smartstack"


class SmartStackError(RuntimeError):
    """The tool exited non-zero. `returncode`, `stderr`, `stdout` and `args` say how."""

    def __init__(self, args: Sequence[str], returncode: int, stdout: str, stderr: str):
        self.args_run = list(args)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        message = stderr.strip() or stdout.strip() or "(no output)"
        super().__init__(f"smartstack {' '.join(args[1:2])} exited with {returncode}:\n{message}")


class BinaryNotFound(FileNotFoundError):
    """No `smartstack` binary: not given, not in $SMARTSTACK_BIN, not packaged, not on PATH."""


@dataclass(frozen=True)
class Run:
    """A finished command: what ran, what it printed, and its report folder (`--out`), if any."""

    args: list[str]
    stdout: str
    stderr: str
    out: Optional[Path]


def find_binary(binary: Optional[os.PathLike | str] = None) -> Path:
    """The `smartstack` executable, looked up in this order:

    1. `binary`, when given;
    2. the environment variable `SMARTSTACK_BIN`;
    3. the binary packaged in the wheel (`smartstack/bin/smartstack`);
    4. `smartstack` on `PATH`.
    """
    tried = []
    for label, candidate in (("binary=", binary), ("$SMARTSTACK_BIN", os.environ.get("SMARTSTACK_BIN"))):
        if candidate:
            path = Path(candidate).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return path
            raise BinaryNotFound(f"{label} {path}: not an executable file")
        tried.append(f"{label} (not set)")
    if PACKAGED_BINARY.is_file() and os.access(PACKAGED_BINARY, os.X_OK):
        return PACKAGED_BINARY
    tried.append(f"packaged {PACKAGED_BINARY} (absent)")
    on_path = shutil.which("smartstack")
    if on_path:
        return Path(on_path)
    tried.append("PATH (no smartstack)")
    raise BinaryNotFound(
        "no smartstack binary; tried " + ", ".join(tried)
        + ". Build it (`swift build -c release --product smartstack`) and set "
        "SMARTSTACK_BIN=.build/release/smartstack, or pass binary=PATH."
    )


def options(**kwargs: Any) -> list[str]:
    """Keyword arguments as command-line options, in the order given.

    `name=value` becomes `--name value` (underscores become dashes; a trailing underscore is
    dropped, so `from_=` gives `--from`); `True` gives the bare flag, `False` and `None` give
    nothing; a list or tuple is joined with commas (`strategy=["mfu", "oracle"]`).
    """
    args: list[str] = []
    for key, value in kwargs.items():
        if value is None or value is False:
            continue
        flag = "--" + key.rstrip("_").replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args


def run(command: str, *arguments: Any, binary: Optional[os.PathLike | str] = None,
        cwd: Optional[os.PathLike | str] = None, **kwargs: Any) -> Run:
    """Runs `smartstack COMMAND ARGUMENTS... OPTIONS...` and returns what it printed.

    Any command works (`batch`, `replay`, `simulate`, `relevance`, `merge`, ...); positional
    `arguments` come right after the command, `kwargs` become options (see `options`).
    Raises `SmartStackError` carrying the tool's stderr when it exits non-zero.
    """
    args = [os.fspath(find_binary(binary)), command]
    args += [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in arguments]
    args += options(**kwargs)
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SmartStackError(args, done.returncode, done.stdout, done.stderr)
    out = kwargs.get("out")
    if out is not None:
        out = Path(cwd or ".") / out
    return Run(args=args, stdout=done.stdout, stderr=done.stderr, out=out)
